"""`meeplang lsp` end to end: a real server process driven by pytest-lsp's client, on copies of
pig with a variant file and an included file (one server for the module, as an editor keeps one
for many files; each test has its own folder)."""
from __future__ import annotations

import asyncio
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "games" / "pig"
INCLUDED = ("terms:\n  bonus: {en: Bonus, fr: Prime}\n  spare: {en: Spare, fr: Réserve}\n"
            "counters:\n  bonus: {per: player, initial: 0}\n")
VARIANT = ("variant: fast\nextends: pig\nactions:\n  stop:\n    requires: turn_total >= 5\n"
           "    effect: |\n      gain turn_total points\n      add 1 to bonus\n      end turn\n")


@pytest.fixture
def game(tmp_path_factory) -> Path:
    """pig, with its `bonus` counter in an included file, and a variant file beside it."""
    folder = tmp_path_factory.mktemp("lsp") / "pig"
    shutil.copytree(PIG, folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("meeplang: 1\n",
                                                   "meeplang: 1\ninclude: [parts.yaml]\n"))
    (folder / "parts.yaml").write_text(INCLUDED)
    (folder / "variants" / "fast.yaml").write_text(VARIANT)
    return folder


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "meeplang.cli", "lsp"],
    server_env={"MEEPLANG_CACHE": "off"}))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def opened(client: LanguageClient, path: Path, text: str | None = None) -> str:
    """Open a file as an editor does, and wait for the server's diagnostics."""
    doc = uri(path)
    client.diagnostics.pop(doc, None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=doc, language_id="yaml", version=1,
                                             text=path.read_text() if text is None else text)))
    while doc not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return doc


async def changed(client: LanguageClient, path: Path, text: str, version: int = 2) -> None:
    doc = uri(path)
    client.diagnostics.pop(doc, None)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    while doc not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    before = text[:text.index(needle) + offset]
    return types.Position(line=before.count("\n"), character=len(before.rsplit("\n", 1)[-1]))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_mistake_in_rule_text_is_a_diagnostic_on_the_word_while_typing(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    assert list(client.diagnostics[doc]) == []
    typo = text.replace("add die to turn_total", "add die to turn_totl")
    await changed(client, path, typo)  # not saved: the server reads the buffer
    (diag,) = client.diagnostics[doc]
    start = position_of(typo, "turn_totl")
    assert diag.severity == types.DiagnosticSeverity.Error
    assert "unknown counter 'turn_totl'" in diag.message and "did you mean" in diag.message
    assert (diag.range.start, diag.range.end) == (
        start, types.Position(line=start.line, character=start.character + len("turn_totl")))
    await changed(client, path, text, version=3)
    assert list(client.diagnostics[doc]) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_yaml_and_schema_errors_have_their_place(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    bad = text.replace("    requires: points", "    requries: points")
    await changed(client, path, bad)
    (diag,) = client.diagnostics[doc]
    start = position_of(bad, "requries")
    assert "unknown key 'requries'" in diag.message
    assert diag.range.start == start and diag.range.end.character == start.character + 8


@pytest.mark.asyncio(loop_scope="module")
async def test_warnings_and_problems_in_other_files_of_the_game(client, game):
    parts = game / "parts.yaml"
    doc = await opened(client, parts, INCLUDED + "  spare: {}\n")
    bonus, spare = client.diagnostics[doc]  # the base game uses neither (the variant uses bonus)
    assert spare.severity == types.DiagnosticSeverity.Warning
    assert "counter 'spare' is never used" in spare.message
    assert spare.range.start == types.Position(line=5, character=2)
    assert spare.range.end == types.Position(line=5, character=7)
    assert "'bonus' is never used" in bonus.message and bonus.range.start.line == 4
    variant = game / "variants" / "fast.yaml"
    vdoc = await opened(client, variant, VARIANT.replace("add 1 to bonus", "add 1 to bonsu"))
    (diag,) = client.diagnostics[vdoc]
    assert "unknown counter 'bonsu'" in diag.message and diag.range.start.line == 7


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_keys_and_names(client, game):
    variant = game / "variants" / "fast.yaml"
    text = VARIANT + "    \n"  # a new key of action `stop`, after its effect
    doc = await opened(client, variant, text)
    keys = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=types.Position(line=text.count("\n") - 1, character=4)))
    labels = {item.label for item in keys.items}
    assert {"requires", "effect", "choose", "limit"} <= labels and "counters" not in labels
    names = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(text, "end turn")))
    by_label = {item.label: item for item in names.items}
    for name, kind in (("points", types.CompletionItemKind.Variable),  # base game's counter
                       ("bonus", types.CompletionItemKind.Variable),  # the included file's
                       ("roll", types.CompletionItemKind.Method),  # an action
                       ("target", types.CompletionItemKind.Constant),  # an option
                       ("count", types.CompletionItemKind.Function)):  # a built-in function
        assert by_label[name].kind == kind, name
    top = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=types.Position(line=0, character=0)))
    assert {"extends", "actions", "counters", "flow_patches"} <= {i.label for i in top.items}


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_the_declaration_and_its_terms(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(text, "gain turn_total points", offset=len("gain turn_total p"))))
    value = hover.contents.value
    assert "**counter** `points`" in value and "per: player" in value
    assert "en: Points" in value and "fr: Points" in value
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(text, "count([p", offset=2)))
    assert "built-in function" in hover.contents.value and "count(list) -> int" in \
        hover.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_go_to_definition_across_includes_and_into_the_base_game(client, game):
    variant = game / "variants" / "fast.yaml"
    doc = await opened(client, variant)
    for word, file, line in (("bonus", game / "parts.yaml", 4),
                             ("points", game / "game.yaml", None)):
        (found,) = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(VARIANT, word, offset=1)))
        assert found.uri == uri(file)
        target_text = file.read_text().splitlines()
        row = found.range.start.line
        assert line is None or row == line
        assert target_text[row][found.range.start.character:].startswith(f"{word}:")


