"""SSH front ends on other machines reach the host over TLS: only a front end's certificate
(signed by the front-end CA) may say which key a player is; every other TLS client is a
guest; a certificate from another CA, or an expired one, is refused; and strangers who
send plain text or stall mid-handshake lock nobody out.

Certificates are made by the test (trustme); the host and its clients run in one loop."""

from __future__ import annotations

import asyncio
import datetime
import logging
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme

from solstis_tui.client.client import HostClient, HostError
from solstis_tui.host.identity import KeyRing, Trust, key_line
from solstis_tui.host.limits import Limits
from solstis_tui.wire.tls import TlsTarget, client_context, server_context

from .conftest import start_host
from .identities import ANN, BOB

pytestmark = pytest.mark.usefixtures("replies_come_or_the_test_fails")

GUARD = 30.0  # a bound on waiting for an event, never a measure


@dataclass
class Pki:
    """The files of a deployment: the CA (it signs the host's certificate and the front
    ends'), the host's pair, and somewhere to write more."""

    dir: Path
    ca: trustme.CA
    ca_file: Path
    host_cert: Path
    host_key: Path

    def frontend(self, name: str, ca: trustme.CA | None = None,
                 **when: datetime.datetime) -> tuple[Path, Path]:
        """A front end's certificate and key, signed by ``ca`` (default: the deployment's)."""
        leaf = (ca or self.ca).issue_cert(f"{name}.example", common_name=name, **when)
        cert, key = self.dir / f"{name}.pem", self.dir / f"{name}.key"
        leaf.cert_chain_pems[0].write_to_path(str(cert))
        leaf.private_key_pem.write_to_path(str(key))
        return cert, key


@pytest.fixture
def pki(tmp_path) -> Pki:
    folder = tmp_path / "pki"
    folder.mkdir()
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    server = ca.issue_cert("127.0.0.1", common_name="host")  # not "localhost"
    server.cert_chain_pems[0].write_to_path(str(folder / "host.pem"))
    server.private_key_pem.write_to_path(str(folder / "host.key"))
    return Pki(folder, ca, folder / "ca.pem", folder / "host.pem", folder / "host.key")


class Heard(logging.Handler):
    """What the host logs, and an event each time it does."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.event.set()

    async def lines(self, count: int) -> list[str]:
        """The first ``count`` lines logged, once there are that many."""
        async with asyncio.timeout(GUARD):
            while len(self.records) < count:
                self.event.clear()
                await self.event.wait()
        return [r.getMessage() for r in self.records]


@pytest.fixture
def heard():
    logger = logging.getLogger("solstis.host")
    handler, level = Heard(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


async def tls_host(tmp_path: Path, pki: Pki, **limits: float):
    keys = tmp_path / "authorized_keys"
    keys.write_text(key_line(ANN, "Ann") + "\n" + key_line(BOB, "Bob") + "\n")
    host = await start_host(tmp_path / "data", tmp_path / "host.sock",
                            trust=Trust(None, KeyRing(keys)), limits=Limits(**limits))
    host.tls_port = await host.serve_tls("127.0.0.1", 0, server_context(
        pki.host_cert, pki.host_key, pki.ca_file))
    host.test_clients = []
    return host


@pytest.fixture
async def host(tmp_path, pki):
    host = await tls_host(tmp_path, pki)
    yield host
    await close(host)


async def close(host) -> None:
    for client in host.test_clients:
        await client.close()
    await host.close()
    assert host.internal_errors == []


async def connect(host, pki: Pki, cert: tuple[Path, Path] | None = None,
                  server_name: str = "127.0.0.1") -> HostClient:
    context = client_context(pki.ca_file, *(cert or (None, None)))
    client = await HostClient.connect(tls=TlsTarget(server_name, host.tls_port, context))
    host.test_clients.append(client)
    return client


async def hello(client: HostClient, key: str | None = None, name: str | None = None) -> dict:
    """The host's answer to a hello (welcome or error)."""
    client.ssh_key = key
    await client.send(client.hello_message(name))
    while (message := await client.receive())["type"] not in ("welcome", "error"):
        pass
    return message


