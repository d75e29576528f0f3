"""A Dask cluster for the tests: a scheduler and workers started as the docs start them
(``dask scheduler``, ``dask worker``), as processes of their own, on loopback."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from solstis_tui.host.bot_cluster import ClusterSettings

from .ssh_probes import free_port

ROOT = Path(__file__).resolve().parents[2]
DASK = Path(sys.executable).with_name("dask")
SAFETY = 90.0  # seconds: a net for a broken build, never a measured time


class Cluster:
    """Processes of one test cluster in ``folder``; ``tls`` (CA, CERT, KEY files) makes
    every part speak TLS (the workers with ``worker_tls`` if given). Workers can import the
    tests (their factories) and see ``env``; they preload the bots as docs/cluster.md says."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None,
                 tls: tuple[str, str, str] | None = None,
                 worker_tls: tuple[str, str, str] | None = None) -> None:
        self.folder = folder
        self.tls = tls
        self.worker_tls = worker_tls or tls
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.port = free_port()
        self.address = f"{'tls' if tls else 'tcp'}://127.0.0.1:{self.port}"

    def _start(self, args: list[str], name: str,
               tls: tuple[str, str, str] | None) -> subprocess.Popen[bytes]:
        if tls is not None:
            ca, cert, key = tls
            args += ["--tls-ca-file", ca, "--tls-cert", cert, "--tls-key", key]
        log = (self.folder / f"{name}.log").open("wb")
        return subprocess.Popen([str(DASK), *args], cwd=ROOT, env=self.env, stdout=log,
                                stderr=subprocess.STDOUT)

    def start_scheduler(self) -> None:
        self.scheduler = self._start(
            ["scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard",
             "--protocol", "tls" if self.tls else "tcp"], "scheduler", self.tls)

    def start_worker(self) -> subprocess.Popen[bytes]:
        name = f"worker{len(self.workers)}"
        worker = self._start(["worker", self.address, "--nthreads", "1", "--no-nanny",
                              "--no-dashboard", "--name", name, "--death-timeout", "60",
                              "--preload", "solstis_tui.host.bot_cluster"], name,
                             self.worker_tls)
        self.workers.append(worker)
        return worker

    def security(self) -> Any:
        return ClusterSettings(self.address, self.tls).security()

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
        if self.scheduler is not None:
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


def tls_files(folder: Path, ca: Any, name: str) -> tuple[str, str, str]:
    """CA, certificate and key files for ``name`` (loopback), issued by trustme's ``ca``."""
    folder.mkdir(parents=True, exist_ok=True)
    leaf = ca.issue_cert("127.0.0.1", "localhost", common_name=name)
    files = (folder / "ca.pem", folder / f"{name}.pem", folder / f"{name}.key")
    ca.cert_pem.write_to_path(str(files[0]))
    leaf.cert_chain_pems[0].write_to_path(str(files[1]))
    leaf.private_key_pem.write_to_path(str(files[2]))
    return str(files[0]), str(files[1]), str(files[2])

