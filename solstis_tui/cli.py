"""The ``solstis`` command: starts a game at once (a person against minimax, base game,
random seed and seats); ``solstis arena ...`` runs the bot arena."""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from solstis_tui.ai.registry import BOT_TIERS

from . import __version__, engine_build
from .core.rng import new_secret

if TYPE_CHECKING:  # `solstis host` and `solstis online` load nothing of the local game
    from .local.session import Setup

THEME_NAMES = ("dark", "light", "high-contrast", "ansi-16")
_PLUGIN = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def opponent_spec(text: str) -> str:
    """argparse type: a bot tier, ``package.module:Class`` or an installed bot's name."""
    from solstis_tui.ai.registry import entry_point

    text = text.strip()
    name = text.partition("@")[0]
    if name in BOT_TIERS or _PLUGIN.match(name) or entry_point(name):
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not an opponent: choose {', '.join(BOT_TIERS)}, package.module:Class "
        "or an installed bot (entry point group 'solstis.bots')")


class VersionLine(argparse.Action):
    """--version: one line, never wrapped: the version and the engine this run uses."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"solstis {__version__}, {engine_build.STATUS.line}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis",
        description="Play Solstis, the two-player tile game, in your terminal. "
                    "Without options: you against the minimax bot, base game, random seed "
                    "and seats. 'solstis arena --help' runs bots against each other; "
                    "'solstis learn' teaches the game; 'solstis games' lists the "
                    "finished games kept as records and 'solstis review' opens one; "
                    "'solstis drill' asks your last mistakes again; "
                    "'solstis host' and 'solstis online' play over a game host.",
    )
    parser.add_argument("--version", action=VersionLine, nargs=0,
                        help="say the version and which engine runs, then exit")
    parser.add_argument("--opponent", type=opponent_spec, default=None, metavar="BOT",
                        help=f"the bot to play: {', '.join(BOT_TIERS)}, "
                             "package.module:Class or an installed bot's name, "
                             "optionally with @SECONDSs or @ITERATIONS (default: minimax)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--hotseat", action="store_true",
                      help="two people on one keyboard, hands hidden between turns")
    mode.add_argument("--watch", action="store_true",
                      help="watch two bots (the --opponent tier) play; p pauses, . steps")
    mode.add_argument("--resume", action="store_true", help="continue the last saved game")
    parser.add_argument("--variant", choices=("base", "beginner", "firefly"), default=None,
                        help="base game (default), beginner (no Evil Spirit) or firefly")
    parser.add_argument("--seed", type=int, default=None,
                        help="deal this game (an integer); a chosen seed is not secret, "
                             "it is for replays and tests (default: a secret random deal)")
    parser.add_argument("--first", choices=("you", "bot", "random"), default="random",
                        help="who sits in seat 1 and starts (default: random)")
    add_screen_options(parser, "a bot's decisions (default 0.5; Space skips)")
    return parser


def add_screen_options(parser: argparse.ArgumentParser, pace: str | None = None) -> None:
    """--theme, --ascii, --no-mouse and, given ``pace`` (between what), --pace."""
    parser.add_argument("--theme", choices=THEME_NAMES, default=None,
                        help="colours for this run (default: the theme last chosen with "
                             "Ctrl+P, else dark; ansi-16 uses the terminal's own)")
    parser.add_argument("--ascii", action="store_true",
                        help="draw with plain ASCII, for terminals without Unicode")
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse")
    if pace is None:
        return
    parser.add_argument("--pace", type=float, default=0.5, metavar="SECONDS",
                        help=f"pause between {pace}")


def setup_from_args(args: argparse.Namespace, rng: random.Random | None = None) -> Setup:
    """The Setup the options describe."""
    from .local.seats import seats_for
    from .local.session import Setup

    rng = rng or random.Random()
    secret = args.seed is None  # a seed nobody chose is secret: 128 bits from the OS
    seed = new_secret() if secret else args.seed
    opponent = args.opponent or "minimax"
    variant = args.variant or "base"
    mode = "hotseat" if args.hotseat else "watch" if args.watch else "play"
    first = {"you": True, "bot": False}.get(args.first, rng.random() < 0.5)
    seats = seats_for(mode, opponent, person_first=first)
    return Setup(variant=variant, seed=seed, seats=seats, secret=secret)


def learn_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis learn",
        description="Learn Solstis by playing a guided game against the Tutor: each step "
                    "says what to do and waits until you have done it. Leave with q at "
                    "any time; 'solstis learn' resumes where you left.")
    parser.add_argument("chapter", nargs="?", choices=("base", "firefly"), default=None,
                        help="base: the base game (default, or the chapter you left); "
                             "firefly: the Firefly expansion")
    parser.add_argument("--restart", action="store_true",
                        help="start the chapter from its first step")
    add_screen_options(parser, "the Tutor's decisions (default 0.5)")
    return parser


def run_learn(argv: list[str]) -> int:
    parser = learn_parser()
    args = parser.parse_args(argv)
    if args.pace < 0:
        parser.error("--pace must be 0 or more seconds")
    if refuse_without_a_terminal():
        return 2
    from .app import SolstisApp
    from .tutorial import progress

    chapter = args.chapter
    if chapter is None:
        left = None if args.restart else progress.saved_chapter()
        chapter = left.name if left is not None else "base"
    app = SolstisApp(tutorial=chapter, restart_tutorial=args.restart, theme_name=args.theme,
                     ascii_mode=args.ascii or not locale_shows_unicode(os.environ),
                     pace=args.pace)
    app.run(mouse=not args.no_mouse)
    return 0


def refuse_without_a_terminal() -> bool:
    """True (after saying why on stderr) when the board cannot be drawn: TERM=dumb, or no
    terminal at all (standard input or output a pipe or a file)."""
    if os.environ.get("TERM", "") == "dumb":
        print("solstis: this terminal (TERM=dumb) cannot draw the board: it cannot move the "
              "cursor or clear the screen. Run solstis in a terminal such as xterm, tmux or "
              "the Linux console (NO_COLOR=1 gives a board without colours).",
              file=sys.stderr)
        return True
    if not has_terminal():
        print("solstis: the board needs a terminal, and standard input or output is a pipe "
              "or a file. Run solstis in a terminal ('solstis arena' prints its results "
              "anywhere).", file=sys.stderr)
        return True
    return False


def has_terminal() -> bool:
    """Standard input and output are a terminal, or the app is served to a browser
    (``solstis web`` runs it with Textual's web driver, through pipes)."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return True
    return sys.stdin.isatty() and sys.stdout.isatty()


def locale_shows_unicode(env: Mapping[str, str]) -> bool:
    """The locale says the terminal shows UTF-8 (else ``--ascii`` is implied).

    The first of LC_ALL, LC_CTYPE and LANG that is set decides; none set is the C locale.
    Python itself turns a C locale into LC_CTYPE=C.UTF-8 (PEP 538) for its own use: with
    LANG unset, C or POSIX, that LC_CTYPE is read as the C locale the terminal asked for.
    """
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        if name == "LC_CTYPE" and value == "C.UTF-8" and \
                env.get("LANG", "") in ("", "C", "POSIX"):
            return False
        return "utf-8" in value.lower() or "utf8" in value.lower()
    return False


def run_arena(argv: list[str]) -> int:
    try:
        from solstis_tui.ai.arena import main as arena_main
    except ImportError as exc:
        print(f"solstis arena: the arena is not available ({exc})", file=sys.stderr)
        return 2
    return int(arena_main(argv) or 0)


def review_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis review",
        description="Open a finished game on the analysis board: a kept record by its id "
                    "(see 'solstis games'), or a record file someone sent you. Without "
                    "one: the newest kept game.")
    parser.add_argument("record", nargs="?", metavar="ID|FILE",
                        help="a record's id (or the start of it), or a record file")
    add_screen_options(parser)
    return parser