async def refused(host, pki: Pki, cert: tuple[Path, Path]) -> str:
    """Why a client with ``cert`` gets no welcome (TLS 1.3 lets the client's side of the
    handshake finish first: the refusal arrives at its first read)."""
    with pytest.raises((HostError, OSError)) as caught:
        client = await connect(host, pki, cert)
        await hello(client, ANN)
    return str(caught.value)


# ---- who a TLS client is -------------------------------------------------------------------

async def test_a_client_without_a_frontend_certificate_that_claims_a_key_is_a_guest(host, pki):
    answer = await hello(await connect(host, pki), ANN, name="Zed")
    assert (answer["type"], answer["name"]) == ("welcome", "Zed (guest)")
    assert host.players.identity_of(answer["code"]) == "guest"


async def test_a_frontend_certificates_key_is_the_player_the_keys_file_names(host, pki):
    front_end = pki.frontend("fe1")
    ann = await hello(await connect(host, pki, front_end), ANN, name="Zed")
    bob = await hello(await connect(host, pki, front_end), BOB)
    assert (ann["type"], ann["name"], bob["name"]) == ("welcome", "Ann", "Bob")
    assert host.players.identity_of(ann["code"]) == "key:Ann"  # and no TCP token was asked


async def test_a_frontend_without_a_key_to_pass_on_gets_a_guest(host, pki):
    answer = await hello(await connect(host, pki, pki.frontend("fe1")), None, name="Zed")
    assert (answer["type"], answer["name"]) == ("welcome", "Zed (guest)")


async def test_tls_guests_share_the_guests_pool(tmp_path, pki):
    host = await tls_host(tmp_path, pki, guest_connections=1)
    try:
        first = await hello(await connect(host, pki), ANN, name="Zed")
        second = await hello(await connect(host, pki), None, name="Yan")
        assert first["type"] == "welcome"
        assert (second["type"], second["code"]) == ("error", "busy")
    finally:
        await close(host)


async def test_a_silent_front_end_connection_is_closed_at_the_idle_limit(tmp_path, pki):
    host = await tls_host(tmp_path, pki, idle_seconds=0.2)
    try:
        client = await connect(host, pki, pki.frontend("fe1"))
        assert (await hello(client, ANN))["name"] == "Ann"
        while (said := await client.receive())["type"] != "error":
            pass
        assert said["code"] == "timeout" and "nothing heard" in said["message"]
    finally:
        await close(host)


# ---- certificates the host refuses ---------------------------------------------------------

async def test_a_certificate_from_another_ca_is_refused_with_one_log_line(host, pki, heard):
    await refused(host, pki, pki.frontend("intruder", ca=trustme.CA()))
    [line] = await heard.lines(1)
    assert "TLS handshake with 127.0.0.1:" in line and "certificate refused" in line
    assert all(r.exc_info is None for r in heard.records)  # one line, never a traceback
    honest = await hello(await connect(host, pki, pki.frontend("fe1")), ANN)
    assert honest["name"] == "Ann"  # the host keeps serving


async def test_an_expired_frontend_certificate_is_refused(host, pki, heard):
    now = datetime.datetime.now(datetime.UTC)
    expired = pki.frontend("old", not_before=now - datetime.timedelta(days=30),
                           not_after=now - datetime.timedelta(days=1))
    await refused(host, pki, expired)
    [line] = await heard.lines(1)
    assert "certificate has expired" in line
    assert (await hello(await connect(host, pki, pki.frontend("fe1")), ANN))["name"] == "Ann"


async def test_the_client_refuses_a_host_whose_certificate_names_another_host(host, pki):
    with pytest.raises(HostError, match="did not prove it is that host"):
        await connect(host, pki, server_name="localhost")  # the same host, not its name


