"""Build step: compile the engine and the search with mypyc, or install them as pure Python.

The project's metadata is in pyproject.toml; this file adds only the compiled modules.
``pip install .`` (or ``-e .``, or ``pip wheel .``) compiles the modules that
``solstis_tui/engine_build.py`` lists when a C compiler and Python's headers are there, and
installs the same source as pure Python when they are not, when the C build fails, or with
``SOLSTIS_PURE=1``. Either way one line says which engine was built, and
``solstis_tui/_engine_build.json`` records it with a digest of every compiled source, so
that an edited source never hides behind a stale compiled module (engine_build.py checks).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import runpy
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

#: The longest reason a fallback line gives (a failed command alone ran to 1,000 characters).
REASON_MAX = 160

ROOT = Path(__file__).resolve().parent
ENGINE: dict[str, Any] = runpy.run_path(str(ROOT / "solstis_tui" / "engine_build.py"))
COMPILED: tuple[str, ...] = ENGINE["COMPILED"]
SUPPORT: tuple[str, ...] = ENGINE["SUPPORT"]
#: The shared library every compiled module loads (mypyc's group).
GROUP = "solstis_tui._engine"


def toolchain_problem() -> str:
    """Why this machine cannot compile C extensions ('' when it can)."""
    if ENGINE["wants_pure"](dict(os.environ)):
        return f"{ENGINE['PURE_VARIABLE']}=1"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({compiler[0] if compiler else 'cc'} not found)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return "no Python headers (Python.h not found; install python3-dev)"
    return ""


def announce(line: str) -> None:
    """Say which engine was built: on stderr (pip shows it with -v) and, when pip captures
    that, on the terminal that started the install, so that it shows at install time."""
    print(line, file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(line + "\n")
    except OSError:
        pass


def source_of(command: build_ext | build_py, module: str) -> Path:
    """A module's source file in the checkout (packages map to folders: ai/)."""
    packages = command.get_finalized_command("build_py")
    if module in SUPPORT:
        return ROOT / packages.get_package_dir(module) / "__init__.py"
    package, _, name = module.rpartition(".")
    return ROOT / packages.get_package_dir(package) / f"{name}.py"


def in_place(command: build_ext | build_py) -> bool:
    """True for an editable install: built files go into the checkout itself."""
    return bool(getattr(command, "editable_mode", False) or getattr(command, "inplace", False))


def remove_stale_extensions(command: build_ext | build_py, kept: set[Path]) -> None:
    """In an editable install, delete the extension modules in the checkout's package
    folders that this build did not make (``kept``): one compiled earlier, from a module
    since renamed, removed or no longer compiled, would load before the sources."""
    packages = command.get_finalized_command("build_py")
    folders = {ROOT / packages.get_package_dir(p) for p in command.distribution.packages or []}
    for folder in folders:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            for path in folder.glob(f"*{suffix}"):
                if path.resolve() not in kept:
                    path.unlink()


def built_in_place(command: build_ext | build_py) -> set[Path]:
    """The extension modules a compiled editable build puts in the checkout."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    made = {Path(f"{source_of(command, m).with_suffix('')}{suffix}").resolve() for m in COMPILED}
    made.add((ROOT / "solstis_tui" / f"{GROUP.rpartition('.')[2]}__mypyc{suffix}").resolve())
    return made


def record_engine(command: build_ext | build_py, problem: str) -> None:
    """Write the build record (see engine_build.py); an editable build also removes the
    compiled modules it did not make, which would otherwise load before the sources."""
    if in_place(command):
        folder = ROOT / "solstis_tui"
        remove_stale_extensions(command, set() if problem else built_in_place(command))
    else:
        folder = Path(command.build_lib) / "solstis_tui"
        folder.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {"engine": "pure" if problem else "compiled", "reason": problem}
    if not problem:
        record["modules"] = {m: ENGINE["source_digest"](source_of(command, m))
                             for m in COMPILED}
    (folder / ENGINE["MANIFEST"]).write_text(json.dumps(record, indent=1) + "\n",
                                             encoding="utf-8")


def exact_float_flags(command: build_ext) -> list[str]:
    """Compiler flags that keep C's floating point as Python's (no contraction to FMA)."""
    compiler = getattr(command, "compiler", None)
    kind = getattr(compiler, "compiler_type", None) or ("msvc" if os.name == "nt" else "unix")
    return ["/fp:precise"] if kind == "msvc" else ["-ffp-contract=off"]


def shortened(text: str, most: int = REASON_MAX) -> str:
    """``text``'s first line, cut to ``most`` characters."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= most else line[:most - 3] + "..."


