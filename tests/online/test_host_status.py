"""``solstis host status``: the host's own account sees its figures (tables, where bots
decide, how long decisions wait); nobody else may ask; the bot-cluster flags are checked
before the host starts."""

from __future__ import annotations

import asyncio
import json

import pytest

from solstis_tui.host import serve, status_cli
from solstis_tui.host import fleet_certs
from solstis_tui.host.fleet import FleetProblem, fleet_settings

from .test_botpool import bot_table, state_with


async def test_host_status_prints_tables_and_how_long_bot_decisions_waited(host, connect,
                                                                           capsys):
    ann = await connect("Ann")
    table = await bot_table(ann, "greedy")
    await state_with(ann, table, 1)
    code = await asyncio.to_thread(status_cli.main, ["--socket", str(host.socket_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 connections; 1 table (1 being played, 0 finished)" in out  # Ann, and us
    assert "local queue wait: median" in out and "local thinking: median" in out
    await asyncio.to_thread(status_cli.main, ["--socket", str(host.socket_path), "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["bots"]["queue_wait_ms"]["count"] >= 1  # the bot may have gone on
    assert figures["bots"]["thinking_ms"]["count"] >= 1


async def test_host_status_is_refused_over_tcp_even_with_the_token(host):
    port = await host.serve_tcp("127.0.0.1", 0, token="secret")
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(json.dumps({"type": "status", "token": "secret"}).encode() + b"\n")
        await writer.drain()
        reply = json.loads(await asyncio.wait_for(reader.readline(), 30))
    finally:
        writer.close()
    assert reply["type"] == "error" and reply["code"] == "not_allowed"
    assert "connections" not in reply


def test_host_status_says_plainly_when_no_host_answers(tmp_path, capsys):
    assert status_cli.main(["--socket", str(tmp_path / "nobody.sock")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("solstis host status: no host answers at")
    assert "Traceback" not in err


@pytest.mark.parametrize(("address", "tls", "says"), [
    ("tcp://127.0.0.1:8786", None, "speaks TLS only"),
    ("tcp://10.0.0.5:8786", "ca.pem,cert.pem,key.pem", "speaks TLS only"),
    ("tls://127.0.0.1:8786", None, "needs --bot-cluster-tls"),
    ("127.0.0.1:8786", None, "give the scheduler as tls://HOST:PORT"),
    ("tls://127.0.0.1:99999", None, "give the scheduler as tls://HOST:PORT"),
    ("tls://10.0.0.5:8786", "ca.pem,cert.pem", "give three files"),
    ("tls://10.0.0.5:8786", "missing-ca.pem,cert.pem,key.pem", "cannot read missing-ca.pem"),
    ("tls://10.0.0.5:8786", "no-such-folder", "cannot read no-such-folder/ca.pem"),
])
def test_the_bot_fleet_speaks_tls_only_and_bad_flags_are_refused(
        address, tls, says, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FleetProblem, match=says):
        fleet_settings(address, tls)


def test_the_fleet_takes_the_folder_fleet_certs_made_or_three_files(tmp_path):
    made = tmp_path / "certs"
    assert fleet_certs.main([str(made)]) == 0
    settings = fleet_settings("tls://10.0.0.5:8786", str(made))
    assert settings.address == "tls://10.0.0.5:8786"
    assert settings.tls == tuple(str(made / n) for n in ("ca.pem", "gateway.pem", "gateway.key"))
    files = ",".join(settings.tls)
    assert fleet_settings("tls://[::1]:8786", files).tls == settings.tls


def test_the_host_will_not_start_on_an_unencrypted_cluster(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        serve.main(["--data", str(tmp_path / "data"), "--socket", str(tmp_path / "h.sock"),
                    "--bot-cluster", "tcp://127.0.0.1:8786"])
    assert stop.value.code == 2
    assert "speaks TLS only" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # nothing was started or made
