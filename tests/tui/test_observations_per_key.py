"""Drawing reads the game once: one Enter against a bot builds at most three observations
(the log's, the board's for the redraw, and the bot's), however many parts of the screen
are drawn from them. Drawing changes nothing: the board, prompt, top bar and last turn can
be asked for again and again and say the same."""

from __future__ import annotations

from solstis_tui.local.session import Session

from .conftest import make_app, settle


async def test_one_enter_against_a_bot_builds_at_most_three_observations(monkeypatch):
    app = make_app(seats=("human", "greedy"), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        assert screen.play.session.human_to_play
        built: list[int] = []
        real = Session.observation

        def counted(self, player, *args, **kwargs):
            built.append(player)
            return real(self, player, *args, **kwargs)

        thinking = []
        monkeypatch.setattr(Session, "observation", counted)
        real_think = screen.think
        monkeypatch.setattr(screen, "think", lambda *a: (thinking.append(len(built)),
                                                          real_think(*a)))
        while screen.play.session.human_to_play and not thinking:
            await pilot.press("enter")
            await pilot.pause()
        assert thinking, "the bot never started"
        assert thinking[0] <= 3, f"{thinking[0]} observations before the bot started"


async def test_drawing_twice_draws_the_same_and_changes_nothing():
    app = make_app(seats=("human", "greedy"), seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        play = app.game_screen.play
        first = (play.board(), play.prompt(), play.top_bar(), play.log.last_turn())
        play.say_notice("a notice shown until the next key")
        shown = play.prompt()
        again = (play.board(), play.prompt(), play.top_bar(), play.log.last_turn())
        assert first[0] == again[0] and first[2:] == again[2:]
        assert shown == again[1] and again[1].detail == "a notice shown until the next key"
