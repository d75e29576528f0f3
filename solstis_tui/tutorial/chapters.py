"""The tutorial's chapters: a hand-made position, the Tutor's scripted moves, and the steps.

A step either waits for one move of the player (``move``, in the engine's notation) or is
read and passed with Enter (``move`` None). Decisions with a single legal move are made by
the engine on its own, so the steps list only real choices. ``marks`` names the cells and
tiles the board highlights while the step is on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..core import Game
from ..core.board import CELLS, NAMES


@dataclass(frozen=True)
class Step:
    """One thing the player reads or does."""

    say: str
    """What to do, in one or two sentences."""
    move: str | None = None
    """The move this step waits for; None: read it and press Enter."""
    why: str = ""
    """Said when the player makes another (legal) move instead."""
    tiles: tuple[str, ...] = ()
    """Tiles to highlight ("2-2") in the hand and the display."""
    cells: tuple[str, ...] = ()
    """Cells to highlight in your panorama."""
    theirs: tuple[str, ...] = ()
    """Cells to highlight in the Tutor's panorama."""
    after_tutor: bool = False
    """A step that is read once the Tutor has played its moves (others hold it back)."""


@dataclass(frozen=True)
class Chapter:
    """A lesson: a position to start from, the Tutor's decisions in order, the steps."""

    name: str
    title: str
    variant: str
    position: str
    """``Game.from_json`` text of the starting position."""
    tutor: tuple[str, ...]
    steps: tuple[Step, ...]

    def new_game(self) -> Game:
        return Game.from_json(self.position)


def position(variant: str, display: list[list[str]], hands: list[list[str]],
             pile: list[str], spirits: list[str], land: tuple[list[str], list[str]] = ([], []),
             turn: int = 1) -> str:
    """A hand-made starting position; every land tile not listed is out of the game."""
    used = {t for pile_ in display for t in pile_} | set(pile) | {
        t for group in (*hands, *land) for t in group}
    data = {
        "format": "solstis-game", "version": 2,
        "options": {"beginner": False, "firefly": variant == "firefly"},
        "seed": 1, "turn": turn, "to_play": 0,
        "land_pile": pile, "display": display, "spirit_pile": spirits,
        "removed": [NAMES[c] for c in CELLS if NAMES[c] not in used],
        "players": [{"hand": hands[p], "land": land[p]} for p in (0, 1)],
    }
    return json.dumps(data)


