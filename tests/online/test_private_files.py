"""The host's files are its own: the data folder is 0700 and the databases 0600 whatever
the umask; a folder others could enter is tightened (and the operator told) or, when it
is someone else's, refused; an XDG_RUNTIME_DIR the socket cannot use is named with why."""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from solstis_tui.client.client import HostClient, HostError
from solstis_tui.host import serve
from solstis_tui.host.host import Host
from solstis_tui.host.hostlock import StartRefused
from solstis_tui.wire.paths import ignored_runtime_dir


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The loosest umask: files and folders made with default modes are open to all."""
    old = os.umask(0)
    yield
    os.umask(old)


async def start_and_stop(data: Path) -> Host:
    host = Host(data, bot_workers=1)
    host.load()
    await host.players.register("Ann")  # the write-ahead logs are made too
    await host.close()
    return host


@pytest.mark.usefixtures("open_umask")
async def test_the_data_folder_and_its_databases_are_private_whatever_the_umask(tmp_path):
    data = tmp_path / "state" / "solstis" / "data"
    await start_and_stop(data)
    assert {p.name: oct(mode(p)) for p in (data.parent.parent, data.parent, data,
                                            data / "tables")} == dict.fromkeys(
        ("state", "solstis", "data", "tables"), "0o700")
    files = {p.name: oct(mode(p)) for p in data.iterdir() if p.is_file()}
    assert {"players.db", "ratings.db"} <= set(files)
    assert files == dict.fromkeys(files, "0o600")


async def test_a_data_folder_open_to_others_is_tightened_and_the_operator_told(tmp_path):
    data = tmp_path / "data"
    await start_and_stop(data)
    os.chmod(data, 0o755)
    os.chmod(data / "tables", 0o777)
    os.chmod(data / "players.db", 0o644)
    host = Host(data, bot_workers=1)
    host.load()
    await host.close()
    assert mode(data) == mode(data / "tables") == 0o700
    assert mode(data / "players.db") == 0o600
    said = "\n".join(host.problems)
    assert f"the data folder {data} had mode 0755, open to other users; it was set to 0700" \
        in said
    assert f"the tables folder {data / 'tables'} had mode 0777" in said
    assert f"other users could read players.db in {data}" in said


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a folder away")
def test_a_loose_data_folder_of_another_user_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    os.chown(data, 65534, 65534)
    with pytest.raises(StartRefused, match="belongs to user 65534 and has mode 0755"):
        Host(data, bot_workers=1).load()
    assert mode(data) == 0o755


def test_an_xdg_runtime_dir_open_to_others_is_named_with_why(tmp_path, monkeypatch, capsys):
    import platformdirs.unix

    runtime = tmp_path / "xdg"
    runtime.mkdir()
    os.chmod(runtime, 0o755)
    fallback = tmp_path / "fallback"
    fallback.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("SOLSTIS_SOCKET", raising=False)
    monkeypatch.setattr(platformdirs.unix, "_temp_runtime_fallback", lambda: str(fallback))
    monkeypatch.setattr(platformdirs.unix, "runtime_base_problem",
                        lambda path, **kw: f"{path} is missing")
    told = ignored_runtime_dir()
    assert told is not None
    assert told.startswith(f"XDG_RUNTIME_DIR {runtime} is not used for the socket: it has "
                           "mode 0755, not 0700 (other users could reach what is in it), "
                           f"so the socket is {fallback}")
    blocker = tmp_path / "a-file"  # the host then stops at its data folder
    blocker.write_text("not a folder")
    assert serve.main(["--data", str(blocker / "data"), "--bot-workers", "1"]) == 1
    assert f"solstis host: XDG_RUNTIME_DIR {runtime} is not used" in capsys.readouterr().out
    with pytest.raises(HostError, match=f"XDG_RUNTIME_DIR {runtime} is not used"):
        asyncio.run(HostClient.connect())  # a player's app says why too


def test_a_private_xdg_runtime_dir_is_used_without_a_word(tmp_path, monkeypatch):
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("SOLSTIS_SOCKET", raising=False)
    assert ignored_runtime_dir() is None