async def test_without_host_ca_the_client_trusts_only_the_systems_cas(host, pki):
    target = TlsTarget("127.0.0.1", host.tls_port, client_context(None))
    with pytest.raises(HostError, match="did not prove it is that host"):
        await HostClient.connect(tls=target)  # a private CA's host is nobody the system knows


# ---- strangers at the TLS port -------------------------------------------------------------

async def raw(host) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", host.tls_port)


async def hung_up_on(reader: asyncio.StreamReader) -> bool:
    """Whether the host closes the connection without a word (an end, or a reset)."""
    async with asyncio.timeout(GUARD):
        try:
            return await reader.read() == b""
        except ConnectionResetError:
            return True


HALF_A_CLIENT_HELLO = bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03])


async def test_plain_text_at_the_tls_port_costs_one_log_line_and_stops_nobody(host, pki,
                                                                              heard):
    reader, writer = await raw(host)
    writer.write(b'{"type": "hello", "version": 2, "name": "Eve"}\n')
    [line] = await heard.lines(1)
    assert "TLS handshake with 127.0.0.1:" in line
    assert all(r.exc_info is None for r in heard.records)
    assert await hung_up_on(reader)  # told nothing in plain text
    writer.close()
    assert (await hello(await connect(host, pki, pki.frontend("fe1")), ANN))["name"] == "Ann"


async def test_a_stranger_stalled_mid_handshake_does_not_stop_the_next_client(host, pki):
    _reader, staller = await raw(host)
    staller.write(HALF_A_CLIENT_HELLO)
    await staller.drain()
    try:
        answer = await hello(await connect(host, pki, pki.frontend("fe1")), ANN)
        assert answer["name"] == "Ann"
    finally:
        staller.close()


async def test_stalled_handshakes_on_a_full_host_make_room_for_an_honest_client(tmp_path,
                                                                                pki):
    host = await tls_host(tmp_path, pki, max_connections=2)
    stallers = []
    try:
        for _ in range(2):
            reader, writer = await raw(host)
            writer.write(HALF_A_CLIENT_HELLO)
            stallers.append((reader, writer))
        async with asyncio.timeout(GUARD):
            while len(host.conns) < 2:  # both accepted and counted
                await asyncio.sleep(0.01)
        answer = await hello(await connect(host, pki, pki.frontend("fe1")), ANN)
        assert answer["name"] == "Ann"
        assert await hung_up_on(stallers[0][0])  # the oldest silent one made room
    finally:
        for _reader, writer in stallers:
            writer.close()
        await close(host)


async def test_a_handshake_never_finished_ends_when_its_hello_time_is_up(tmp_path, pki,
                                                                         heard):
    host = await tls_host(tmp_path, pki, hello_seconds=0.2)
    try:
        reader, writer = await raw(host)
        writer.write(HALF_A_CLIENT_HELLO)
        [line] = await heard.lines(1)
        assert "TLS handshake with 127.0.0.1:" in line
        assert await hung_up_on(reader)
        writer.close()
        assert host.conns == set()
    finally:
        await close(host)



# ---- command lines: bad flags and files get one sentence and exit 2 ------------------------

def encrypted_key(pki: Pki) -> Path:
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key((pki.dir / "fe1.key").read_bytes(), None)
    path = pki.dir / "locked.key"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.BestAvailableEncryption(b"secret")))
    return path


CLIENT_MISTAKES = {  # the arguments after --host tls://127.0.0.1:7018 -> what is said
    "a missing certificate": (["--frontend-cert", "{dir}/none.pem", "--frontend-key",
                               "{dir}/fe1.key"], "cannot read the front end's certificate"),
    "a certificate that is not one": (["--frontend-cert", "{dir}/fe1.key", "--frontend-key",
                                       "{dir}/fe1.key"], "is not a PEM certificate"),
    "another certificate's key": (["--frontend-cert", "{dir}/fe1.pem", "--frontend-key",
                                   "{dir}/fe2.key"], "is not the key of the certificate"),
    "a key with a passphrase": (["--frontend-cert", "{dir}/fe1.pem", "--frontend-key",
                                 "{dir}/locked.key"], "protected by a passphrase"),
    "a certificate without its key": (["--frontend-cert", "{dir}/fe1.pem"], "needs its key"),
    "a host CA that is no certificate": (["--host-ca", "{dir}/fe1.key"],
                                         "is not a PEM certificate"),
    "--ssh-key without a front end's certificate": (["--ssh-key"],
                                                    "believes --ssh-key only from a front end"),
}


