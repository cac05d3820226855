"""The tools that keep the code's form: `make lint` and the pre-commit hooks check the same
things with the same programs, so a commit that passes its hooks passes `make lint`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _make_target(name: str) -> list[str]:
    """The recipe lines of a Makefile target, as written."""
    text = (ROOT / "Makefile").read_text()
    match = re.search(rf"^{name}:.*\n((?:\t.*\n)+)", text, re.MULTILINE)
    assert match, f"Makefile has no {name} target"
    return [line.strip() for line in match.group(1).splitlines()]


def test_the_pre_commit_configuration_is_valid() -> None:
    done = subprocess.run(
        [str(BIN / "pre-commit"), "validate-config", ".pre-commit-config.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_hooks_run_what_make_lint_runs() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    entries = [hook["entry"] for repo in config["repos"] for hook in repo["hooks"]]
    programs = {" ".join(entry.split()[:3]) for entry in entries}
    lint = _make_target("lint")
    assert "$(BIN)/ruff check ." in lint
    assert "$(BIN)/ruff format --check ." in lint
    assert "$(BIN)/lint-imports --no-cache" in lint
    assert {
        ".venv/bin/ruff check --force-exclude",
        ".venv/bin/ruff format --force-exclude",
        ".venv/bin/lint-imports --no-cache",
    } <= programs


def _makes_python(*arguments: str) -> str:
    """The Python `make` would make the virtualenv from (its database, printed by `make -pn`).
    Nothing of an outer make reaches it: `make test PYTHON=…` passes PYTHON in MAKEFLAGS."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHON", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    }
    done = subprocess.run(
        ["make", "-pn", "--no-print-directory", *arguments, "clean"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return re.search(r"^PYTHON :?= (.*)$", done.stdout, re.MULTILINE).group(1)


def test_the_virtualenv_is_made_from_the_distributions_python_where_it_can_be() -> None:
    """Debian's Python is the optimised build (docs/DECISIONS.md, "Serving and game night")."""
    system = Path("/usr/bin/python3")
    usable = (
        system.exists()
        and subprocess.run(
            [system, "-c", "import sys, ensurepip; sys.exit(sys.version_info < (3, 11))"],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    assert _makes_python() == ("/usr/bin/python3" if usable else "python3")
    assert _makes_python("PYTHON=/opt/other/python3") == "/opt/other/python3"
