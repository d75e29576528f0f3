"""docs/cluster.md's certificates work: its openssl block, run as written, makes the files
a TLS bot cluster (scheduler, worker, host) runs on."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the bot cluster needs the [cluster] extra "
                                          "(pip install -e '.[cluster]')")

from solstis_tui.client.client import HostClient
from solstis_tui.host.bot_cluster import ClusterSettings

from .conftest import quick_bot, start_host
from .dask_cluster import ROOT, SAFETY, Cluster
from .test_botpool import bot_table, state_with

DOC = ROOT / "docs" / "cluster.md"


def certificate_block() -> str:
    """The doc's shell block that makes the fleet's certificates."""
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    [block] = [b for b in blocks if "openssl req -x509" in b]
    return block


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
async def test_the_docs_certificates_run_a_tls_bot_cluster(tmp_path):
    made = tmp_path / "certs"
    made.mkdir()
    subprocess.run(["bash", "-euo", "pipefail", "-c", certificate_block()], cwd=made,
                   check=True, capture_output=True)
    ca = str(made / "fleet-ca.pem")

    def files(part: str) -> tuple[str, str, str]:
        return ca, str(made / f"{part}.pem"), str(made / f"{part}.key")

    folder = tmp_path / "cluster"
    folder.mkdir()
    cluster = Cluster(folder, tls=files("scheduler"), worker_tls=files("worker"))
    cluster.start_scheduler()
    cluster.start_worker()
    host = None
    try:
        watcher = await cluster.client(workers=1)
        await watcher.close()
        host = await start_host(tmp_path / "data", tmp_path / "run" / "host.sock",
                                bot_seconds=0.05, bot_factory=quick_bot, bot_workers=1,
                                bot_cluster=ClusterSettings(cluster.address, files("host")))
        await asyncio.wait_for(host.bots.connected.wait(), SAFETY)
        ann = await HostClient.connect(host.socket_path)
        await ann.hello("Ann")
        table = await bot_table(ann)
        await state_with(ann, table, 1)
        ann.writer.close()
        stats = host.bots.stats()
        assert stats["path"] == "cluster" and stats["answered"] >= 1, cluster.logs()
        assert oct(Path(made / "host.key").stat().st_mode & 0o777) == "0o600"
    finally:
        if host is not None:
            await host.close()
        cluster.stop()
