"""The rules that keep a rating a measure of play against the field, not a favour two
people can do each other (docs/ratings.md): which rated games count, and who is
established enough for the leaderboard. Pure rules: the database and the host apply them.

- **The same two people**: at most ``PAIR_GAMES_PER_DAY`` of their rated games count in any
  24 hours (``PAIR_WINDOW``), and only ``PAIR_GAMES_PROVISIONAL`` while either rating is
  provisional (a provisional rating moves most, and one opponent is the cheapest to
  arrange); later ones are played unrated. Bots are not people here: a bot cannot collude,
  and practice against one counts every time.
- **Two provisional ratings**: a rated game between two people whose ratings are both
  provisional (shown with "?") is played unrated. A newcomer's rating settles in games
  against a bot or a person whose rating has settled: a first rating comes from opponents
  whose own rating means something, as FIDE gives a first rating only from games against
  rated players. (Without it one win between two newcomers moves each rating 162 points:
  Glicko-2 gives a newcomer's first results a large weight.)
- **The leaderboard** lists established players only: ``BOARD_GAMES`` counted rated games
  against ``BOARD_OPPONENTS`` different opponents, a deviation under ``BOARD_RD`` now, and
  a counted game in the last ``BOARD_ACTIVE_DAYS`` days. Bots are always listed: they are
  the scale's landmarks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .glicko2 import Rating
from .rating_pools import split_key

PAIR_GAMES_PER_DAY = 3  # rated games of the same two people that count in PAIR_WINDOW
PAIR_GAMES_PROVISIONAL = 1  # ... while either of them has a provisional rating
PAIR_WINDOW = 24 * 3600.0  # seconds: a rolling day
BOARD_GAMES = 20  # counted rated games before a player is listed on the leaderboard
BOARD_OPPONENTS = 3  # ... against at least this many different opponents (bots count)
BOARD_RD = 90.0  # ... with a deviation under this, now (it widens each idle day)
BOARD_ACTIVE_DAYS = 30  # ... and a counted rated game in this many days
DAY = 24 * 3600.0

#: Why a rated game is played unrated (a table's ``unrated``): the code, then the sentence
#: the players read before they play and, shortened, in place of the rating change.
PAIR, PAIR_PROVISIONAL, PROVISIONAL = "pair", "pair_provisional", "provisional"


def is_bot(identity: str) -> bool:
    """Whether ``identity`` (or its key in a rating pool: see rating_pools) is one of the
    host's bot tiers (``bot:<tier>``)."""
    return split_key(identity)[0].startswith("bot:")


def settled(identity: str, rating: Rating) -> bool:
    """Whether ``identity``'s rating (as it stands now) can give another player a first
    rating: a bot's always (the ladder placed it), a person's once it is not provisional."""
    return is_bot(identity) or not rating.provisional


def unrated_reason(kind: str, names: tuple[str, str], cap: int = PAIR_GAMES_PER_DAY) -> str:
    """The sentence players read when their rated game will be played unrated."""
    if kind == PAIR:
        return (f"{names[0]} and {names[1]} have had {cap} rated games count in the last 24 "
                f"hours, the most a day between the same two players")
    if kind == PAIR_PROVISIONAL:
        return (f"{names[0]} and {names[1]} have had a rated game count in the last 24 "
                f"hours: one a day counts while either rating is provisional (?)")
    return ("both ratings are still provisional (?): a rating settles in rated games "
            "against the bots or players whose rating has settled")


def not_counted(kind: str, cap: int = PAIR_GAMES_PER_DAY) -> str:
    """Why a game played unrated for ``kind`` moved no rating, shown at its end after "not
    counted: "."""
    if kind == PAIR:
        return f"{cap} rated games a day between the same two players count"
    if kind == PAIR_PROVISIONAL:
        return "one rated game a day counts between two players while a rating is provisional"
    return "both ratings were provisional (?)"


@dataclass(frozen=True)
class Played:
    """What the leaderboard asks of a rated identity's counted games: how many, the
    different opponents (the first ``BOARD_OPPONENTS`` kept), and when the last one
    finished (None: never)."""

    games: int = 0
    last: float | None = None
    opponents: frozenset[str] = field(default_factory=frozenset)

    def after(self, opponent: str, finished: float) -> Played:
        """This record with one more counted game, against ``opponent``."""
        opponents = self.opponents
        if len(opponents) < BOARD_OPPONENTS:
            opponents = opponents | {opponent}
        last = finished if self.last is None else max(self.last, finished)
        return Played(self.games + 1, last, opponents)


def missing_for_board(played: Played, rating: Rating, now: float) -> list[str]:
    """What a person still lacks to be on the leaderboard ``now`` (``rating`` as it stands
    now, its deviation widened for idle days); empty: established, listed."""
    missing = []
    if played.games < BOARD_GAMES:
        missing.append(f"{BOARD_GAMES - played.games} more rated games that count")
    if len(played.opponents) < BOARD_OPPONENTS:
        missing.append(f"games against {BOARD_OPPONENTS - len(played.opponents)} more "
                       "different opponents")
    if rating.rd >= BOARD_RD:
        missing.append(f"a settled rating (deviation {rating.rd:.0f}, under {BOARD_RD:.0f} "
                       "needed)")
    if played.last is None or now - played.last > BOARD_ACTIVE_DAYS * DAY:
        missing.append(f"a rated game that counts in the last {BOARD_ACTIVE_DAYS} days")
    return missing


def board_rule() -> str:
    """The leaderboard's rule, as a person reads it."""
    return (f"the leaderboard lists players with {BOARD_GAMES} rated games that count, "
            f"against {BOARD_OPPONENTS} different opponents, a settled rating (deviation "
            f"under {BOARD_RD:.0f}) and a rated game in the last {BOARD_ACTIVE_DAYS} days")