def last_error_line(output: str) -> str:
    """The compiler's own last word: its last line that says 'error', else its last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    return shortened((errors or lines or ["(it printed nothing)"])[-1])


class BuildEngine(build_ext):
    """build_ext that compiles the engine with mypyc, falling back to pure Python if the C
    build fails: then one line says why, with the compiler's last error line, and the
    wheel is a pure one."""

    compiler_said: list[str]
    """The last error line of each compiler run that failed."""

    def run(self) -> None:
        started = time.monotonic()
        problem = ""
        self.compiler_said = []
        try:
            self.fill_in(self.mypyc_extensions())
            super().run()
        except (CCompilerError, CompileError, ExecError, LinkError, PlatformError,
                OSError) as exc:
            problem = f"the C build failed: {shortened(str(exc))}"
            if self.compiler_said:
                problem = f"the C compiler failed; {self.compiler_said[-1]}"
            self.build_fell_back()
        record_engine(self, problem)
        if problem:
            announce(f"solstis-tui: pure-Python engine ({problem})")
        else:
            announce(f"solstis-tui: compiled engine "
                     f"(mypyc, {time.monotonic() - started:.0f} s)")

    def build_fell_back(self) -> None:
        """After a failed C build: no extension modules, so the wheel is a pure one (tagged
        py3-none-any, files in its root) rather than one tagged for this platform."""
        self.distribution.ext_modules = []
        if isinstance(self.distribution, EngineDistribution):
            self.distribution.c_build_failed = True
        wheel = self.distribution.command_obj.get("bdist_wheel")
        if wheel is not None:
            wheel.root_is_pure = True  # type: ignore[attr-defined]

    def build_extensions(self) -> None:
        # The compiler runs through ``call`` in newer setuptools, ``spawn`` in older ones.
        compiler: Any = self.compiler
        if hasattr(compiler, "call"):
            compiler.call = self.run_compiler
        compiler.spawn = self.spawn_compiler
        super().build_extensions()

    def run_compiler(self, cmd: list[str], env: dict[str, str] | None = None,
                     **_: Any) -> None:
        """Run the compiler or linker, keeping its last error line (``Compiler.call``)."""
        run = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        sys.stderr.write(run.stdout + run.stderr)  # the whole output: pip -v shows it
        if run.returncode != 0:
            said = last_error_line(run.stderr + "\n" + run.stdout)
            self.compiler_said.append(f"{Path(cmd[0]).name} said {said}")
            raise subprocess.CalledProcessError(run.returncode, [Path(cmd[0]).name])

    def spawn_compiler(self, cmd: list[str], **kwargs: Any) -> None:
        """``run_compiler`` as older setuptools' ``Compiler.spawn`` (ExecError on failure)."""
        try:
            self.run_compiler(cmd, kwargs.get("env"))
        except subprocess.CalledProcessError as exc:
            raise ExecError(f"{exc.cmd[0]} exited with status {exc.returncode}") from None

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:  # build the modules side by side, one per core
            self.parallel = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
                else os.cpu_count() or 1

    def fill_in(self, generated: list[Extension]) -> None:
        """Give the placeholder extensions (``placeholders``) the C sources and flags mypyc
        generated. mypyc runs here rather than when the command is set up, because setting
        build_ext up is part of every metadata step too."""
        made = {ext.name: ext for ext in generated}
        for ext in self.extensions:
            real = made.pop(ext.name)
            ext.sources, ext.depends = real.sources, real.depends
            ext.include_dirs = real.include_dirs
            # Exact floating point: no fused multiply-add, so that compiled arithmetic
            # gives the pure-Python build's results to the last bit on every processor.
            ext.extra_compile_args = [*real.extra_compile_args, *exact_float_flags(self)]
        if made:
            raise AssertionError(f"mypyc made modules setup.py does not list: {sorted(made)}")

    def mypyc_extensions(self) -> list[Extension]:
        """Copy the sources into a tree laid out by module name (the repository keeps
        solstis_tui.ai in ai/) and let mypyc turn them into extension modules."""
        from mypyc.build import mypycify

        stage = Path(self.build_temp) / "mypyc-src"
        shutil.rmtree(stage, ignore_errors=True)
        staged: dict[str, str] = {}
        for module in (*COMPILED, *SUPPORT):
            relative = module.replace(".", "/") + ("/__init__.py" if module in SUPPORT
                                                   else ".py")
            target = stage / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source_of(self, module), target)
            staged[module] = str(target)
        top = stage / "solstis_tui" / "__init__.py"
        if not top.exists():
            top.write_text("", encoding="utf-8")
        return mypycify(
            [*staged.values()],
            only_compile_paths=[staged[m] for m in COMPILED],
            # C compiler optimisation: 3, the product's; the packaging test builds at 0 (it
            # checks what the wheel holds, and -O0 compiles several times faster).
            opt_level=os.environ.get("SOLSTIS_OPT_LEVEL", "3"),
            group_name=GROUP,
            target_dir=str(Path(self.build_temp) / "mypyc"),
        )

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs()
        if not in_place(self):
            outputs.append(str(Path(self.build_lib) / "solstis_tui" / ENGINE["MANIFEST"]))
        return outputs


class BuildPy(build_py):
    """build_py that records a pure-Python engine when nothing will be compiled."""

    def run(self) -> None:
        super().run()
        problem = toolchain_problem()
        if problem:
            record_engine(self, problem)
            announce(f"solstis-tui: pure-Python engine ({problem})")


class EngineDistribution(Distribution):
    """Has extension modules unless this machine cannot build them or the C build failed
    (a pure wheel then)."""

    c_build_failed = False

    def has_ext_modules(self) -> bool:
        return not self.c_build_failed and not toolchain_problem()


def placeholders() -> list[Extension]:
    """The extension modules a compiled build makes: mypyc's shared library and one per
    compiled module. Their sources are filled in when they are built (``fill_in``)."""
    names = [f"{GROUP}__mypyc", *COMPILED]
    return [Extension(name, sources=[]) for name in names]


setup(
    ext_modules=[] if toolchain_problem() else placeholders(),
    cmdclass={"build_ext": BuildEngine, "build_py": BuildPy},
    distclass=EngineDistribution,
)