BASE = Chapter(
    name="base",
    title="Chapter 1: the base game",
    variant="base",
    position=position(
        "base",
        display=[["2-2", "4-6"], ["3-8", "4-9"], ["2-3", "3-3"], ["4-2", "6-4"],
                 ["2-9", "2-5"], ["4-4", "5-3"]],
        hands=[["1-2", "5-5", "6-7"], ["3-9", "4-8", "3-6"]],
        pile=["1-3", "1-9", "2-1", "2-4", "1-6", "1-10", "4-3", "4-7", "3-1", "6-5", "2-6"],
        spirits=["butterfly", "wolf", "frog", "bee", "evil", "fish", "bird", "deer",
                 "marmot", "bear", "eagle", "beetle", "fly", "ladybug", "squirrel"],
    ),
    tutor=("play 3-9", "capture 3-8", "play 4-8", "capture 4-9", "keep butterfly",
           "play 3-6", "capture 4-6", "play 1-9", "capture 2-9", "play 1-6", "play 6-5",
           "capture 6-7"),
    steps=(
        Step("Welcome: you play against the Tutor on a short, hand-made deal. Your "
             "panorama is the grid on the left; you fill it with the tiles you capture. "
             "Press Enter."),
        Step("A turn starts by playing a tile from your hand. 1-2 shares column 2 with "
             "2-2 and 4-2 in the display, so it captures: press 1, then Enter.",
             move="play 1-2", why="play 1-2 for this step: it captures 2-2 or 4-2",
             tiles=("1-2", "2-2", "4-2")),
        Step("Capture one of them: 2-2 will sit right above 1-2. Press A, then Enter: both "
             "tiles go into your panorama.",
             move="capture 2-2", why="capture 2-2 here: it joins your 1-2",
             tiles=("2-2",)),
        Step("Each tile went to its own cell (row-column) and shows its landscape's letter "
             "(g explains the symbols). Press Enter: the Tutor plays.",
             cells=("1-2", "2-2")),
        Step("The Tutor captured 3-8 with 3-9. Now play 5-5 (2, then Enter): nothing in "
             "the display shares its row or column, so it captures nothing.",
             move="play 5-5", why="play 5-5 for this step, to see the second chance",
             tiles=("5-5",)),
        Step("Second chance: 5-5 joined the display and you drew 2-1, which can capture. "
             "Take 2-3 (C, then Enter): it lands next to your 2-2.",
             move="capture 2-3", why="capture 2-3 here: it sits beside your 2-2",
             tiles=("2-3",)),
        Step("Three of the four cells 1-1, 1-2, 2-1, 2-2 are yours: four tiles in a 2x2 "
             "block make a square. Press Enter: the Tutor plays.",
             cells=("1-1", "1-2", "2-1", "2-2")),
        Step("The Tutor closed a square and met a spirit, the Butterfly. Play 6-7 (3, then "
             "Enter): it captures nothing, and neither will the tile you draw.",
             move="play 6-7", why="play 6-7 for this step: it leads to a rainbow",
             tiles=("6-7",)),
        Step("Neither tile captured: both joined the display, and you get a rainbow, a wild "
             "tile. Put it on 1-1 (arrows move the cursor), then Enter: it closes a square.",
             move="rainbow 1-1", why="put the rainbow on 1-1: it completes your square",
             cells=("1-1",)),
        Step("A closed square brings a spirit: draw two from the spirit pile, or take one "
             "from the line (the Wolf). Press d to draw two.",
             move="draw", why="draw two (d) for this step"),
        Step("Keep one; the other goes to the line. Keep the Frog (1, then Enter): a blue "
             "spirit, worth 1 star plus 1 for each rainbow you own.",
             move="keep frog", why="keep the Frog: it scores more with your rainbows"),
        Step("The Tutor took 4-6. Play 1-3 (1, then Enter): it shares column 3 with 3-3, "
             "so it can capture it, and 1-3 itself closes a second square.",
             move="play 1-3", why="play 1-3 for this step: it closes a square",
             tiles=("1-3", "3-3")),
        Step("Capture 3-3 (A, then Enter; 1-10 would sit far away): 1-3 then completes "
             "the square 1-2, 1-3, 2-2, 2-3.",
             move="capture 3-3", why="capture 3-3 here: with 1-3 it closes a square",
             tiles=("3-3",)),
        Step("Another square, another spirit. Press d to draw two: the pile holds a "
             "surprise.",
             move="draw", why="draw two (d) for this step"),
        Step("You drew the Fish and the Evil Spirit, and must keep the Fish. It acts at "
             "once and gives you a rainbow: put it on 1-4, next to your 1-3.",
             move="rainbow 1-4", why="put the rainbow on 1-4: it prepares a third square",
             cells=("1-4",)),
        Step("The Evil Spirit stays with you (Evil by your name): at the end, its holder "
             "loses a spirit. Pass it on by meeting another spirit. Press Enter."),
        Step("The Tutor took 2-9. Play 2-4 (1, then Enter): it shares row 2 with 2-5 and "
             "closes the square 1-3, 1-4, 2-3, 2-4.",
             move="play 2-4", why="play 2-4 for this step: it closes a square",
             tiles=("2-4", "2-5")),
        Step("Capture 2-5 (B, then Enter; 4-4 would stand alone): it joins your big "
             "group.",
             move="capture 2-5", why="capture 2-5 here: it touches your 2-4",
             tiles=("2-5",)),
        Step("Meet a spirit to pass the Evil Spirit on: take the Bee from the line (3, then "
             "Enter). It scores 1 plus 1 for each plain spirit you own.",
             move="take bee", why="take the Bee from the line: the Evil Spirit then goes "
                                  "to the Tutor"),
        Step("The land pile is empty, so only tiles that capture may be played: 4-3 was "
             "played for you. Capture 4-2 (A, then Enter): its fire lights up.",
             move="capture 4-2", why="capture 4-2 here: it carries a fire",
             tiles=("4-2",)),
        Step("Nobody can capture any more, so the game is over (tiles left in a hand score "
             "nothing). The Tutor held the Evil Spirit: it covers a spirit you would choose, "
             "but the Tutor had only one, the Butterfly.",
             after_tutor=True),
        Step("Your score line says sec 10: your biggest section (tiles joined side by side) "
             "has 10 land tiles. Its two rainbows join it but score nothing. Press Enter.",
             cells=("1-1", "1-2", "1-3", "1-4", "2-1", "2-2", "2-3", "2-4", "2-5", "3-3",
                    "4-3", "4-2")),
        Step("fire 1: the fire on 4-2 is lit, because its section reaches row 1. Unlit "
             "fires score nothing. Press Enter.",
             cells=("4-2",)),
        Step("spir 3+3: 1 star each for the Frog, the Fish and the Bee, plus 2 for the "
             "Frog's two rainbows and 1 for the Bee's plain Fish. Press Enter."),
        Step("You win, 17 stars to 11. Enter: a real game against the Random bot; f: the "
             "Firefly chapter; q: leave."),
    ),
)

