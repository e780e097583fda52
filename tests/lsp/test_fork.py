"""A user's fork of a bundled game: the editor's folder holds `games/pig/` (a copy of the
bundled pig, edited). Everything the server says about the fork's files (problems, definitions,
references, renames) is about those files, never the installed copy of the same name; the server
runs in that folder, as an editor starts it."""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from meeplang.dsl.loader import display_path, file_of, games_dir

from .test_lsp import opened, position_of, uri

# The editor's folder. The server's working folder is fixed when its fixture is declared, so the
# folder is made when the module is imported and removed after its tests (`home` below).
HOME = Path(tempfile.mkdtemp(prefix="meeplang-lsp-fork-"))
FORK = HOME / "games" / "pig"


@attrs.define
class InFolder(ClientServerConfig):
    """pytest-lsp's configuration, starting the server in a given working folder."""

    cwd: Path = HOME

    async def start(self, devtools: str | None = None):
        client = self.client_factory()
        await client.start_io(*self.get_server_command(devtools), env=self.server_env,
                              cwd=str(self.cwd))
        return client


@pytest.fixture(scope="module", autouse=True)
def home():
    shutil.copytree(games_dir() / "pig", FORK)
    yield HOME
    shutil.rmtree(HOME, ignore_errors=True)


@pytest_lsp.fixture(scope="module", config=InFolder(
    server_command=[sys.executable, "-m", "meeplang.cli", "lsp"],
    server_env={"MEEPLANG_CACHE": "off"}))
async def client(lsp_client: LanguageClient, home):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=uri(home)))
    yield
    await lsp_client.shutdown_session()


def test_a_fork_in_the_working_folder_is_named_apart_from_the_bundled_game(monkeypatch, home):
    monkeypatch.chdir(home)
    bundled = games_dir() / "pig" / "game.yaml"
    assert display_path(bundled) == "games/pig/game.yaml"
    assert display_path(FORK / "game.yaml") == "./games/pig/game.yaml"
    assert file_of(display_path(FORK / "game.yaml")) == (FORK / "game.yaml").resolve()
    assert file_of(display_path(bundled)) == bundled.resolve()


@pytest.mark.asyncio(loop_scope="module")
async def test_problems_and_definitions_are_in_the_fork(client):
    path = FORK / "game.yaml"
    text = path.read_text().replace("add die to turn_total", "add die to turn_totl")
    doc = await opened(client, path, text)
    (diag,) = client.diagnostics[doc]  # on the fork's own file, where the typo is
    assert "unknown counter 'turn_totl'" in diag.message
    assert diag.range.start == position_of(text, "turn_totl")
    assert not any(u != doc and d for u, d in client.diagnostics.items())
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(text, "gain turn_total points", offset=len("gain turn_total p"))))
    (where,) = found
    assert where.uri == uri(path)
    assert text.splitlines()[where.range.start.line].strip().startswith("points:")
