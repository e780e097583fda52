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


async def _labels(client: LanguageClient, doc: str, text: str, needle: str) -> set[str]:
    """What completion offers with the cursor right after `needle`."""
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(text, needle, offset=len(needle))))
    return {item.label for item in found.items}


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_is_cut_to_the_word_typed_and_fits_the_place(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    typing = text.replace("gain turn_total points", "gain turn_total po")
    await changed(client, path, typing)
    assert await _labels(client, doc, typing, "gain turn_total po") == {"points"}
    typing = text.replace("gain turn_total points", "gain pl")
    await changed(client, path, typing, version=3)
    assert await _labels(client, doc, typing, "gain pl") == {"player_count", "players",
                                                              "players_from"}
    typing = text.replace("      end turn\n\ntriggers", "      do \n\ntriggers")
    await changed(client, path, typing, version=4)
    assert await _labels(client, doc, typing, "      do ") == {"roll", "stop"}


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_rule_words(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)

    async def hover(needle: str, offset: int = 0):
        found = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, needle, offset)))
        return found.contents.value if found else None

    gain = await hover("gain turn_total points", 1)
    assert gain.startswith("**rule word** `gain`: ") and "gain E NAME" in gain
    to = await hover("set turn_total to 0", len("set turn_total t"))
    assert "`set X to E`" in to and "set E to E" in to
    assert "`end game`" in await hover("end game", 1)
    comprehension = await hover("count([p for p in players if p.points >= target])",
                                len("count([p f"))
    assert "`[elem for var in source if cond]`" in comprehension
    assert await hover("effect: |", 1) is None  # a key is not a rule word


def _where(found) -> list[tuple[str, int, int]]:
    return sorted((Path(to_fs(loc.uri)).name, loc.range.start.line, loc.range.start.character)
                  for loc in found)


def to_fs(file_uri: str) -> str:
    from pygls.uris import to_fs_path

    return to_fs_path(file_uri)