def run_review(argv: list[str]) -> int:
    """``solstis review [ID|FILE]``: a record that does not load is refused, naming its
    line, before any screen opens."""
    from .records_cli import load_for_review

    args = review_parser().parse_args(argv)
    found = load_for_review(args.record, sys.stderr)
    if found is None:
        return 2
    if refuse_without_a_terminal():
        return 2
    from .app import SolstisApp

    app = SolstisApp(review=found[0], review_path=found[1], theme_name=args.theme,
                     ascii_mode=args.ascii or not locale_shows_unicode(os.environ))
    app.run(mouse=not args.no_mouse)
    return 0


def drill_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solstis drill",
        description="Your last 20 mistakes across kept games (the decisions the analysis "
                    "calls a mistake or a blunder), asked again one by one on the board; "
                    "each answer is judged and explained.")
    parser.add_argument("--analyse", action="store_true",
                        help="first analyse the kept games not analysed yet (10 to 30 "
                             "seconds a game, with progress)")
    add_screen_options(parser)
    return parser


def run_drill(argv: list[str]) -> int:
    """``solstis drill [--analyse]``: with no mistakes to ask, a sentence and no screen."""
    from .local import drill

    args = drill_parser().parse_args(argv)
    found = drill.collect()
    if args.analyse and found.unanalysed:
        if refuse_without_a_terminal():  # before minutes of judging, not after
            return 2
        from solstis_tui.ai.expert import usable_cores

        def progress(done: int, total: int, path: object) -> None:
            print(f"\ranalysing kept games: {done + 1} of {total}", end="", file=sys.stderr,
                  flush=True)

        drill.analyse_missing(found, progress, workers=usable_cores())
        print(file=sys.stderr)
        found = drill.collect()
    if not found.exercises:
        print(found.empty_message())
        return 0
    if refuse_without_a_terminal():
        return 2
    from .app import SolstisApp

    app = SolstisApp(drill=drill.DrillRun(found), theme_name=args.theme,
                     ascii_mode=args.ascii or not locale_shows_unicode(os.environ))
    app.run(mouse=not args.no_mouse)
    return 0