# ------------------------------------------------------------ hostile files and messages
# Every wait is bounded: a server that blocks fails the test instead of hanging the suite.
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("odd", ["fifo", "sparse"])
async def test_an_odd_included_file_is_a_diagnostic_never_read(client, game, odd):
    """The problem names the included file; ranging its diagnostic read that file whole (a FIFO
    blocked the server for ever, a 3 GB sparse file was read into memory)."""
    parts = game / "parts.yaml"
    parts.unlink()
    if odd == "fifo":
        os.mkfifo(parts)
    else:
        with open(parts, "wb") as f:
            f.truncate(3 * 1024 ** 3)
    client.diagnostics.pop(uri(parts), None)
    await asyncio.wait_for(opened(client, game / "game.yaml"), 30)
    while uri(parts) not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 30)
    (diag,) = client.diagnostics[uri(parts)]
    assert ("not a regular file" if odd == "fifo" else "larger than 2 MB") in diag.message
    assert diag.range.start == types.Position(line=0, character=0)


class RawServer:
    """The server driven by hand, for messages a typed client refuses to send."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "meeplang.cli", "lsp"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL,
                                     env={**os.environ, "MEEPLANG_CACHE": "off"})
        self.buffer, self.last = b"", 0

    def send(self, method: str, params: dict, request: bool = True) -> int | None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.last += 1
            message["id"] = self.last
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return message.get("id")

    def reply(self, msg_id: int, timeout: float = 30) -> dict | None:
        """The reply to request `msg_id`, or None if none comes in `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            size = re.search(rb"Content-Length: (\d+)", head)
            if sep and size and len(rest) >= int(size.group(1)):
                message = json.loads(rest[:int(size.group(1))])
                self.buffer = rest[int(size.group(1)):]
                if message.get("id") == msg_id:
                    return message
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk

    def close(self):
        self.proc.kill()
        self.proc.wait(10)


def test_a_position_outside_the_protocol_gets_an_error_reply(game):
    """Positions are unsigned 32-bit numbers: a request with -1 or 2**63 failed to parse, and
    pygls logged it and sent no reply, so the editor waited for ever."""
    server = RawServer()
    try:
        assert server.reply(server.send("initialize", {"capabilities": {}})) is not None
        server.send("initialized", {}, request=False)
        doc = uri(game / "game.yaml")
        server.send("textDocument/didOpen", {"textDocument": {
            "uri": doc, "languageId": "yaml", "version": 1,
            "text": (game / "game.yaml").read_text()}}, request=False)
        for line in (-1, 2 ** 31, 2 ** 63):
            reply = server.reply(server.send("textDocument/hover", {
                "textDocument": {"uri": doc}, "position": {"line": line, "character": 0}}))
            assert reply is not None, line
            assert reply["error"]["code"] == -32602 and "data" not in reply["error"]
        reply = server.reply(server.send("textDocument/hover", {
            "textDocument": {"uri": doc}, "position": {"line": 2 ** 31 - 1, "character": 0}}))
        assert reply == {"jsonrpc": "2.0", "id": server.last, "result": None}
    finally:
        server.close()


@pytest.mark.asyncio(loop_scope="module")
async def test_requests_on_a_document_never_opened_get_nothing(client, game):
    """pygls reads a document it was not given from the disk: one that is not there was a
    traceback in the error's data."""
    for doc in (uri(game / "nowhere.yaml"), "file:///nonexistent/game.yaml", "untitled:x"):
        where = types.TextDocumentIdentifier(uri=doc)
        at = types.Position(line=0, character=0)
        assert await asyncio.wait_for(client.text_document_hover_async(
            types.HoverParams(text_document=where, position=at)), 30) is None
        assert await asyncio.wait_for(client.text_document_definition_async(
            types.DefinitionParams(text_document=where, position=at)), 30) is None
        assert await asyncio.wait_for(client.text_document_completion_async(
            types.CompletionParams(text_document=where, position=at)), 30) is None


def test_without_pygls_the_command_says_what_to_install(monkeypatch, capsys):
    from meeplang.cli import main

    monkeypatch.delitem(sys.modules, "meeplang.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    assert main(["lsp"]) == 2
    assert "pip install 'meeplang[lsp]'" in capsys.readouterr().err
