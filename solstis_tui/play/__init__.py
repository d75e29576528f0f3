"""Playing a game on a screen, without the screen: the play controller (controller.py),
where each decision is answered (zones.py), what the board draws (view.py) and the words
the screens use (words.py). Nothing here imports Textual."""
