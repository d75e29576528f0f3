"""A bot fleet for the tests: a TLS scheduler and workers started as docs/cluster.md starts
them (``dask scheduler``, ``dask worker``, mutual TLS with the files ``solstis fleet certs``
makes, ``require-encryption`` on, the fleet's preload), as processes of their own, on
loopback."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from solstis_tui.host.fleet import FleetSettings
from solstis_tui.host.fleet_certs import make

from .ssh_probes import free_port

ROOT = Path(__file__).resolve().parents[2]
DASK = Path(sys.executable).with_name("dask")
SAFETY = 90.0  # seconds: a net for a broken build, never a measured time


class Cluster:
    """Processes of one test fleet in ``folder``, with its certificates in ``folder/certs``.
    Workers can import the tests (their factories), see ``env`` and preload ``preload``
    (the fleet's own by default)."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.certs = folder / "certs"
        make(self.certs, ["127.0.0.1"], ["localhost"])
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {}),
                    "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True"}
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.port = free_port()
        self.address = f"tls://127.0.0.1:{self.port}"

    def files(self, part: str) -> tuple[str, str, str]:
        return (str(self.certs / "ca.pem"), str(self.certs / f"{part}.pem"),
                str(self.certs / f"{part}.key"))

    def settings(self) -> FleetSettings:
        """What the host is given: the scheduler and the gateway's files."""
        return FleetSettings(self.address, self.files("gateway"))

    def _start(self, args: list[str], name: str, part: str) -> subprocess.Popen[bytes]:
        ca, cert, key = self.files(part)
        args += ["--tls-ca-file", ca, "--tls-cert", cert, "--tls-key", key]
        log = (self.folder / f"{name}.log").open("ab")
        return subprocess.Popen([str(DASK), *args], cwd=ROOT, env=self.env, stdout=log,
                                stderr=subprocess.STDOUT)

    def start_scheduler(self) -> subprocess.Popen[bytes]:
        self.scheduler = self._start(
            ["scheduler", "--protocol", "tls", "--host", "127.0.0.1", "--port",
             str(self.port), "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
             "--preload", "solstis_tui.host.fleet_node"], "scheduler", "scheduler")
        return self.scheduler

    def start_worker(self, preload: str = "solstis_tui.host.fleet_node",
                     name: str | None = None) -> subprocess.Popen[bytes]:
        name = name or f"worker{len(self.workers)}"
        worker = self._start(["worker", self.address, "--nthreads", "1", "--no-nanny",
                              "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                              "--protocol", "tls", "--host", "127.0.0.1", "--name", name,
                              "--death-timeout", "60", "--preload", preload], name,
                             "worker-localhost")
        self.workers.append(worker)
        return worker

    def security(self) -> Any:
        from distributed import Security

        ca, cert, key = self.files("gateway")
        return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                        require_encryption=True)

    async def client(self, workers: int = 0) -> Any:
        """A client of the test's own (to look at the scheduler), once ``workers`` are in."""
        from distributed import Client

        async with asyncio.timeout(SAFETY):
            while True:
                client = Client(self.address, asynchronous=True, timeout=5,
                                set_as_default=False, security=self.security())
                try:
                    await client
                    break
                except OSError:
                    await client.close()  # else Dask complains when it is collected
                    await asyncio.sleep(0.1)
        await client.wait_for_workers(workers, timeout=SAFETY)
        return client

    def stop(self) -> None:
        """Kill the workers (a worker told to stop waits for its running decisions, and a
        gated bot's may wait long) and stop the scheduler."""
        for worker in self.workers:
            if worker.poll() is None:
                worker.kill()
            worker.wait()
        if self.scheduler is not None and self.scheduler.poll() is None:
            self.scheduler.send_signal(signal.SIGTERM)
            try:
                self.scheduler.wait(timeout=SAFETY)
            except subprocess.TimeoutExpired:
                self.scheduler.kill()
                self.scheduler.wait()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                         for p in sorted(self.folder.glob("*.log")))


async def bot_tasks(client: Any) -> list[str]:
    """The bot decisions the scheduler holds now."""
    def held(dask_scheduler: Any) -> list[str]:
        return [str(key) for key in dask_scheduler.tasks if str(key).startswith("solstis-bot-")]

    return list(await client.run_on_scheduler(held))
