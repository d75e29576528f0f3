"""The messages a player sends about a table: create one, join, watch, leave, play a
move, resign, claim on time, chat, and take another name.

Each handler checks what the player may do (``quotas``), makes its change through the
keeper's one transaction (``TableKeeper.commit``: saved before it counts) and tells
everyone at the table. A refusal is a ``ProtocolError`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from solstis_tui.ai.registry import BOT_TIERS

from ..core import EndReason, IllegalMove
from ..wire.messages import Chat, Create, Leave, PlayMove, Rename, Watch
from ..wire.protocol import ProtocolError, duration_words
from ..wire.replies import ChatLine, HostReply, Joined, Left, Renamed, Watching
from .connection import Connection
from .quotas import Quotas, identity
from .table_keeper import TableKeeper
from .tables import Seat, Table, end_game, new_table
from .views import seat_presence, state_message

if TYPE_CHECKING:
    from .admission import Door
    from .players import PlayerRegistry
    from .standings import Standings

#: What a message handler answers the client (None: nothing, or it pushed its replies).
Reply = HostReply | None


class TableMessages:
    """The table messages' handlers. ``remember_watcher(conn, table)``: whether a watcher
    may read the game's record once it is over (``AfterGame.remember_watcher``)."""

    def __init__(self, keeper: TableKeeper, quotas: Quotas, standings: Standings,
                 players: PlayerRegistry, door: Door, create_lock: asyncio.Lock,
                 remember_watcher: Callable[[Connection, Table], Awaitable[bool]]) -> None:
        self.keeper = keeper
        self.quotas = quotas
        self.standings = standings
        self.players = players
        self.door = door
        self.limits = keeper.limits
        self.create_lock = create_lock
        self.remember_watcher = remember_watcher

    async def watch(self, conn: Connection, table: Table, msg: Watch) -> Reply:
        cap = self.limits.watched_per_connection
        if table.id not in conn.watching and len(conn.watching) >= cap:
            raise ProtocolError("too_many", f"you watch {cap} tables already: leave one first")
        record = await self.remember_watcher(conn, table)  # may they read it?
        table = self.keeper.tables.get(table.id, table)
        conn.watching.add(table.id)
        conn.push(Watching(table.id, record))
        conn.push(state_message(table, None, seat_presence(table, self.keeper.where),
                                self.standings.rating_text, self.keeper.clock()))
        return None

    async def leave(self, conn: Connection, table: Table, msg: Leave) -> Reply:
        if msg.for_good:
            return await self.leave_for_good(conn, table)
        conn.seated.discard(table.id)
        conn.watching.discard(table.id)
        await self.keeper.broadcast(table)
        return Left(table.id)

    async def create(self, conn: Connection, msg: Create) -> Reply:
        opponent, rated, clock = msg.opponent, msg.rated, msg.clock
        if opponent != "friend" and opponent not in BOT_TIERS:  # the host's own tiers only
            raise ProtocolError("bad_message", f"opponent is 'friend' or one of {BOT_TIERS}")
        seat = random.randrange(2) if msg.seat is None else msg.seat
        if rated:
            self.quotas.check_rated(conn)
        seats = [Seat(), Seat()]
        seats[seat] = Seat(conn.name, conn.code, identity=identity(conn))
        if opponent != "friend":
            seats[1 - seat] = Seat(opponent.capitalize(), None, opponent, f"bot:{opponent}")
        async with self.create_lock:  # no second create can pass the caps during the save
            self.quotas.check_caps(conn, against_bot=opponent != "friend",
                                   correspondence=msg.days > 0)
            self.quotas.spend(conn, "tables", self.limits.new_tables_per_minute,
                        "new tables a minute")
            table = new_table(msg.options, seats, rated, clock, self.keeper.clock(),
                              msg.bank * 60.0, msg.days)
            while table.id in self.keeper.tables:  # table ids are short: never reuse one
                table = new_table(msg.options, seats, rated, clock, self.keeper.clock(),
                                  msg.bank * 60.0, msg.days)
            await self.keeper.add(table)
        conn.seated.add(table.id)
        conn.push(Joined(table.id, seat))
        await self.keeper.broadcast(table)
        self.keeper.schedule(table)
        return None

    async def join(self, conn: Connection, table: Table) -> Reply:
        seat = table.seat_of(conn.code)
        if seat is None:
            if table.rated and any(s.is_open for s in table.seats):
                self.quotas.check_rated(conn)

            def sit(t: Table) -> None:
                free = [i for i, s in enumerate(t.seats)
                        if s.is_open and s.kept_for in (None, conn.code)]
                if not free:
                    kept = [s.name for s in t.seats if s.is_open and s.kept_for]
                    raise ProtocolError("table_full", f"the seat is kept for {kept[0]} (a "
                                        "rematch); you can watch" if kept else
                                        "both seats are taken; you can watch")
                free.sort(key=lambda i: t.seats[i].kept_for is None)  # a seat kept for you
                t.seats[free[0]] = Seat(conn.name, conn.code, identity=identity(conn))

            async with self.create_lock:
                self.quotas.check_caps(conn, against_bot=None,
                                       correspondence=table.correspondence)
                unrated = await self.standings.unrated_at(table, identity(conn),
                                                          self.keeper.tables.values())

                def sit_told(t: Table) -> None:
                    sit(t)
                    if unrated is not None and not any(s.is_open for s in t.seats):
                        t.unrated = unrated  # both are told before they play

                table = await self.keeper.commit(table, sit_told, "your seat")
            seat = table.seat_of(conn.code)
        conn.seated.add(table.id)
        conn.push(Joined(table.id, seat))
        await self.keeper.broadcast(table)
        return None

    async def rename(self, conn: Connection, msg: Rename) -> Reply:
        """A player who belongs to an identity takes another name; their former names stay
        theirs (see PlayerRegistry.rename), and their seats show the new one."""
        code, name = conn.code, msg.name
        if identity(conn) is None or code is None:
            raise ProtocolError("bad_name", "only players the host knows by their key or "
                                "their account can change their name")
        if self.players.name_taken(name, by_other_than=code):
            raise ProtocolError("name_taken", f"the name {name} is taken, or looks too much "
                                "like one that is: choose another")
        if self.door.trust.kept_for(name, conn.who) is not None:
            raise ProtocolError("name_taken", f"the name {name} is kept for a player the "
                                "host's owner added by key, or looks too much like it: "
                                "choose another")
        self.quotas.spend(conn, "rename", 1.0, "rename a minute")  # refused tries cost nothing
        try:
            await self.players.rename(code, name)
        except OSError as exc:
            raise self.door.refused(exc, "your new name") from None
        for other in self.keeper.conns:
            if other.code == code:
                other.name = name

        def rename_seat(t: Table) -> None:
            seat = t.seat_of(code)
            if seat is not None:
                t.seats[seat].name = name

        for table in [t for t in self.keeper.tables.values() if t.seat_of(code) is not None]:
            try:
                renamed = await self.keeper.commit(table, rename_seat,
                                                   "your new name at that table")
            except ProtocolError:
                continue  # the table went, or the disk refused: that table keeps the old one
            await self.keeper.broadcast(renamed)
        self.keeper.lobby_changed()
        return Renamed(name)

    async def chat(self, conn: Connection, table: Table, msg: Chat) -> None:
        """A chat line (checked by its parser) to everyone at the table."""
        if table.id not in conn.seated | conn.watching:
            raise ProtocolError("not_here", "join or watch the table to chat")
        # only a line that is said uses up the allowance: a refused one changes nothing
        self.quotas.spend(conn, "chat", self.limits.chat_lines_per_minute, "chat lines a minute")
        for other in self.keeper.where.audience(table.id):
            other.push(ChatLine(table.id, conn.name, msg.text))
        return None

    async def move(self, conn: Connection, table: Table, msg: PlayMove) -> Reply:
        seat = table.seat_of(conn.code)
        if seat is None or table.id not in conn.seated:
            raise ProtocolError("not_seated", "you do not play at this table")

        def play(t: Table) -> None:
            game = t.game
            if game.is_over:
                raise ProtocolError("over", "the game is over")
            if game.to_play != seat:
                raise ProtocolError("not_your_turn", "it is not your turn")
            if msg.seq is not None and msg.seq != len(game.history):
                raise ProtocolError("stale", "the game moved on; look again")
            try:
                game.play(msg.move)
            except (ValueError, IllegalMove) as exc:
                raise ProtocolError("illegal", str(exc)) from None

        await self.keeper.after_change(await self.keeper.commit(table, play, "that move"))
        return None

    async def resign(self, conn: Connection, table: Table) -> Reply:
        """The player gives up the game: it ends as their loss (recorded like any finished
        game, and counted in ratings at a rated table once both have played: before, it is
        an abandoned game, see ``Table.counts``)."""
        seat = table.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play at this table")
        if table.status() == "open":
            raise ProtocolError("not_started", "nobody sits opposite you yet: leave the "
                                "table for good instead")
        await self.keeper.commit(table, lambda t: end_game(t, seat, EndReason.RESIGNED),
                           "your resignation")
        await self.keeper.after_change(table)
        return None

    async def claim(self, conn: Connection, table: Table) -> Reply:
        """The waiting player claims a game whose player to move ran out of time on the
        move clock: it ends as a loss for that player (rated tables count it if it was
        played: ``Table.counts``). No clock runs before both have made a first decision."""
        seat = table.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play at this table")
        if table.game.is_over:
            raise ProtocolError("over", "the game is over")
        if table.status() == "open":
            raise ProtocolError("not_started", "nobody sits opposite you yet")
        if table.game.to_play == seat:
            raise ProtocolError("not_your_claim", "it is your own decision: play it")
        if table.seats[table.game.to_play].bot is not None:
            raise ProtocolError("not_your_claim", "a bot is deciding: it is never out of "
                                "time")
        if not table.clocks_run() and not table.correspondence:
            waiting = "you have" if table.decisions(seat) == 0 else "the other player has"
            raise ProtocolError("too_early", "the clocks run only once both players have made "
                                f"a first decision in this game, and {waiting} not yet. "
                                "Not waiting? Leave the table for good: a game that ends "
                                "this early is abandoned and moves no rating")
        left = table.time_left(self.keeper.clock())
        if left > 0:
            raise ProtocolError("too_early", f"the other player has {duration_words(left)} "
                                "left for this decision")
        loser = table.game.to_play
        await self.keeper.commit(table, lambda t: end_game(t, loser, EndReason.TIME), "your claim")
        await self.keeper.after_change(table)
        return None

    async def leave_for_good(self, conn: Connection, table: Table) -> Left:
        """The player gives up their seat: at a table still waiting for a second player
        the seat opens again (nobody is left, so the table closes); during a game it is a
        resignation; after it, a plain leave."""
        seat = table.seat_of(conn.code)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play at this table")
        if table.status() == "open":
            await self.keeper.close_open(table, f"{conn.name} left table {table.id} before anyone "
                                  "joined, so it was closed", "someone sat down at the table "
                                  "meanwhile; look again", but=conn)
        elif not table.game.is_over:
            await self.resign(conn, table)
        conn.seated.discard(table.id)
        conn.watching.discard(table.id)
        return Left(table.id, for_good=True)