def to_a_pipe(command: Callable[[list[str]], int], argv: list[str]) -> int:
    """Run a command that prints: a reader that stops early (``| head``) ends it quietly
    with status 1, not with a traceback."""
    try:
        status = command(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at nothing first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


#: The subcommands, each with a parser of its own.
COMMANDS = ("arena", "analyze", "learn", "games", "review", "drill", "host", "fleet",
            "online", "web")


def command_first(parser: argparse.ArgumentParser, argv: list[str]) -> list[str] | None:
    """``argv`` with a subcommand written after options moved to the front (``solstis
    --ascii review X`` is ``solstis review --ascii X``, whose parser then checks those
    options); None where no subcommand follows the options."""
    _, rest = parser.parse_known_args(argv)
    if not rest or rest[0] not in COMMANDS:
        return None
    at = argv.index(rest[0])
    return [rest[0], *argv[:at], *argv[at + 1:]]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if engine_build.STATUS.stale:  # the edit runs, slower; say how to get speed back
        print(engine_build.stale_message(engine_build.STATUS), file=sys.stderr)
    if argv and argv[0] not in COMMANDS:
        argv = command_first(build_parser(), argv) or argv
    if argv and argv[0] == "arena":
        return run_arena(argv[1:])
    if argv and argv[0] == "analyze":
        from .analyze_command import main as analyze_main

        return to_a_pipe(analyze_main, argv[1:])
    if argv and argv[0] == "learn":
        return run_learn(argv[1:])
    if argv and argv[0] == "games":
        from .records_cli import games_main

        return to_a_pipe(games_main, argv[1:])
    if argv and argv[0] == "review":
        return run_review(argv[1:])
    if argv and argv[0] == "drill":
        return run_drill(argv[1:])
    if argv and argv[0] == "host":
        from .host.serve import main as host_main

        return host_main(argv[1:])
    if argv and argv[0] == "fleet":
        if argv[1:2] != ["certs"]:
            print("usage: solstis fleet certs DIR [--scheduler NAME] [--workers NAMES]: "
                  "make the bot fleet's TLS files (docs/cluster.md)", file=sys.stderr)
            return 2
        from .host.fleet_certs import main as certs_main

        return certs_main(argv[2:])
    if argv and argv[0] in ("online", "web"):
        from .client import launch

        return (launch.online_main if argv[0] == "online" else launch.web_main)(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.pace < 0:
        parser.error("--pace must be 0 or more seconds")
    if args.resume:
        chosen = [flag for flag, value in (("--seed", args.seed), ("--variant", args.variant),
                                           ("--opponent", args.opponent))
                  if value is not None]
        if args.first != "random":
            chosen.append("--first")
        if chosen:
            parser.error(f"--resume continues the saved game as it was dealt: leave out "
                         f"{', '.join(chosen)} (or start a new game without --resume)")
    setup = setup_from_args(args)
    for seat in setup.seats:
        if seat.bot is not None:
            from solstis_tui.ai.registry import make_bot

            try:
                make_bot(seat.bot, 0)
            except Exception as exc:  # a plug-in bot may fail any way: say how, and stop
                parser.error(f"--opponent {seat.bot}: {exc}")
    # Options that choose the game still ask before an unfinished saved game is replaced.
    chose_game = any(x is not None for x in (args.seed, args.opponent, args.variant)) or \
        args.hotseat or args.watch or args.first != "random"
    if refuse_without_a_terminal():
        return 2
    from .app import SolstisApp

    app = SolstisApp(
        setup,
        resume=args.resume,
        offer_continue=not args.resume,
        options_given=chose_game,
        theme_name=args.theme,
        ascii_mode=args.ascii or not locale_shows_unicode(os.environ),
        pace=args.pace,
    )
    app.run(mouse=not args.no_mouse)
    return 0


if __name__ == "__main__":
    sys.exit(main())
