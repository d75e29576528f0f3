"""``solstis fleet certs DIR`` as an operator types it: without ``certs`` it prints its
usage; names it cannot put in a certificate, a folder that already holds a fleet CA, a
folder it cannot write in and a missing ``cryptography`` are each refused with the reason,
and nothing already there is replaced."""

from __future__ import annotations

import builtins
import os
import stat

import pytest

from solstis_tui import cli


@pytest.mark.parametrize("argv", [["fleet"], ["fleet", "cert", "x"]])
def test_fleet_without_certs_prints_its_usage(argv, capsys):
    assert cli.main(argv) == 2
    assert "usage: solstis fleet certs DIR" in capsys.readouterr().err


def test_fleet_certs_makes_private_files_for_each_part(tmp_path, capsys):
    folder = tmp_path / "fleet"
    assert cli.main(["fleet", "certs", str(folder), "--workers", "w1,w2"]) == 0
    said = capsys.readouterr().out
    assert f"made 10 files in {folder} (each 0600)" in said and "keep ca.key off" in said
    names = {p.name for p in folder.iterdir()}
    assert {"ca.pem", "ca.key", "worker-w1.pem", "worker-w2.key", "gateway.pem"} <= names
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {0o600}


@pytest.mark.parametrize(("flags", "says"), [
    (["--scheduler", " , "], "give at least one scheduler name and one worker"),
    (["--workers", ""], "give at least one scheduler name and one worker"),
    (["--workers", "w1,../evil"], "a worker's name is letters, digits, '.' and '-': "
                                  "not '../evil'"),
])
def test_names_that_cannot_be_certified_are_refused_and_nothing_is_made(
        tmp_path, capsys, flags, says):
    folder = tmp_path / "fleet"
    with pytest.raises(SystemExit) as stop:
        cli.main(["fleet", "certs", str(folder), *flags])
    assert stop.value.code == 2 and says in capsys.readouterr().err
    assert not folder.exists()


def test_a_folder_that_holds_a_fleet_ca_is_kept_unless_forced(tmp_path, capsys):
    folder = tmp_path / "fleet"
    assert cli.main(["fleet", "certs", str(folder)]) == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    capsys.readouterr()
    assert cli.main(["fleet", "certs", str(folder)]) == 1
    assert "already holds a fleet CA (ca.key); --force makes a new one" in \
        capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert cli.main(["fleet", "certs", str(folder), "--force"]) == 0
    assert (folder / "ca.key").read_bytes() != before["ca.key"]


def test_a_folder_it_cannot_write_in_is_said(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert cli.main(["fleet", "certs", str(blocker / "fleet")]) == 1
    err = capsys.readouterr().err
    assert f"solstis fleet certs: cannot write in {blocker / 'fleet'} (" in err
    assert "Traceback" not in err


def test_without_the_cryptography_package_it_names_the_extra_to_install(
        tmp_path, capsys, monkeypatch):
    real_import = builtins.__import__

    def no_cryptography(name, *args, **kwargs):
        if name == "cryptography":
            raise ImportError("No module named 'cryptography'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cryptography)
    with pytest.raises(SystemExit) as stop:
        cli.main(["fleet", "certs", str(tmp_path / "fleet")])
    assert stop.value.code == 2
    assert "needs the cryptography package: pip install" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "fleet")