def apply(text: str, edits) -> str:
    """A file's text with an editor's edits applied (each on one line, none overlapping)."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        row = lines[start.line]
        lines[start.line] = row[:start.character] + edit.new_text + row[end.character:]
    return "\n".join(lines)


def places(text: str, word: str) -> list[tuple[int, int]]:
    """(line, column) of every whole `word` in `text`."""
    import re

    out = []
    for match in re.finditer(rf"(?<![\w.]){word}(?!\w)", text):
        before = text[:match.start()]
        out.append((before.count("\n"), len(before.rsplit("\n", 1)[-1])))
    return out


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols_outline_each_file(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=doc)))
    outline = {s.name: {(c.name, c.kind) for c in s.children} for s in found}
    assert outline == {
        "options": {("target", types.SymbolKind.Property), ("horizon", types.SymbolKind.Property)},
        "counters": {("points", types.SymbolKind.Variable),
                     ("turn_total", types.SymbolKind.Variable),
                     ("moves", types.SymbolKind.Variable)},
        "flow": {("play", types.SymbolKind.Module)},
        "actions": {("roll", types.SymbolKind.Method), ("stop", types.SymbolKind.Method)},
        "triggers": {("count_moves", types.SymbolKind.Event)}}
    actions = next(s for s in found if s.name == "actions")
    roll, stop = actions.children
    assert roll.selection_range.start == position_of(text, "  roll:\n", 2)
    # an entry spans its whole value, up to the next one
    end, last = roll.range.end, position_of(text, "add die to turn_total")
    assert (last.line, last.character) < (end.line, end.character) <= (
        stop.range.start.line, stop.range.start.character)
    vdoc = await opened(client, game / "variants" / "fast.yaml")
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=vdoc)))
    (actions,) = found
    assert [(c.name, c.detail) for c in actions.children] == [("stop", "action, changed")]


@pytest.mark.asyncio(loop_scope="module")
async def test_references_across_the_game_its_includes_and_variants(client, game):
    variant = game / "variants" / "fast.yaml"
    doc = await opened(client, variant)
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(VARIANT, "bonus", 1),
        context=types.ReferenceContext(include_declaration=True)))
    # its term and its declaration in the included file, its use in the variant
    assert _where(found) == [("fast.yaml", 7, 15), ("parts.yaml", 1, 2), ("parts.yaml", 4, 2)]
    text = (game / "game.yaml").read_text()
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(VARIANT, "turn_total", 1),
        context=types.ReferenceContext(include_declaration=False)))
    expected = [("game.yaml", *p) for p in places(text, "turn_total")]  # with its term
    expected += [("fast.yaml", *p) for p in places(VARIANT, "turn_total")]
    declared = position_of(text, "  turn_total: {initial", 2)
    expected.remove(("game.yaml", declared.line, declared.character))
    assert _where(found) == sorted(expected)
    roll = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(VARIANT, "end turn", 1),  # a rule word: nothing to list
        context=types.ReferenceContext(include_declaration=True)))
    assert roll is None


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_edits_every_file_of_the_game_and_its_variants(client, game):
    from meeplang.dsl.resolve import load_game

    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=position_of(text, "add die to turn_total", len("add die to t")),
        new_name="run"))
    files = {Path(to_fs(u)).name: e for u, e in edit.changes.items()}
    assert set(files) == {"game.yaml", "fast.yaml"}
    renamed = apply(text, files["game.yaml"])
    assert "turn_total" not in renamed.replace("Turn total", "")
    assert "  run: {en: Turn total, fr: Total du tour}" in renamed  # the term's words stay
    assert "gain run points" in renamed and "roll d6 as die" in renamed
    path.write_text(renamed)
    (game / "variants" / "fast.yaml").write_text(apply(VARIANT, files["fast.yaml"]))
    assert "requires: run >= 5" in (game / "variants" / "fast.yaml").read_text()
    base, fast = load_game(str(game)), load_game(str(game), "fast")
    assert set(base.counters) == {"points", "run", "moves", "bonus"} and "run" in fast.counters


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_refuses_a_new_name_that_does_not_fit(client, game):
    from pygls.exceptions import JsonRpcException

    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    at_counter = position_of(text, "add die to turn_total", len("add die to t"))
    for new, said in (("2x", "'2x' is not a name"), ("turn total", "is not a name"),
                      ("points", "already has a counter named 'points'"),
                      ("roll", "already has a action named 'roll'"),
                      ("shuffle", "'shuffle' is a word of the language"),
                      ("gain", "'gain' is a word of the language"),
                      ("count", "'count' is a word of the language"),
                      ("die", "'die' is already the name of a local value")):
        with pytest.raises(JsonRpcException, match=said):
            await client.text_document_rename_async(types.RenameParams(
                text_document=types.TextDocumentIdentifier(uri=doc), position=at_counter,
                new_name=new))
    with pytest.raises(JsonRpcException, match="'die' is not a name this game declares"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            position=position_of(text, "add die", len("add d")), new_name="dice"))
    assert path.read_text() == text  # refused: nothing changed


@pytest.mark.asyncio(loop_scope="module")
async def test_a_quick_fix_applies_did_you_mean(client, game):
    path = game / "game.yaml"
    text = path.read_text()
    doc = await opened(client, path)
    typo = text.replace("add die to turn_total", "add die to turn_totl")
    await changed(client, path, typo)
    diagnostics = client.diagnostics[doc]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), range=diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=list(diagnostics))))
    (fix,) = actions
    assert fix.title == "Change to 'turn_total'" and fix.kind == types.CodeActionKind.QuickFix
    assert apply(typo, fix.edit.changes[doc]) == text
    await changed(client, path, text, version=3)
    assert list(client.diagnostics[doc]) == []
    none = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc), range=diagnostics[0].range,
        context=types.CodeActionContext(diagnostics=[])))
    assert not none
