"""The program's one voice: the narrator of the log and the words for moves and prompts."""
