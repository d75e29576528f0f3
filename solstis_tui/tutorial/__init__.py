"""``solstis learn``: a guided game on a hand-made deal that teaches the rules by doing.

``chapters`` holds the lessons (a position, the Tutor's moves and the steps), ``session``
the game that checks each of the player's moves against the step it is on, ``progress``
where a left tutorial is kept so that it can be resumed.
"""