FIREFLY = Chapter(
    name="firefly",
    title="Chapter 2: the Firefly expansion",
    variant="firefly",
    position=position(
        "firefly",
        display=[["2-2", "5-5"], ["4-4", "6-6"], ["5-6", "3-7"], ["1-9", "2-9"],
                 ["5-8", "1-5"], ["6-4", "4-3"]],
        hands=[["3-2", "2-6", "1-8"], ["3-9", "4-5", "2-7"]],
        pile=["1-4", "2-10", "1-7", "3-10", "5-3", "5-4", "4-6"],
        spirits=["evil", "phoenix", "butterfly", "frog", "bee", "cow", "viper", "renard",
                 "fish", "deer", "eagle", "bear", "fly", "beetle", "marmot", "ladybug",
                 "wolf", "squirrel", "bird"],
        land=(["1-1", "1-2", "1-3", "2-1", "2-3"], ["4-7", "4-8", "5-7"]),
        turn=9,
    ),
    tutor=(),
    steps=(
        Step("Firefly adds fireflies and a wandering Evil Spirit. This game is under way: "
             "your panorama lacks only 2-2 for two squares. Press Enter.",
             cells=("1-1", "1-2", "1-3", "2-1", "2-3")),
        Step("Play 3-2 (3, then Enter): it captures 2-2 in column 2, and 2-2 closes two "
             "squares at once.",
             move="play 3-2", why="play 3-2 for this step: it captures 2-2",
             tiles=("3-2", "2-2")),
        Step("You drew the Phoenix and the Evil Spirit. Put the Phoenix on the square at "
             "1-1 (Enter; arrows move), and the other square gets one of your fireflies.",
             move="square 1-1", why="put the Phoenix on the square at 1-1 for this step",
             cells=("1-1",)),
        Step("You drew the Evil Spirit: it goes on the Tutor's panorama, next to a tile, and "
             "forbids that cell until the Tutor meets a spirit and moves it on to yours. Put "
             "it on 4-6 (Tab to it, then Enter).",
             move="evil 4-6", why="put the Evil Spirit on 4-6 for this step",
             theirs=("4-6",)),
        Step("A firefly scores 1 star at the end if its square connects to row 1; a "
             "fourth firefly wins the game at once. The Phoenix scores 1 per firefly.",
             ),
        Step("Firefly also brings four spirits (Cow, Phoenix, Viper, Renard; e lists them). "
             "Enter: a real Firefly game against the Random bot; q: leave."),
    ),
)

CHAPTERS: dict[str, Chapter] = {BASE.name: BASE, FIREFLY.name: FIREFLY}
