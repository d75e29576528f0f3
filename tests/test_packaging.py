"""The distribution claims one import name, ``solstis_tui``: the repository's ai/ and themes/
folders install inside it, so no other package named ``ai`` or ``themes`` is shadowed."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from solstis_tui.engine_build import COMPILED

REPO = Path(__file__).resolve().parents[1]
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", ".*_cache", ".hypothesis", "__pycache__", "*.egg-info", "build", "dist"
)


def _clean_env() -> dict[str, str]:
    """The environment without PYTHONPATH, so only the installed distribution is seen."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _quick_build_env() -> dict[str, str]:
    """The clean environment, the C compiler at -O0: the wheel's contents are the same."""
    return {**_clean_env(), "SOLSTIS_OPT_LEVEL": "0"}


def _can_build_without_isolation() -> bool:
    """The venv's setuptools makes wheels by itself from 70.1 on, older ones need ``wheel``."""
    major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def _lacking_build_requirements() -> list[str]:
    """pyproject.toml's build requirements this venv does not meet (and ``wheel`` if its
    setuptools cannot make wheels by itself)."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    lacking = []
    for text in pyproject["build-system"]["requires"]:
        requirement = Requirement(text)
        try:
            met = requirement.specifier.contains(version(requirement.name), prereleases=True)
        except PackageNotFoundError:
            met = False
        if not met:
            lacking.append(text)
    if not _can_build_without_isolation():
        lacking.append("wheel")
    return lacking


@dataclass(frozen=True)
class Builder:
    """``pip wheel`` of a copy of the checkout, without build isolation: the build
    requirements the venv lacks were installed once, from pip's configured index, into
    ``tools`` (on the build's PYTHONPATH), rather than by pip's isolated build for each
    wheel (two builds: that install was a good part of their cost)."""

    tools: Path | None

    def run(self, where: Path, *pip_options: str,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Copy the checkout to ``where/source`` (an in-tree build would reuse a stale
        build/ folder and leave files behind in the repository) and build its wheel into
        ``where/wheels``, at C optimisation level 0 (the wheel's contents are the same)."""
        source, out = where / "source", where / "wheels"
        shutil.copytree(REPO, source, ignore=NOT_SOURCE)
        env = {**_quick_build_env(), **(env or {})}
        if self.tools is not None:
            env["PYTHONPATH"] = str(self.tools)
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                   *pip_options, "-w", str(out), str(source)]
        return subprocess.run(command, capture_output=True, text=True, cwd=where, env=env,
                              timeout=900, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def builder(tmp_path_factory: pytest.TempPathFactory) -> Builder:
    lacking = _lacking_build_requirements()
    if not lacking:
        return Builder(None)
    tools = tmp_path_factory.mktemp("build-tools")
    run = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target",
                          str(tools), *lacking], capture_output=True, text=True,
                         env=_clean_env(), timeout=600, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout + run.stderr
    return Builder(tools)


