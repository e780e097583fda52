"""Each layer is found by its folder: the command line (argument parsing, tables, progress bars)
lives in meeplang/ only, and no module reaches into a private helper of another."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE_LAYERS = ("dsl", "interpreter", "visualizer")
COMMAND_LINE = ("argparse", "rich")


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in a source file, relative imports made absolute."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            module = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            out.append((module, [alias.name for alias in node.names]))
    return out


def folder_of(module: str) -> str:
    """The repository folder a module lives in (`meeplang.dsl.x` and `meeplang.dsl.x` are in dsl/)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "meeplang" and parts[1:2] and parts[1] in ENGINE_LAYERS \
        else parts[0]


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", sources(*ENGINE_LAYERS), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_engine_layers_hold_no_command_line(path):
    found = [module for module, _ in imports(path)
             if module.split(".")[0] in COMMAND_LINE or folder_of(module) == "meeplang"
             and module.endswith("cli")]
    assert found == [], f"{path.name} imports {found}: command-line code belongs in meeplang/"


def test_no_module_imports_a_private_helper_of_another_folder_or_command():
    """Shared helpers are public, in the layer that owns them (meeplang/arguments.py for the
    commands): a private name stays in its folder, and a command's privates in its module."""
    found = [(str(path.relative_to(ROOT)), module, name)
             for path in sources("meeplang", *ENGINE_LAYERS, "benchmarks")
             for module, names in imports(path) for name in names
             if name.startswith("_") and not name.startswith("__")
             and (folder_of(module) != path.relative_to(ROOT).parts[0] or module.endswith("cli"))]
    assert found == []
