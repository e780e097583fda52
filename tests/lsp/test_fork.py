"""A user's fork of a bundled game: the editor's folder holds `games/pig/` (a copy of the
bundled pig, edited). Everything the server says about the fork's files (problems, definitions,
references, renames) is about those files, never the installed copy of the same name; the server
runs in that folder, as an editor starts it."""
from __future__ import annotations

import atexit
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

from .test_lsp import changed, opened, position_of, uri

# The editor's folder. The server's working folder is fixed when its fixture is declared, so the
# folder is made when the module is imported and removed after its tests (`home` below).
HOME = Path(tempfile.mkdtemp(prefix="meeplang-lsp-fork-"))
atexit.register(shutil.rmtree, HOME, True)  # also when this module's tests are not run
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


@pytest.mark.asyncio(loop_scope="module")
async def test_symbols_references_rename_and_fixes_are_in_the_fork(client):
    path = FORK / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    outline = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=doc)))
    assert {c.name for s in outline for c in s.children} >= {"roll", "stop", "points", "play"}
    at_points = position_of(text, "gain turn_total points", len("gain turn_total p"))
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=at_points,
        context=types.ReferenceContext(include_declaration=True)))
    assert len(found) >= 5 and {loc.uri for loc in found} == {uri(path)}
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=at_points,
        new_name="score_points"))
    # the fork's own files (its game and its variant), never the installed pig's
    assert set(edit.changes) == {uri(path)}  # the fork's file (short.yaml has no points)
    assert len(edit.changes[uri(path)]) == len(found)
    typo = text.replace("add die to turn_total", "add die to turn_totl")
    await changed(client, path, typo)
    (diag,) = client.diagnostics[doc]
    (fix,) = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), range=diag.range,
        context=types.CodeActionContext(diagnostics=[diag])))
    assert list(fix.edit.changes) == [doc] and fix.edit.changes[doc][0].new_text == "turn_total"
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc), position=at_points))
    assert "declared at ./games/pig/game.yaml:" in hover.contents.value  # the fork's line
    word = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(typo, "gain turn_total", 1)))
    assert word.contents.value.startswith("**rule word** `gain`")
    typing = text.replace("gain turn_total points", "gain turn_total po")
    await changed(client, path, typing, version=3)
    offered = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(typing, "gain turn_total po", len("gain turn_total po"))))
    assert [item.label for item in offered.items] == ["points"]
