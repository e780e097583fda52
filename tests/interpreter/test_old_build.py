"""The retired mypyc build (interpreter/buildinfo.py): extension modules an older checkout left
next to the sources would be imported in place of them, so they are found and removed."""
from __future__ import annotations

import importlib.machinery

from meeplang.interpreter import buildinfo


def test_an_old_compiled_build_is_found_and_removed(tmp_path):
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    planted = [tmp_path / f"engine{suffix}", tmp_path / f"_native__mypyc{suffix}"]
    for path in planted:
        path.write_bytes(b"\x7fELF")
    (tmp_path / "engine.py").write_text("# the source stays\n")
    assert sorted(buildinfo.built_files(tmp_path)) == sorted(planted)
    buildinfo.clean(tmp_path)
    assert buildinfo.built_files(tmp_path) == [] and (tmp_path / "engine.py").exists()

