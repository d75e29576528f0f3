"""Text from other people is text, never markup (issue 14 §2).

Names, chat and anything a host message carries are shown literally on every screen a
player meets (lobby, seats, top bar, score sheet, log, toasts, end screen, watch mode,
review), at 80×24 and at 160×48 (the score sheet beside the board); nothing in them runs an
action when clicked. Names are normalised and unique up to case and invisible characters.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from textual.app import App
from textual.widgets._toast import Toast

from solstis_tui import saves
from solstis_tui.app import SolstisApp
from solstis_tui.online.app import OnlineApp
from solstis_tui.online.game_screen import OnlineGameScreen
from solstis_tui.online.lobby import LobbyScreen
from solstis_tui.online.names import BadName, name_key, normalize_name
from solstis_tui.online.protocol import MAX_NAME
from solstis_tui.screens.end import EndScreen
from solstis_tui.screens.game import GameScreen
from solstis_tui.screens.logview import LogScreen
from solstis_tui.screens.passkb import PassScreen
from solstis_tui.screens.review import ReviewScreen
from solstis_tui.screens.spiritinfo import SpiritsScreen
from solstis_tui.session import HUMAN, Session, Setup
from tests.tui.conftest import keys_for

from .test_online_app import wait_for

HOSTILE = ["[/x]", "[bold]x", "[@click=app.quit]x", "[link=https://x]x"]
SIZES = [(80, 24), (160, 48)]


# ---------------------------------------------------------------------- reading the screen
def screen_lines(app: App) -> list[str]:
    """What the terminal shows now, line by line (the top screen, toasts included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def widget_text(app: App, selector: str) -> str:
    """The screen text inside one widget's region."""
    region = app.screen.query_one(selector).region
    strips = app.screen._compositor.render_strips()[region.y:region.bottom]
    return "\n".join(s.crop(region.x, region.right).text for s in strips)


def lobby_text(app: App) -> str:
    """The lobby's table list and the line under it (the selected table in full)."""
    return widget_text(app, "#tables") + "\n" + widget_text(app, "#row")


def assert_shown(app: App, *texts: str) -> None:
    shown = "\n".join(screen_lines(app))
    for text in texts:
        assert text in shown, f"{text!r} is not on screen:\n{shown}"


class Spy:
    """Records any action or link a click on markup would run."""

    def __init__(self, *apps: App) -> None:
        self.ran: list[str] = []
        for app in apps:
            app.action_quit = self._quit  # type: ignore[method-assign]
            app.open_url = self._url  # type: ignore[method-assign]

    async def _quit(self) -> None:
        self.ran.append("quit")

    def _url(self, url: str, **_kwargs) -> None:
        self.ran.append(url)


async def click_on(app: App, pilot, text: str, most: int = 3) -> int:
    """Click (at most ``most`` of) the places ``text`` is shown; how many were clicked."""
    places = [(line.find(text), y) for y, line in enumerate(screen_lines(app)) if text in line]
    for x, y in places[:most]:
        await pilot.click(offset=(x + 1, y))
        await pilot.pause()
    return len(places[:most])


# ---------------------------------------------------------------------- online
def play_to_the_end(game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
@pytest.mark.parametrize("hostile", HOSTILE)
async def test_people_text_is_literal_online(host, hostile, size):
    ann_name, bob_name, eve_name = hostile, "O" + hostile, "W" + hostile
    ann_app = OnlineApp(socket=host.socket_path, name=ann_name)
    bob_app = OnlineApp(socket=host.socket_path)
    eve_app = OnlineApp(socket=host.socket_path, name=eve_name)
    spy = Spy(ann_app, bob_app, eve_app)
    apps = (ann_app, bob_app, eve_app)
    async with ann_app.run_test(size=size, notifications=True) as ann, \
            bob_app.run_test(size=size, notifications=True) as bob, \
            eve_app.run_test(size=size, notifications=True) as eve:
        pilots = (ann, bob, eve)
        # Lobby: Ann's own name in the welcome line.
        await wait_for(lambda: ann_app.player_name == ann_name, ann)
        await ann.pause()
        assert_shown(ann_app, f"You are {ann_name}.")
        assert await click_on(ann_app, ann, ann_name)
        ann_app.on_host_message({"type": "error", "code": "x", "message": hostile})
        await ann.pause()
        assert hostile in widget_text(ann_app, "#lobby-error")
        await ann.press("c", "s", "enter")  # a friend table, Ann in seat 1
        await wait_for(lambda: isinstance(ann_app.screen, OnlineGameScreen), ann)
        table = ann_app.remote.table
        # Bob types his name in the lobby and sees Ann's at the table list.
        await bob.press(*bob_name, "enter")
        await wait_for(lambda: bob_app.player_name == bob_name and bob_app.lobby.rows, bob)
        await bob.pause()
        assert ann_name in lobby_text(bob_app)
        assert_shown(bob_app, f"You are {bob_name}.")
        assert await click_on(bob_app, bob, ann_name)
        await bob.press("enter")
        await wait_for(lambda: isinstance(bob_app.screen, OnlineGameScreen), bob)
        # Eve's lobby lists both seats; she watches.
        await eve.press("r")
        await wait_for(lambda: eve_app.lobby.rows and all(
            s.get("name") for s in eve_app.lobby.rows[0]["seats"]), eve)
        await eve.pause()
        assert ann_name in lobby_text(eve_app)
        assert bob_name in lobby_text(eve_app)
        await eve.press("w")
        await wait_for(lambda: isinstance(eve_app.screen, OnlineGameScreen), eve)
        for pilot in pilots:
            await pilot.pause(0.1)
        # The game screens: top bar, hand, panoramas, score line or sheet.
        assert ann_name in widget_text(bob_app, "#topbar")
        assert bob_name in widget_text(ann_app, "#topbar")
        assert ann_name in widget_text(eve_app, "#topbar")
        assert bob_name in widget_text(eve_app, "#hand")
        if size[0] >= 120:  # the sheet beside the board (a long name ends in "…" there)
            assert ann_name[:12] in widget_text(bob_app, "#sheet")
            assert bob_name[:12] in widget_text(eve_app, "#sheet")
        else:
            assert ann_name in widget_text(bob_app, "#scoreline")
        for app, pilot, name in zip(apps, pilots, (bob_name, ann_name, ann_name), strict=True):
            assert await click_on(app, pilot, name)
        # Chat: everyone at the table sees Ann's line as she typed it, in a toast.
        await ann.press("c", *hostile, "enter")
        for app, pilot in zip(apps, pilots, strict=True):
            await wait_for(lambda app=app: app.screen.query(Toast), pilot)
            await pilot.pause(0.1)
            toasts = [str(t.render()) for t in app.screen.query(Toast)]
            assert f"{ann_name}: {hostile}" in toasts
            assert_shown(app, hostile)
            await click_on(app, pilot, hostile)
        # A host message's text is shown literally too (here an error at the table).
        bob_app.on_host_message({"type": "error", "code": "x", "message": hostile})
        await bob.pause()
        assert hostile in widget_text(bob_app, "#prompt")
        # Game end: the host plays the rest; every app shows the end screen.
        game = host.tables[table].game
        play_to_the_end(game, 1)
        await host._after_change(host.tables[table])
        for app, pilot in zip(apps, pilots, strict=True):
            await wait_for(lambda app=app: isinstance(app.screen, EndScreen), pilot)
            await pilot.pause()
        assert_shown(bob_app, ann_name)
        assert_shown(ann_app, bob_name)
        assert_shown(eve_app, ann_name, bob_name)
        for app, pilot, name in zip(apps, pilots, (bob_name, ann_name, ann_name), strict=True):
            await click_on(app, pilot, name)
        # The log (every line names someone), the spirits, then back to the lobby.
        for app, pilot, names in zip(apps, pilots, ([bob_name], [ann_name], [ann_name, bob_name]),
                                     strict=True):
            if isinstance(app.screen, EndScreen):
                await pilot.press("escape")
            await pilot.press("v")
            await wait_for(lambda app=app: isinstance(app.screen, LogScreen), pilot)
            await pilot.pause(0.1)
            app.screen.query_one("#fulllog").scroll_home(animate=False)
            await pilot.pause()
            assert_shown(app, *(f": {n} —" for n in names))  # "— turn 2: Bob —"
            await pilot.press("escape", "e")
            await wait_for(lambda app=app: isinstance(app.screen, SpiritsScreen), pilot)
            await pilot.press("escape", "q")
            await wait_for(lambda app=app: isinstance(app.screen, LobbyScreen), pilot)
            await pilot.pause(0.2)
            assert ann_name in lobby_text(app)
            assert bob_name in lobby_text(app)
        for app in apps:
            assert app.is_running and app.return_code is None
    assert spy.ran == []


# ---------------------------------------------------------------------- offline
def near_the_end(names: tuple[str, str], seed: int = 5) -> Session:
    """A hot-seat game between ``names`` a few decisions before its end."""
    setup = Setup(variant="firefly", seed=seed, seats=(HUMAN, HUMAN), names=names)
    full = Session(setup)
    rng = random.Random(seed)
    while not full.game.is_over:
        full.apply(rng.choice(full.game.legal_moves()))
    moves = full.moves()
    session = Session(setup)
    for move in moves[:-4]:
        session.apply(move)
    return session


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
@pytest.mark.parametrize("hostile", HOSTILE)
async def test_people_text_is_literal_offline(tmp_path, monkeypatch, hostile, size):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    names = (hostile, "O" + hostile)
    saves.save(near_the_end(names))
    app = SolstisApp(resume=True, pace=0.0, hint_spec="random")
    spy = Spy(app)
    rng = random.Random(1)
    async with app.run_test(size=size) as pilot:
        seen_pass = False
        for _ in range(200):
            await pilot.pause()
            if isinstance(app.screen, EndScreen):
                break
            if isinstance(app.screen, PassScreen):
                seen_pass = True
                assert_shown(app, f"Pass the keyboard to {app.screen.player_name}.")
                await click_on(app, pilot, hostile)
                await pilot.press("enter")
                continue
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert_shown(app, *names)
            if size[0] >= 120:  # the sheet beside the board (a long name ends in "…" there)
                assert names[0][:12] in widget_text(app, "#sheet")
                assert names[1][:12] in widget_text(app, "#sheet")
            await pilot.press(*keys_for(screen, rng))
        assert seen_pass and isinstance(app.screen, EndScreen)
        await pilot.pause()
        assert names[0] in widget_text(app, "#sheet") and names[1] in widget_text(app, "#sheet")
        assert_shown(app, "Game over.")
        await click_on(app, pilot, hostile)
        await pilot.press("escape", "v")
        await wait_for(lambda: isinstance(app.screen, LogScreen), pilot)
        await pilot.pause(0.1)
        assert_shown(app, f"Game over: {names[0]}")
        await pilot.press("escape", "e")
        await wait_for(lambda: isinstance(app.screen, SpiritsScreen), pilot)
        await pilot.press("escape", "r")
        await wait_for(lambda: isinstance(app.screen, ReviewScreen), pilot)
        await app.workers.wait_for_complete()
        await pilot.pause(0.1)
        assert_shown(app, *names)
        await click_on(app, pilot, hostile)
        await pilot.press("escape")
        assert app.is_running and app.return_code is None
    assert spy.ran == []


async def test_a_bot_error_with_brackets_is_shown_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    from solstis_tui.screens.boterror import BotErrorScreen

    app = SolstisApp(Setup(seed=3, seats=("tests.tui.bots:MarkupBot", HUMAN)), pace=0.0,
                     hint_spec="random", autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: isinstance(app.screen, BotErrorScreen), pilot)
        await pilot.pause()
        assert_shown(app, "[/x]", "[bold]blew[@click=app.quit]")


async def test_a_saved_game_with_brackets_is_offered_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    saves.save(near_the_end(("[/x]", "[bold]x")))
    path = saves.autosave_path()
    data = json.loads(path.read_text())
    data["seats"] = ["human", "[@click=app.quit]x"]  # a hand-edited save
    path.write_text(json.dumps(data))
    app = SolstisApp(offer_continue=True, pace=0.0, autosave=False)
    spy = Spy(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert_shown(app, "human vs [@click=app.quit]x")
        assert await click_on(app, pilot, "[@click=app.quit]x")
        assert app.is_running and app.return_code is None
    assert spy.ran == []


async def test_a_seed_typed_with_brackets_is_quoted_as_written(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path / "data"))
    from solstis_tui.screens.newgame import NewGameScreen

    app = SolstisApp(Setup(seed=3, seats=(HUMAN, "random")), pace=0.0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for(lambda: isinstance(app.screen, NewGameScreen), pilot)
        app.screen.query_one("#seed").focus()
        await pilot.press(*"[/x]", "enter")
        await pilot.pause()
        assert "not '[/x]'" in widget_text(app, "#error")
        assert isinstance(app.screen, NewGameScreen)


# ---------------------------------------------------------------------- the lobby race
async def test_the_lobby_lists_tables_that_arrive_before_it_is_mounted(host, connect,
                                                                        monkeypatch):
    """``solstis online --code`` with tables at the host: the welcome can come before the
    lobby's table has columns ("More values provided than there are columns")."""
    ann = await connect("Ann")
    for _ in range(3):
        await ann.send({"type": "create", "opponent": "friend", "seat": 0})
        await ann.receive_until("joined")
    code = ann.code
    await ann.send({"type": "list"})
    rows = (await ann.receive_until("tables"))["tables"]
    lobby = LobbyScreen(name_known=True)
    lobby.welcome("Ann", code)
    lobby.show_tables(rows)  # before the screen is mounted
    lobby.say("a message")

    class Holder(App):
        def on_mount(self) -> None:
            self.push_screen(lobby)

    app = Holder()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert widget_text(app, "#tables").count("Ann") == 3
        assert_shown(app, "You are Ann.", "a message")
    # In a real terminal the welcome often lands after the lobby is composed but before it
    # is mounted; hold the mount until then to make that order certain.
    mount = LobbyScreen.on_mount
    app = OnlineApp(socket=host.socket_path, code=code)

    async def late_mount(screen: LobbyScreen) -> None:
        for _ in range(200):
            if app.player_name:
                break
            await asyncio.sleep(0.02)
        mount(screen)

    monkeypatch.setattr(LobbyScreen, "on_mount", late_mount)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: app.player_name == "Ann", pilot)
        await pilot.pause()
        assert widget_text(app, "#tables").count("Ann") == 3
        assert_shown(app, "You are Ann.")


async def test_escape_codes_from_the_wire_never_reach_the_terminal(host):
    """Even plain text would pass ESC to the terminal; what comes from the host is
    scrubbed of control characters (the host refuses them too, this is the second wall)."""
    app = OnlineApp(socket=host.socket_path, name="Ann")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(lambda: app.player_name == "Ann", pilot)
        seat = {"name": "Eve\x1b]0;owned\x07", "bot": None, "connected": True}
        app.on_host_message({"type": "tables", "tables": [
            {"table": "t1\x1b[2J", "variant": "base", "status": "open", "turn": 1,
             "seats": [seat, {}], "watchers": 0}]})
        app.on_host_message({"type": "chat", "table": "t1", "name": "Eve\x1b[31m",
                             "text": "hi\x9b2J"})
        await wait_for(lambda: app.screen.query(Toast), pilot)
        app.on_host_message({"type": "error", "code": "x", "message": "bad\x1b[5m"})
        await pilot.pause(0.1)
        shown = "\n".join(screen_lines(app))
        assert not any(ch in shown for ch in "\x1b\x07\x9b")
        assert "Eve\ufffd]0;owned\ufffd" in lobby_text(app)
        assert_shown(app, "Eve\ufffd[31m: hi\ufffd2J", "bad\ufffd[5m")


async def test_a_taken_name_is_asked_again(host, connect):
    await connect("Ann Lee")
    app = OnlineApp(socket=host.socket_path, name="ANN\u200b LEE")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: "taken" in widget_text(app, "#lobby-error"), pilot)
        assert app.player_name is None
        assert app.screen.query_one("#name").display  # the name box is back
        await pilot.press(*"Ann Lee 2", "enter")
        await wait_for(lambda: app.player_name == "Ann Lee 2", pilot)


# ---------------------------------------------------------------------- names
def test_names_are_nfc_and_lose_padding_and_invisible_characters():
    assert normalize_name("Zoe\u0301") == "Zoé"  # e + combining accent -> é
    assert normalize_name("Zoe\u200b\u0301") == "Zoé"
    assert normalize_name("  Ann\u00a0\u2003 Lee \u3000") == "Ann Lee"
    assert normalize_name("A\u200dn\u200cn\u2060\ufeff") == "Ann"
    assert normalize_name("\u202eAnn\u202c") == "Ann"  # right-to-left override
    assert normalize_name("\u2066Ann\u2069\u00ad") == "Ann"  # isolates, soft hyphen
    assert normalize_name("Ann\u3164\u2800") == "Ann"  # blank fillers
    assert normalize_name("[/x]") == "[/x]"  # brackets are fine: they are shown as text
    assert normalize_name("Renée Ünal") == "Renée Ünal"


@pytest.mark.parametrize("raw, reason", [
    ("Ann\x1b[31m", "control characters"),
    ("Ann\nBob", "control characters"),
    ("Ann\tBob", "control characters"),
    ("Ann\x7f", "control characters"),
    ("Ann\u2028", "separators"),
    ("Ann\ue000", "private-use"),
    ("\u200b\u200d \u00a0", "visible character"),
    ("", "visible character"),
    ("x" * (MAX_NAME + 1), f"at most {MAX_NAME}"),
])
def test_unusable_names_are_refused_with_a_reason(raw, reason):
    with pytest.raises(BadName, match=reason):
        normalize_name(raw)


def test_name_keys_ignore_case_invisibles_spacing_and_width():
    key = name_key("Ann Lee")
    for other in ["ann lee", "ANN LEE", "A\u200dnn Lee", "Ann  Lee", " Ann\u00a0Lee ",
                  "\u202eAnn Lee", "Ａｎｎ Ｌｅｅ", "ANN LEE\ufe0f"]:
        assert name_key(other) == key, other
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Ann") != name_key("Anna")
    assert name_key("Ann B") != name_key("AnnB")


async def test_two_players_cannot_share_a_name_up_to_case_or_invisibles(host, connect):
    await connect("Ann Lee")
    for twin in ["ann lee", "ANN\u200b LEE", "\u202eAnn Lee\u2060", "Ann\u00a0 Lee "]:
        client = await connect(None)
        await client.send({"type": "hello", "version": 1, "name": twin})
        reply = await client.receive()
        assert reply["type"] == "error" and reply["code"] == "name_taken", reply
        assert "taken" in reply["message"]
    padded = await connect(None)
    await padded.send({"type": "hello", "version": 1, "name": "  Bo\u200bb\u00a0 "})
    welcome = await padded.receive()
    assert welcome["type"] == "welcome" and welcome["name"] == "Bob"
    bad = await connect(None)
    await bad.send({"type": "hello", "version": 1, "name": "Eve\x1b[2J"})
    reply = await bad.receive()
    assert reply["code"] == "bad_name" and "control characters" in reply["message"]
    assert sorted(host.players.values()) == ["Ann Lee", "Bob"]