@pytest.mark.parametrize("mistake", CLIENT_MISTAKES)
def test_solstis_online_says_what_is_wrong_with_its_tls_flags_and_exits_2(pki, capsys,
                                                                          mistake):
    from solstis_tui.client.launch import online_main

    pki.frontend("fe1"), pki.frontend("fe2"), encrypted_key(pki)
    words, said = CLIENT_MISTAKES[mistake]
    argv = ["--host", "tls://127.0.0.1:7018", *(w.format(dir=pki.dir) for w in words)]
    with pytest.raises(SystemExit) as exit_:
        online_main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and said in err and "Traceback" not in err
    assert err.splitlines()[-1].startswith("solstis online: error: ")


@pytest.mark.parametrize("argv, said", [
    (["--host", "game.example.org:7018"], "write tls://HOST:PORT"),
    (["--frontend-cert", "fe1.pem", "--frontend-key", "fe1.key"], "go with --host"),
    (["--host", "tls://127.0.0.1:7018", "--tcp", "127.0.0.1:7017"], "one of --host"),
])
def test_solstis_online_refuses_tls_flags_that_do_not_go_together(capsys, argv, said):
    from solstis_tui.client.launch import online_main

    with pytest.raises(SystemExit) as exit_:
        online_main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and said in err and "Traceback" not in err


@pytest.mark.parametrize("words, said", [
    (["--cert", "{dir}/host.pem", "--key", "{dir}/host.key"], "missing: --frontend-ca"),
    (["--cert", "{dir}/host.pem", "--key", "{dir}/fe1.key", "--frontend-ca", "{dir}/ca.pem"],
     "is not the key of the certificate"),
    (["--cert", "{dir}/host.pem", "--key", "{dir}/host.key", "--frontend-ca",
      "{dir}/none.pem"], "cannot read the front-end CA"),
])
def test_solstis_host_says_what_is_wrong_with_its_tls_flags_and_exits_2(pki, capsys, words,
                                                                        said):
    from solstis_tui.host.serve import main

    pki.frontend("fe1")
    argv = ["--listen-tls", "127.0.0.1:0", *(w.format(dir=pki.dir) for w in words)]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and said in err and "Traceback" not in err


# ---- the certificates docs/ssh.md makes ------------------------------------------------------

@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl (apt install openssl)")
async def test_the_docs_openssl_commands_make_a_host_and_a_front_end_that_shake_hands(
        tmp_path):
    from . import ssh_doc

    script = ssh_doc.substitute(ssh_doc.the_block(run="certificates").text,
                                {"game.example.org": "localhost"})
    made = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, capture_output=True,
                          text=True)
    assert made.returncode == 0, made.stderr
    assert "host.pem: OK" in made.stdout and "front1.pem: OK" in made.stdout
    pki = Pki(tmp_path, trustme.CA(), tmp_path / "ca.pem", tmp_path / "host.pem",
              tmp_path / "host.key")
    host = await tls_host(tmp_path, pki)
    try:
        front_end = (tmp_path / "front1.pem", tmp_path / "front1.key")
        answer = await hello(await connect(host, pki, front_end, server_name="localhost"), ANN)
        assert answer["name"] == "Ann"
        posing = (tmp_path / "host.pem", tmp_path / "host.key")  # for server use only
        with pytest.raises((HostError, OSError)):
            await hello(await connect(host, pki, posing, server_name="localhost"), ANN)
    finally:
        await close(host)
