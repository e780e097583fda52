"""Shared helpers for the `meeplang simulate` tests: run the CLI in-process, copy pig."""
from __future__ import annotations

import json
import shutil

import pytest

from meeplang.dsl.loader import games_dir
from meeplang.cli import main

SHORT_VARIANT = "variant: short\nextends: pig\noptions:\n  target: {default: 30, min: 1}\n"


@pytest.fixture
def run_cli(capsys):
    """Run `meeplang ARGS` in this process; returns (exit status, stdout, stderr)."""
    def run(*argv):
        rc = main([str(a) for a in argv])
        out = capsys.readouterr()
        return rc, out.out, out.err
    return run


@pytest.fixture
def simulate_json(run_cli):
    """`meeplang simulate ... --json`, parsed; fails the test on a non-zero exit."""
    def run(*argv):
        rc, out, err = run_cli("simulate", *argv, "--json")
        assert rc == 0, err
        return json.loads(out)
    return run


@pytest.fixture
def pig_copy(tmp_path):
    """A private copy of pig with a `short` variant (target 30 instead of 100)."""
    folder = tmp_path / "pig"
    shutil.copytree(games_dir() / "pig", folder)
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / "short.yaml").write_text(SHORT_VARIANT, encoding="utf-8")
    return folder
