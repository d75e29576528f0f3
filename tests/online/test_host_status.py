"""``solstis host status``: the host's own account sees its figures (tables, where bots
decide, how long decisions wait); nobody else may ask; the bot-cluster flags are checked
before the host starts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from solstis_tui.host import fleet_certs, serve, status_cli
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


async def test_host_status_prints_prometheus_text_a_scraper_reads(host, connect, capsys):
    from prometheus_client.parser import text_string_to_metric_families

    ann = await connect("Ann")
    table = await bot_table(ann, "greedy")
    await state_with(ann, table, 1)
    code = await asyncio.to_thread(status_cli.main, ["--socket", str(host.socket_path),
                                                     "--prometheus"])
    assert code == 0
    families = {f.name: f for f in text_string_to_metric_families(capsys.readouterr().out)}
    decisions = {s.labels["outcome"]: s.value for s in families["solstis_bot_decisions"].samples
                 if s.name.endswith("_total")}
    assert decisions["local"] >= 1 and decisions["fleet"] == 0
    [random_moves] = families["solstis_bot_random_moves"].samples
    assert random_moves.value == 0
    latency = families["solstis_bot_decision_seconds"].samples
    assert any(s.name.endswith("_count") and s.value >= 1 for s in latency)
    assert {"solstis_bot_queue_length", "solstis_fleet_workers", "solstis_connections",
            "solstis_tables", "solstis_bot_tables"} <= set(families)


async def test_the_metrics_port_serves_the_figures_on_loopback_only(host):
    import urllib.request

    from solstis_tui.host import metrics

    from .ssh_probes import free_port

    port = free_port()
    serving = asyncio.get_running_loop().create_task(
        metrics.MetricsServer(port, host.status).run())
    try:
        async with asyncio.timeout(30):
            while True:
                try:
                    body = await asyncio.to_thread(
                        lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                                       timeout=5).read().decode())
                    break
                except OSError:
                    await asyncio.sleep(0.05)
        assert "solstis_connections" in body and "solstis_bot_decisions_total" in body
        listening = [line.split()[1] for line in
                     Path("/proc/net/tcp").read_text().splitlines()[1:]
                     if line.split()[3] == "0A" and int(line.split()[1].split(":")[1], 16)
                     == port]
        assert listening == [f"0100007F:{port:04X}"]  # 127.0.0.1 only
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
