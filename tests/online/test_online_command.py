"""``solstis online`` before any screen opens: no terminal, a name of no length or too long,
``--ssh-key`` with or without sshd's word on the key, ``--token-file``; ``solstis web``
without textual-serve; and ``--waiting`` against hosts that cannot say: none listening, one
that breaks the protocol, one that never answers, one that refuses, one that does not say
which games wait. Each is said in one line, with the exit status a prompt script reads."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

from solstis_tui.client import launch, waiting
from solstis_tui.client.app import OnlineApp
from solstis_tui.client.waiting import NONE, UNKNOWN, waiting_line

from .identities import ANN


class Tty:
    """Standard input or output as a terminal (``tty``) or a pipe."""

    def __init__(self, name: str, tty: bool = True) -> None:
        self.name, self.tty = name, tty

    def isatty(self) -> bool:
        return self.tty

    def __getattr__(self, attr: str) -> object:
        return getattr(getattr(sys, self.name), attr)


class InATerminal:
    """``sys`` as ``solstis online`` sees it when started in a terminal."""

    stdin, stdout = Tty("stdin"), Tty("stdout")

    def __getattr__(self, name: str) -> object:
        return getattr(sys, name)


@pytest.fixture
def lobby(monkeypatch) -> list[OnlineApp]:
    """The online apps ``solstis online`` would have run, in a terminal it can draw on."""
    ran: list[OnlineApp] = []
    monkeypatch.setattr(OnlineApp, "run", lambda app, **k: ran.append(app))
    monkeypatch.setattr(launch, "sys", InATerminal())
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("SSH_USER_AUTH", "SOLSTIS_TOKEN", "SOLSTIS_TOKEN_FILE", "SSH_ORIGINAL_COMMAND"):
        monkeypatch.delenv(name, raising=False)
    return ran


class InputPiped(InATerminal):
    stdin = Tty("stdin", tty=False)


class OutputPiped(InATerminal):
    stdout = Tty("stdout", tty=False)


@pytest.mark.parametrize("piped", [InputPiped, OutputPiped])
def test_the_lobby_without_a_terminal_asks_for_ssh_t(lobby, capsys, monkeypatch, piped):
    monkeypatch.setattr(launch, "sys", piped())
    assert launch.online_main([]) == 2
    assert "solstis online needs a terminal: connect with 'ssh -t'." in capsys.readouterr().err
    assert lobby == []


@pytest.mark.parametrize("name", ["   ", "N" * 25])
def test_a_name_of_no_length_or_too_long_is_refused_before_connecting(lobby, capsys, name):
    with pytest.raises(SystemExit) as stop:
        launch.online_main(["--name", name])
    assert stop.value.code == 2
    assert "--name takes 1 to 24 characters" in capsys.readouterr().err
    assert lobby == []


def test_the_lobby_opens_with_the_name_and_host_given(lobby, tmp_path):
    assert launch.online_main(["--name", "Ann", "--socket", str(tmp_path / "h.sock")]) == 0
    [app] = lobby
    assert app.link.socket == tmp_path / "h.sock" and app.link.ssh_key is None


def test_an_ssh_login_plays_as_its_key(lobby, tmp_path, monkeypatch):
    auth = tmp_path / "auth"
    auth.write_text(f"password\npublickey {ANN} ann@laptop\n", encoding="utf-8")
    monkeypatch.setenv("SSH_USER_AUTH", str(auth))
    assert launch.online_main(["--ssh-key"]) == 0
    [app] = lobby
    assert app.link.ssh_key == ANN


@pytest.mark.parametrize("auth", [None, "missing", "password only"])
def test_without_sshds_word_on_the_key_the_player_is_told_they_play_as_a_guest(
        lobby, tmp_path, monkeypatch, capsys, auth):
    if auth == "password only":
        (tmp_path / "auth").write_text("password\n", encoding="utf-8")
    if auth is not None:
        monkeypatch.setenv("SSH_USER_AUTH", str(tmp_path / "auth"))
    assert launch.online_main(["--ssh-key"]) == 0
    assert "sshd did not say which key logged you in" in capsys.readouterr().err
    [app] = lobby
    assert app.link.ssh_key is None


def test_a_token_file_given_is_where_the_tcp_token_is_read(lobby, tmp_path, monkeypatch):
    from solstis_tui.client.client import read_token

    token = tmp_path / "token"
    token.write_text("t" * 43 + "\n", encoding="utf-8")
    monkeypatch.setenv("SOLSTIS_TOKEN_FILE", "unset-by-the-test")  # restored afterwards
    assert launch.online_main(["--tcp", "127.0.0.1:7017", "--token-file", str(token)]) == 0
    assert read_token() == "t" * 43


def test_web_without_textual_serve_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "textual_serve", None)
    assert launch.web_main([]) == 2
    assert "textual-serve is not installed" in capsys.readouterr().err


# ---------------------------------------------------------------------- --waiting
async def fake_host(tmp_path, answer):
    """A host on a Unix socket that reads the hello and then does what ``answer`` does."""
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        await answer(writer)
        await reader.read()

    path = tmp_path / "fake.sock"
    return path, await asyncio.start_unix_server(serve, path=str(path))


def said(*messages: dict[str, object]):
    async def answer(writer: asyncio.StreamWriter) -> None:
        for message in messages:
            writer.write(json.dumps(message).encode() + b"\n")
        await writer.drain()
    return answer


WELCOME = {"type": "welcome", "name": "Ann", "code": "c" * 22, "rating": None, "version": 2,
           "tables": [], "offset": 0, "total": 0, "seated": []}


async def test_waiting_with_no_host_listening_cannot_say(tmp_path):
    status, line = await waiting_line(tmp_path / "nobody.sock")
    assert status == UNKNOWN
    assert line.startswith("solstis: cannot reach the game host at ")
    assert line.endswith("is `solstis host` running?")  # one sentence, no stop added


async def test_waiting_from_a_host_that_breaks_the_protocol_says_the_connection_failed(
        tmp_path):
    async def garbage(writer: asyncio.StreamWriter) -> None:
        writer.write(b'{"type": "welcome", "name": 5}\n')
        await writer.drain()

    path, server = await fake_host(tmp_path, garbage)
    async with server:
        status, line = await waiting_line(path)
    assert status == UNKNOWN
    assert line.startswith("solstis: the connection to the game host failed (")


async def test_waiting_from_a_host_that_never_answers_gives_up(tmp_path, monkeypatch):
    async def silent(writer: asyncio.StreamWriter) -> None:
        pass

    monkeypatch.setattr(waiting, "WAITING_TIMEOUT", 0.2)
    path, server = await fake_host(tmp_path, silent)
    async with server:
        assert await waiting_line(path) == (
            UNKNOWN, "solstis: the game host did not answer in time.")


async def test_a_host_refusing_the_login_is_quoted_as_a_sentence(tmp_path):
    refusal = {"type": "error", "code": "busy", "message": "The host is full, try later"}
    path, server = await fake_host(tmp_path, said(refusal))
    async with server:
        assert await waiting_line(path) == (UNKNOWN, "solstis: The host is full, try later.")


@pytest.mark.parametrize("welcome", [WELCOME, {**WELCOME, "waiting": 3}],
                         ids=["no waiting", "waiting not a list"])
async def test_a_host_that_does_not_say_which_games_wait_cannot_say(tmp_path, welcome):
    path, server = await fake_host(tmp_path, said(welcome))
    async with server:
        assert await waiting_line(path) == (
            UNKNOWN, "solstis: this game host does not say which games wait for you.")


async def test_an_old_resume_code_exchanged_at_the_probe_is_said_once(tmp_path, capsys):
    path, server = await fake_host(tmp_path, said({**WELCOME, "waiting": []}))
    async with server:
        assert await waiting_line(path, code="oldcode") == (
            NONE, "solstis: no game waits for your move.")
    assert f"your resume code is now #{'c' * 22} (the old one no longer works)" in \
        capsys.readouterr().err


async def test_solstis_online_waiting_prints_the_line_and_exits_by_it(
        host, connect, tmp_path, capsys, monkeypatch):
    ann = await connect("Ann")
    token = tmp_path / "token"
    token.write_text("unused on a Unix socket\n", encoding="utf-8")
    monkeypatch.delenv("SOLSTIS_TOKEN_FILE", raising=False)
    monkeypatch.setenv("SOLSTIS_TOKEN_FILE", "unset-by-the-test")  # restored afterwards
    status = await asyncio.to_thread(launch.online_main, [
        "--waiting", "--socket", str(host.socket_path), f"--code={ann.code}",
        "--token-file", str(token)])
    assert status == NONE
    assert capsys.readouterr().out == "solstis: no game waits for your move.\n"


async def test_an_ssh_login_asking_for_waiting_gets_the_line(host, tmp_path, capsys,
                                                             monkeypatch):
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "waiting")
    monkeypatch.delenv("SSH_USER_AUTH", raising=False)
    status = await asyncio.to_thread(launch.online_main, [
        "--ssh-command", "--ssh-key", "--socket", str(host.socket_path)])
    assert status == UNKNOWN  # a login the host knows no player of, said on stderr
    assert "knows no player of yours yet" in capsys.readouterr().err
