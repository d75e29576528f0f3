"""The distribution claims one import name, ``solstis_tui``: the repository's ai/ and themes/
folders install inside it, so no other package named ``ai`` or ``themes`` is shadowed."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    """A wheel built from a copy of the checkout (an in-tree build would reuse a stale
    build/ folder and leave files behind in the repository)."""
    root = tmp_path_factory.mktemp("packaging")
    source, out = root / "source", root / "wheels"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out)]
    if _can_build_without_isolation():
        command.append("--no-build-isolation")
    # Otherwise pip installs pyproject's build requirements from its configured index.
    run = subprocess.run([*command, str(source)], capture_output=True, text=True,
                         cwd=root, env=_quick_build_env(), timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    (built,) = out.glob("solstis_tui-*.whl")
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
        tmp_path: Path) -> None:
    """A compiler that is there but fails: the fallback line was about 1,000 characters
    (the whole compiler command) without the compiler's own error, and the pure wheel was
    tagged for this platform."""
    if os.name == "nt":
        pytest.skip("the stand-in compiler is a shell script")
    compiler = tmp_path / "failcc"
    compiler.write_text(FAILING_COMPILER, encoding="utf-8")
    compiler.chmod(0o755)
    source, out = tmp_path / "source", tmp_path / "wheels"
    shutil.copytree(REPO, source, ignore=NOT_SOURCE)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out)]
    if _can_build_without_isolation():
        command.append("--no-build-isolation")
    env = {**_quick_build_env(), "CC": str(compiler)}
    env.pop("SOLSTIS_PURE", None)
    run = subprocess.run([*command, str(source)], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=900, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line.strip() for line in (run.stdout + run.stderr).splitlines()
            if "solstis-tui: pure-Python engine" in line]
    assert len(said) == 1, said
    assert "failcc said build/mypyc/x.c:12:5: error: this compiler always fails" in said[0]
    assert len(said[0]) < 200 and "-fPIC" not in said[0]
    (built,) = out.glob("solstis_tui-*.whl")
    assert built.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(built) as wheel:
        assert json.loads(wheel.read("solstis_tui/_engine_build.json"))["engine"] == "pure"
        assert not [n for n in wheel.namelist() if n.endswith((".so", ".pyd"))]
        assert "Root-Is-Purelib: true" in wheel.read(
            next(n for n in wheel.namelist() if n.endswith(".dist-info/WHEEL"))).decode()
