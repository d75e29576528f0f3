"""docs/cluster.md's set-up, checked by the systems it configures, read from the document
itself (never a copy): its systemd units pass ``systemd-analyze verify``; its ``solstis
fleet certs`` command makes private files, each certificate fit for its part only; its
one-machine block, run as written in bash (with the host), leaves only the three TLS ports
the doc names listening, and nobody without a certificate from the fleet's CA gets an
answer on any of them; a fleet process without TLS or ``require-encryption`` does not run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from solstis_tui.host import status_cli
from solstis_tui.host.fleet_certs import make

from .ssh_probes import free_port

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cluster.md"
BIN = Path(sys.executable).parent  # the venv's dask and solstis
SAFETY = 90.0  # seconds: a net for a broken build, never a measured time

# The names the document deploys with; the tests swap them for their own.
DOC_DASK = "/opt/solstis/bin/dask"
DOC_FOLDER = "/etc/solstis-fleet"
REQUIRE = "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION"
# Where the one-machine block's processes listen: the scheduler, then instances 01 and 02.
SCHEDULER_PORT, WORKER_PORTS = 8786, (8701, 8702)

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def blocks(lang: str) -> list[str]:
    return [m.group(2) for m in _FENCE.finditer(DOC.read_text(encoding="utf-8"))
            if m.group(1).strip() == lang]


def the_block(lang: str, holding: str) -> str:
    """The one ``lang`` block with a line that begins with ``holding``."""
    hits = [b for b in blocks(lang) if re.search(f"^{re.escape(holding)}", b, re.M)]
    assert len(hits) == 1, f"docs/cluster.md has {len(hits)} {lang} blocks with {holding!r}"
    return hits[0]


def units() -> dict[str, str]:
    """The systemd units: file name (from the block's first line, a comment) -> text."""
    found = {}
    for text in blocks("ini"):
        first = text.splitlines()[0]
        assert first.startswith("# /etc/systemd/system/"), f"a unit block begins {first!r}"
        found[Path(first[1:].strip()).name] = text
    return found


def commands(script: str) -> list[list[str]]:
    """Each command line of a shell block, split as the shell would (comments dropped)."""
    return [shlex.split(line, comments=True) for line in script.replace("\\\n", " ").splitlines()
            if shlex.split(line, comments=True)]


def options(argv: list[str]) -> dict[str, str | None]:
    """``--name value`` and ``--flag`` words of a command line."""
    found: dict[str, str | None] = {}
    for i, word in enumerate(argv):
        if word.startswith("--"):
            value = argv[i + 1] if i + 1 < len(argv) else None
            found[word] = None if value is None or value.startswith("--") or value == "&" \
                else value
    return found


# ---------------------------------------------------------------- the systemd units
UNIT_NAMES = sorted(units())


@pytest.mark.parametrize("name", UNIT_NAMES)
def test_the_docs_systemd_units_pass_systemd_analyze_verify(name, tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: docs/cluster.md's units not verified")
    text = units()[name]
    assert DOC_DASK in text, f"{name} no longer starts {DOC_DASK}"
    (tmp_path / name).write_text(text.replace(DOC_DASK, str(BIN / "dask")))
    # a template is verified as systemd instantiates it, and as the doc enables it
    checked = [name] + ([name.replace("@.", "@01.")] if "@." in name else [])
    for unit in checked:
        result = subprocess.run([analyze, "verify", str(tmp_path / unit)], capture_output=True,
                                text=True, timeout=SAFETY)
        # systemd-analyze says 0 on an unknown key or a bad value, and only prints it
        assert (result.returncode, result.stderr, result.stdout) == (0, "", ""), \
            f"{unit}: {result.stderr}{result.stdout}"


def test_the_units_run_the_one_machine_blocks_commands_with_the_same_options():
    """The units are not started here: the one-machine block is (below), so the units must
    give dask the same options, only other addresses, names and files."""
    ran = {argv[1]: argv for argv in commands(the_block("sh", "for n in 01 02"))
           if argv[:1] == ["dask"]}
    places = {"--host", "--listen-address", "--name", "--tls-ca-file", "--tls-cert",
              "--tls-key"}
    assert sorted(ran) == ["scheduler", "worker"]
    for name, text in units().items():
        service = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
        assert service["Environment"] == f"{REQUIRE}=True", name
        unit_argv = shlex.split(service["ExecStart"])
        assert unit_argv[0] == DOC_DASK
        mine, doc = options(unit_argv), options(ran[unit_argv[1]])
        assert sorted(mine) == sorted(doc), name
        assert {k: v for k, v in mine.items() if k not in places} \
            == {k: v for k, v in doc.items() if k not in places}, name


# ---------------------------------------------------------------- the certificates
def certs_command(folder: Path) -> list[str]:
    line = next(argv for argv in commands(the_block("sh", "solstis fleet certs"))
                if argv[:3] == ["solstis", "fleet", "certs"])
    assert line[3] == DOC_FOLDER, line
    return [str(BIN / "solstis"), *line[1:3], str(folder), *line[4:]]


def test_the_docs_certs_command_makes_private_files_each_fit_for_its_part_only(tmp_path):
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    from cryptography.x509.oid import ExtendedKeyUsageOID as Eku

    folder = tmp_path / "fleet"
    argv = certs_command(folder)
    made = subprocess.run(argv, capture_output=True, text=True, timeout=SAFETY)
    assert made.returncode == 0, made.stderr
    opts = options(argv)
    workers = str(opts["--workers"]).split(",")
    parts = ["ca", "scheduler", *(f"worker-{w}" for w in workers), "gateway"]
    assert sorted(p.name for p in folder.iterdir()) \
        == sorted(f"{part}.{ext}" for part in parts for ext in ("pem", "key"))
    assert folder.stat().st_mode & 0o777 == 0o700
    for path in folder.iterdir():
        assert path.stat().st_mode & 0o777 == 0o600, path.name

    def cert(part: str) -> x509.Certificate:
        return x509.load_pem_x509_certificate((folder / f"{part}.pem").read_bytes())

    def usages(c: x509.Certificate) -> set[str]:
        ku = c.extensions.get_extension_for_class(x509.KeyUsage).value
        return {n for n in ("digital_signature", "content_commitment", "key_encipherment",
                            "data_encipherment", "key_agreement", "key_cert_sign", "crl_sign")
                if getattr(ku, n)}

    def extended(c: x509.Certificate) -> set[x509.ObjectIdentifier]:
        return set(c.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value)

    def names(c: x509.Certificate) -> set[str]:
        alt = c.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        return {str(n.value) for n in alt}

    ca = cert("ca")
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert usages(ca) == {"key_cert_sign", "crl_sign"}
    for part in parts[1:]:
        leaf = cert(part)
        leaf.verify_directly_issued_by(ca)
        assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        assert "key_cert_sign" not in usages(leaf) and "crl_sign" not in usages(leaf)
        key = load_pem_private_key((folder / f"{part}.key").read_bytes(), None)
        assert key.public_key() == leaf.public_key(), f"{part}.key is not {part}.pem's key"
        if part == "gateway":
            assert extended(leaf) == {Eku.CLIENT_AUTH}, "the gateway may only connect"
        else:
            assert extended(leaf) == {Eku.SERVER_AUTH, Eku.CLIENT_AUTH}, part
    assert names(cert("scheduler")) == set(str(opts["--scheduler"]).split(","))
    for w in workers:
        assert names(cert(f"worker-{w}")) == {w}


# ---------------------------------------------------------------- the one-machine fleet
@dataclass
class Fleet:
    """The one-machine block running in its own process group, with its folder."""

    group: int
    folder: Path
    certs: Path
    socket: Path

    def processes(self) -> list[psutil.Process]:
        def group(proc: psutil.Process) -> int | None:
            with contextlib.suppress(ProcessLookupError):
                return os.getpgid(proc.pid)
            return None

        return [proc for proc in psutil.process_iter() if group(proc) == self.group]

    def log(self) -> str:
        return (self.folder / "fleet.log").read_text(errors="replace")[-6000:]

    def files(self, part: str, certs: Path | None = None) -> tuple[str, str, str]:
        """The fleet's CA, and ``part``'s certificate and key (from ``certs``, another
        CA's folder, if given)."""
        return files(certs or self.certs, part, self.certs)


def files(certs: Path, part: str, ca: Path | None = None) -> tuple[str, str, str]:
    return (str((ca or certs) / "ca.pem"), str(certs / f"{part}.pem"),
            str(certs / f"{part}.key"))


def security(ca: str, cert: str, key: str):
    from distributed import Security

    return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                    require_encryption=True)


def port_taken(port: int) -> bool:
    """Whether something listens on ``port`` of 127.0.0.1."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def one_machine_script(certs: Path) -> str:
    block = the_block("sh", "for n in 01 02")
    for said in (f"--port {SCHEDULER_PORT}", "for n in 01 02", "tls://127.0.0.1:87$n",
                 f"FLEET={DOC_FOLDER}"):
        assert said in block, f"the one-machine block no longer says {said!r}"
    return block.replace(f"FLEET={DOC_FOLDER}", f"FLEET={shlex.quote(str(certs))}")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory) -> Iterator[Fleet]:
    """The doc's one-machine block, run as written by bash under setsid, the host included,
    with certificates from ``solstis fleet certs DIR --workers localhost``; once the
    scheduler and the host both count two workers."""
    taken = [p for p in (SCHEDULER_PORT, *WORKER_PORTS) if port_taken(p)]
    if taken:
        pytest.skip(f"port(s) {taken} on 127.0.0.1 are taken: the one-machine block of "
                    "docs/cluster.md needs them, so it is not run")
    folder = tmp_path_factory.mktemp("fleet")
    certs = folder / "certs"
    # the folder the block's comment says: made by 'solstis fleet certs DIR --workers ...'
    said = re.search(f"FLEET={DOC_FOLDER} .*'(solstis fleet certs [^']*)'",
                     the_block("sh", "for n in 01 02"))
    assert said, "the one-machine block no longer says how its folder was made"
    argv = shlex.split(said.group(1))
    assert argv[3] == DOC_FOLDER, argv
    subprocess.run([str(BIN / "solstis"), *argv[1:3], str(certs), *argv[4:]], check=True,
                   capture_output=True, timeout=SAFETY)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "SOLSTIS_SOCKET": str(folder / "run" / "host.sock"),
           "SOLSTIS_HOST_DATA": str(folder / "data"), "DASK_TEMPORARY_DIRECTORY": str(folder)}
    env.pop(REQUIRE, None)  # the block exports it
    with open(folder / "fleet.log", "wb") as log:
        bash = subprocess.Popen(["bash", "-c", one_machine_script(certs)], cwd=folder,
                                env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    made = Fleet(bash.pid, folder, certs, folder / "run" / "host.sock")
    try:
        _wait_for_two_workers(made, bash)
        yield made
    finally:
        # the host stops on SIGTERM; then the block's '&' processes are killed (a Dask
        # worker that a client has called may take long to close)
        with_them = made.processes()
        hosts = [p for p in with_them if started(p) == "solstis host"]
        os.killpg(made.group, signal.SIGTERM)
        _, alive = psutil.wait_procs(hosts, timeout=SAFETY)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(made.group, signal.SIGKILL)
        psutil.wait_procs(with_them, timeout=SAFETY)
        bash.wait()
        assert not alive, f"the host did not stop on SIGTERM:\n{made.log()}"
        assert hosts == [] or bash.pid != hosts[0].pid or bash.returncode == 0, made.log()


def _wait_for_two_workers(fleet: Fleet, bash: subprocess.Popen[bytes]) -> None:
    from distributed import Client

    deadline = time.monotonic() + SAFETY
    client = None
    while client is None:
        assert bash.poll() is None, f"the block ended ({bash.returncode}):\n{fleet.log()}"
        assert time.monotonic() < deadline, f"no scheduler:\n{fleet.log()}"
        try:  # Dask retries a refused connection within its timeout
            client = Client(f"tls://127.0.0.1:{SCHEDULER_PORT}", timeout=5,
                            set_as_default=False, security=security(*fleet.files("gateway")))
        except OSError:
            continue
    try:
        client.wait_for_workers(2, timeout=SAFETY)
    finally:
        client.close()
    while True:  # the host's gateway reaches them too
        assert bash.poll() is None, f"the block ended ({bash.returncode}):\n{fleet.log()}"
        assert time.monotonic() < deadline, f"the host never saw the fleet:\n{fleet.log()}"
        try:
            if status_cli.ask(fleet.socket)["bots"].get("cluster_workers") == 2:
                return
        except OSError:
            pass
        time.sleep(0.1)  # a poll's pace, not a wait for something to happen


def started(proc: psutil.Process) -> str:
    """"dask scheduler", "dask worker", "solstis host", or "" for another process."""
    with contextlib.suppress(psutil.Error):
        argv = proc.cmdline()
        if len(argv) > 2 and Path(argv[1]).name in ("dask", "solstis"):
            return f"{Path(argv[1]).name} {argv[2]}"
    return ""


def listening(fleet: Fleet) -> tuple[set[str], list[str]]:
    """The TCP sockets the fleet's processes listen on, and which of the block's commands
    those processes are."""
    found, who = set(), []
    for proc in fleet.processes():
        try:
            who.append(started(proc))
            for conn in proc.net_connections(kind="tcp"):
                if conn.status == psutil.CONN_LISTEN:
                    found.add(f"{conn.laddr.ip}:{conn.laddr.port}")
        except psutil.NoSuchProcess:
            pass
    return found, who


def test_the_one_machine_fleet_listens_only_on_the_three_tls_ports_the_doc_names(fleet):
    found, who = listening(fleet)
    # the listing saw the block's processes (the host's gateway and bot pool are the others)
    assert sorted(filter(None, who)) == ["dask scheduler", "dask worker", "dask worker",
                                         "solstis host"], who
    assert found == {f"127.0.0.1:{p}" for p in (SCHEDULER_PORT, *WORKER_PORTS)}, \
        f"listening: {sorted(found)}\n{fleet.log()}"


def plain_reply(port: int) -> bytes:
    """What a plain-TCP HTTP GET to ``port`` gets back before the server closes."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY) as s:
        s.sendall(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            while chunk := s.recv(4096):
                got += chunk
        except ConnectionResetError:
            pass
    return got


def tls_reply(fleet: Fleet, port: int, cert: tuple[str, str] | None) -> bytes:
    """The first bytes a TLS client that trusts the fleet's CA and presents ``cert``
    (or none) reads from ``port``; b"" if the server ends the connection."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False  # the workers' certificates name "localhost"
    context.load_verify_locations(fleet.files("ca")[0])
    if cert:
        context.load_cert_chain(*cert)
    with socket.create_connection(("127.0.0.1", port), timeout=SAFETY) as raw:
        try:
            with context.wrap_socket(raw) as tls:
                return tls.recv(4096)
        except (ssl.SSLError, ConnectionResetError):
            return b""


PORTS = [SCHEDULER_PORT, *WORKER_PORTS]


@pytest.mark.parametrize("port", PORTS)
def test_no_port_of_the_fleet_answers_http_or_tls_without_the_fleets_certificate(
        fleet, port, tmp_path):
    stranger = tmp_path / "stranger"
    make(stranger, ["127.0.0.1"], ["localhost"])  # a fleet of another CA
    assert not plain_reply(port).startswith(b"HTTP"), "an HTTP server answered"
    assert plain_reply(port)[:1] in (b"", b"\x15"), "a plain TCP client got data"
    assert tls_reply(fleet, port, None) == b"", "a TLS client with no certificate got data"
    assert tls_reply(fleet, port, fleet.files("gateway", stranger)[1:]) == b"", \
        "a certificate of another CA got data"
    # the control: the same probe with the gateway's certificate gets Dask's handshake
    assert tls_reply(fleet, port, fleet.files("gateway")[1:]) != b""


async def test_a_dask_client_reaches_the_fleet_only_with_the_fleets_certificate(
        fleet, tmp_path):
    import asyncio

    from distributed import Client
    from distributed.comm import connect

    stranger = tmp_path / "stranger"
    make(stranger, ["127.0.0.1"], ["localhost"])
    theirs, ours = security(*fleet.files("gateway", stranger)), \
        security(*fleet.files("gateway"))
    addresses = [f"tls://127.0.0.1:{p}" for p in PORTS]

    async def refused(address: str) -> None:
        with pytest.raises(OSError):  # Dask tries again until its timeout
            comm = await connect(address, timeout=3, **theirs.get_connection_args("client"))
            await comm.close()

    async def stranger_client() -> None:
        client = Client(addresses[0], asynchronous=True, timeout=3, set_as_default=False,
                        security=theirs)
        with pytest.raises(OSError):
            await client
        await client.close()

    await asyncio.gather(stranger_client(), *map(refused, addresses))
    for address in addresses:  # the control: the gateway's certificate gets in
        comm = await connect(address, timeout=SAFETY, **ours.get_connection_args("client"))
        await comm.close()
    async with Client(addresses[0], asynchronous=True, timeout=SAFETY, set_as_default=False,
                      security=ours) as client:
        workers = (await client.scheduler.identity())["workers"]
    assert sorted(workers) == [f"tls://127.0.0.1:{p}" for p in WORKER_PORTS]


# ---------------------------------------------------------------- refusing to run
def doc_command(part: str, certs: Path, port: int, plain: bool) -> list[str]:
    """The one-machine block's ``dask scheduler`` or ``dask worker`` line, with its files
    in ``certs`` and its port ``port`` (a worker's scheduler: nobody there); ``plain``:
    without TLS (no TLS files, ``--protocol tcp``, ``tcp://`` addresses)."""
    argv = next(a for a in commands(the_block("sh", "for n in 01 02"))
                if a[:2] == ["dask", part])
    argv = [w.replace("$FLEET", str(certs)).replace("87$n", str(port)).replace("$n", "01")
            .replace(f":{SCHEDULER_PORT}", f":{free_port()}") for w in argv if w != "&"]
    if part == "scheduler":
        argv[argv.index("--port") + 1] = str(port)
    if plain:  # (Dask itself requires encryption of a server given TLS files)
        for option in ("--tls-ca-file", "--tls-cert", "--tls-key"):
            del argv[argv.index(option):argv.index(option) + 2]
        argv = [w.replace("tls://", "tcp://") for w in argv]
    if plain and part == "scheduler":
        assert argv[argv.index("--protocol") + 1] == "tls", argv
        argv[argv.index("--protocol") + 1] = "tcp"
    return [str(BIN / "dask"), *argv[1:]]


def _serves_until_it_ends(proc: subprocess.Popen[str], port: int,
                          tls: tuple[str, str, str] | None) -> bool:
    """Whether ``proc`` answers a connection on ``port`` (plain, or TLS with ``tls``'s
    certificate: Dask speaks first) before it ends."""
    while proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
                if tls is None:
                    if raw.recv(1):
                        return True
                    continue
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                context.check_hostname = False
                context.load_verify_locations(tls[0])
                context.load_cert_chain(tls[1], tls[2])
                with context.wrap_socket(raw) as conn:
                    if conn.recv(1):
                        return True
        except (OSError, ssl.SSLError):
            if proc.poll() is None:
                time.sleep(0.1)  # a poll's pace: it has not listened yet, or has stopped
    return False


CASES = {f"{part}, {'' if required else 'no '}require-encryption, {how}":
         (part, required, how == "plain tcp")
         for part in ("scheduler", "worker")
         for required, how in ((False, "tls"), (True, "plain tcp"), (False, "plain tcp"))}


@pytest.mark.parametrize("case", CASES)
def test_a_fleet_process_without_tls_or_require_encryption_refuses_to_run(case, tmp_path):
    part, required, plain = CASES[case]
    make(tmp_path / "certs", ["127.0.0.1"], ["localhost"])
    port = free_port()
    argv = doc_command(part, tmp_path / "certs", port, plain)
    env = {k: v for k, v in os.environ.items() if k != REQUIRE}
    env["DASK_TEMPORARY_DIRECTORY"] = str(tmp_path)
    if required:
        env[REQUIRE] = "True"
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    never_ended = threading.Event()
    timer = threading.Timer(SAFETY, lambda: (never_ended.set(), proc.kill()))  # a net
    timer.start()
    seen: list[str] = []
    ran_on = False
    try:
        for line in proc.stdout:  # until the process ends
            seen.append(line)
            if "Failed to start preload" in line:  # Dask logs an exception and goes on:
                ran_on = _serves_until_it_ends(proc, port, None if plain else  # does it?
                                               files(tmp_path / "certs", "gateway"))
                break
        if ran_on:
            proc.kill()
        proc.wait()  # the timer is the net
    finally:
        timer.cancel()
        seen += proc.stdout.readlines()
    out = "".join(seen)
    assert not ran_on, f"it logged the preload's refusal and served on:\n{out[-3000:]}"
    assert not never_ended.is_set(), f"it ran on for {SAFETY} s:\n{out[-3000:]}"
    assert proc.returncode != 0, out[-3000:]
    assert re.search("require-encryption|encryption required", out), out[-3000:]
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, "something listens on its port"