@pytest.fixture(scope="module")
def wheel(builder: Builder, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[zipfile.ZipFile]:
    """The wheel this machine builds (compiled where it can) from a copy of the checkout."""
    root = tmp_path_factory.mktemp("packaging")
    run = builder.run(root, "-q")
    assert run.returncode == 0, run.stdout + run.stderr
    (built,) = (root / "wheels").glob("solstis_tui-*.whl")
    with zipfile.ZipFile(built) as archive:
        yield archive


def test_the_wheel_installs_only_the_solstis_tui_package(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"solstis_tui"}
    top_level = [name for name in names if name.endswith(".dist-info/top_level.txt")]
    for name in top_level:
        assert wheel.read(name).decode().split() == ["solstis_tui"]


def test_the_wheel_ships_the_bots_their_weights_and_the_themes(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    bots = {f"solstis_tui/ai/{path.name}" for path in (REPO / "ai").glob("*.py")}
    themes = {f"solstis_tui/themes/{path.name}" for path in (REPO / "themes").glob("*.py")}
    assert {"solstis_tui/ai/registry.py", "solstis_tui/themes/__init__.py"} <= bots | themes
    assert bots <= names
    assert themes <= names
    assert "solstis_tui/ai/value_weights.json" in names


def test_the_wheel_ships_every_package_of_the_checkout(wheel: zipfile.ZipFile) -> None:
    """Each folder of solstis_tui/ that is a package (host/, client/...) is in the wheel with
    its modules: pyproject.toml's package list names them all."""
    names = set(wheel.namelist())
    packages = [init.parent for init in (REPO / "solstis_tui").rglob("__init__.py")]
    assert {"host", "client", "core"} <= {folder.name for folder in packages}
    for folder in packages:
        for module in folder.glob("*.py"):
            assert module.relative_to(REPO).as_posix() in names


def test_the_wheel_carries_the_engine_this_machine_can_build(wheel: zipfile.ZipFile) -> None:
    """With a C compiler: a platform wheel with the compiled modules and a build record
    that names them; without one: a pure wheel that says why."""
    names = set(wheel.namelist())
    record = json.loads(wheel.read("solstis_tui/_engine_build.json"))
    platform_wheel = not Path(wheel.filename or "").name.endswith("-none-any.whl")
    compiled = {name for name in names if name.endswith((".so", ".pyd"))}
    if record["engine"] == "compiled":
        assert platform_wheel
        assert {"solstis_tui/core/game", "solstis_tui/ai/search"} <= {
            name.split(".")[0] for name in compiled}
        assert set(record["modules"]) == set(COMPILED)
    else:
        assert not compiled and not platform_wheel and record["reason"]


def test_the_editable_install_maps_ai_and_themes_inside_solstis_tui(tmp_path: Path) -> None:
    """From a folder outside the checkout, ``solstis_tui.ai`` is the repository's ai/ and
    the bare names ``ai`` and ``themes`` do not exist."""
    probe = """
import importlib, json
import solstis_tui.ai, solstis_tui.ai.registry, solstis_tui.themes
found = {"ai": solstis_tui.ai.__file__, "themes": solstis_tui.themes.__file__}
for bare in ("ai", "themes"):
    try:
        importlib.import_module(bare)
    except ModuleNotFoundError:
        found[bare + " missing"] = True
print(json.dumps(found))
"""
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=tmp_path, env=_clean_env(), timeout=60)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert Path(found["ai"]) == REPO / "ai" / "__init__.py"
    assert Path(found["themes"]) == REPO / "themes" / "__init__.py"
    assert found.get("ai missing") and found.get("themes missing"), found


FAILING_COMPILER = """#!/bin/sh
echo "In file included from build/mypyc/x.c:1:" >&2
echo "build/mypyc/x.c:12:5: error: this compiler always fails" >&2
echo "compilation terminated." >&2
exit 1
"""


def test_a_compiler_that_fails_gives_a_pure_wheel_and_one_short_line_saying_why(
        builder: Builder, tmp_path: Path) -> None:
    """A compiler that is there but fails: the fallback line was about 1,000 characters
    (the whole compiler command) without the compiler's own error, and the pure wheel was
    tagged for this platform."""
    if os.name == "nt":
        pytest.skip("the stand-in compiler is a shell script")
    compiler = tmp_path / "failcc"
    compiler.write_text(FAILING_COMPILER, encoding="utf-8")
    compiler.chmod(0o755)
    run = builder.run(tmp_path, "-v", env={"CC": str(compiler), "SOLSTIS_PURE": "0"})
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line.strip() for line in (run.stdout + run.stderr).splitlines()
            if "solstis-tui: pure-Python engine" in line]
    assert len(said) == 1, said
    assert "failcc said build/mypyc/x.c:12:5: error: this compiler always fails" in said[0]
    assert len(said[0]) < 200 and "-fPIC" not in said[0]
    (built,) = (tmp_path / "wheels").glob("solstis_tui-*.whl")
    assert built.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(built) as wheel:
        assert json.loads(wheel.read("solstis_tui/_engine_build.json"))["engine"] == "pure"
        assert not [n for n in wheel.namelist() if n.endswith((".so", ".pyd"))]
        assert "Root-Is-Purelib: true" in wheel.read(
            next(n for n in wheel.namelist() if n.endswith(".dist-info/WHEEL"))).decode()
