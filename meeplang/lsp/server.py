"""The Language Server Protocol over stdio (pygls): diagnostics on open, change and save;
completion; hover; go to definition; document symbols; find references and rename across a game
and its variants; quick fixes that apply a "did you mean". The Meeplang side of each lives in its
own module."""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from urllib.parse import unquote

import yaml
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from meeplang.dsl import folder as files
from meeplang.dsl.errors import MeeplangError, Pos
from meeplang.dsl.loader import file_of

from .. import __version__
from ..api import Problem
from . import occurrences, project, words
from .completion import complete, in_rule_text
from .names import Declaration, builtin, declarations, word_at

_QUOTED = re.compile(r"'([^']+)'")
_KINDS = {"key": types.CompletionItemKind.Property, "value": types.CompletionItemKind.Value,
          "function": types.CompletionItemKind.Function,
          "formula": types.CompletionItemKind.Function, "action": types.CompletionItemKind.Method,
          "trigger": types.CompletionItemKind.Event, "counter": types.CompletionItemKind.Variable,
          "zone": types.CompletionItemKind.Field, "item": types.CompletionItemKind.Class,
          "table": types.CompletionItemKind.Constant, "option": types.CompletionItemKind.Constant,
          "graph": types.CompletionItemKind.Struct, "keyword": types.CompletionItemKind.Keyword}


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose parameters do not fit the protocol (a position of
    -1 or 2**63) gets its error reply: pygls logged it and left the editor waiting for ever."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "method" in data and \
                    isinstance(data.get("id"), (int, str)) and not isinstance(data["id"], bool):
                self._send_response(data["id"], None, exc.to_response_error())
            raise


class MeeplangServer(LanguageServer):
    """Remembers, per game, the files it last put problems on (to clear them once fixed) and
    the last names that could be read (completion goes on while a file does not parse)."""

    def __init__(self):
        super().__init__("meeplang", __version__, protocol_cls=_Protocol)
        self.published: dict[str, set[str]] = {}
        self.names: dict[str, dict[str, Declaration]] = {}
        self.indexes: dict[str, occurrences.Index] = {}  # by game; any edit clears them

    def text(self, uri: str) -> str | None:
        """The text of a document the editor has open; None for any other: a request about a
        document it never opened is answered with nothing (pygls would read the file, and
        reply with a traceback when there is none)."""
        doc = self.workspace.text_documents.get(unquote(uri))
        return None if doc is None else doc.source

    def document(self, uri: str) -> project.Document | None:
        path, text = to_fs_path(uri), self.text(uri)
        if path is None or text is None:
            return None
        return project.document_of(Path(path), text)

    def buffers(self) -> dict[Path, str]:
        return {Path(to_fs_path(uri)): doc.source
                for uri, doc in self.workspace.text_documents.items() if to_fs_path(uri)}

    def check(self, uri: str) -> None:
        self.indexes.clear()  # an edit may move, add or remove any name's occurrences
        document = self.document(uri)
        if document is None:
            return
        buffers = self.buffers()
        loaded = project.load(document, buffers)
        if loaded.source is not None:
            self.names[document.target] = declarations(loaded.source.doc)
        shown = {from_fs_path(str(path)) for path in loaded.problems} | {uri}
        for stale in self.published.get(document.target, set()) - shown:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=stale, diagnostics=[]))
        for target_uri in shown:
            path = Path(to_fs_path(target_uri))
            lines = _lines(buffers.get(path), path)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=target_uri,
                diagnostics=[diagnostic(p, lines) for p in loaded.problems.get(path, [])]))
        self.published[document.target] = shown

    def index(self, uri: str) -> occurrences.Index | None:
        document = self.document(uri)
        if document is None:
            return None
        if document.target not in self.indexes:
            self.indexes[document.target] = occurrences.for_document(document, self.buffers())
        return self.indexes[document.target]

    def declared(self, uri: str) -> dict[str, Declaration]:
        document = self.document(uri)
        if document is None:
            return {}
        if document.target not in self.names:
            self.check(uri)
        return self.names.get(document.target, {})


def _lines(text: str | None, path: Path) -> list[str]:
    """The lines of a file a problem is in, to range its diagnostic: the editor's text, else the
    file read as the loader reads one (a regular file within the size limit: the problem may be
    that it is a FIFO, which would block the server, or a file of gigabytes), else none."""
    if text is None:
        try:
            text = files.read_bytes(path, str(path)).decode("utf-8", "replace")
        except MeeplangError:
            return []
    return text.splitlines()


def diagnostic(problem: Problem, lines: list[str]) -> types.Diagnostic:
    """A problem with the range of what it is about: the quoted name it mentions if it stands
    there, else the word at its column, else the rest of the line."""
    row, col = max(problem.line - 1, 0), max(problem.col - 1, 0)
    text = lines[row] if row < len(lines) else ""
    quoted = [q for q in _QUOTED.findall(problem.message) if text.startswith(q, col)]
    word = word_at(text, col)
    if quoted:
        end = col + len(quoted[0])
    elif word is not None and word[1] == col:
        end = col + len(word[0])
    else:
        end = max(len(text.rstrip()), col + 1)
    severity = (types.DiagnosticSeverity.Error if problem.severity == "error"
                else types.DiagnosticSeverity.Warning)
    message = problem.message + (f"\nhint: {problem.hint}" if problem.hint else "")
    return types.Diagnostic(range=types.Range(types.Position(row, col), types.Position(row, end)),
                            message=message, severity=severity, source="meeplang")


def location(pos: Pos, length: int) -> types.Location:
    start = types.Position(pos.line - 1, pos.col - 1)
    return types.Location(uri=from_fs_path(str(file_of(pos.path))),
                          range=types.Range(start, types.Position(pos.line - 1,
                                                                  pos.col - 1 + length)))


def _range(o: occurrences.Occurrence) -> types.Range:
    return types.Range(types.Position(o.line, o.col),
                       types.Position(o.line, o.col + len(o.name)))


# how each kind of declaration shows in an editor's outline
_SYMBOLS = {"action": types.SymbolKind.Method, "trigger": types.SymbolKind.Event,
            "counter": types.SymbolKind.Variable, "zone": types.SymbolKind.Field,
            "item": types.SymbolKind.Class, "table": types.SymbolKind.Constant,
            "formula": types.SymbolKind.Function, "option": types.SymbolKind.Property,
            "graph": types.SymbolKind.Struct, "phase": types.SymbolKind.Module}
_MEANT = re.compile(r"did you mean '([^']+)'\?")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def document_symbols(text: str, path: Path) -> list[types.DocumentSymbol]:
    """The file's sections (actions, counters, the flow's phases...), each holding the names it
    declares or, in a variant, changes."""
    out = []
    found = occurrences.symbols(text, path)
    for section in dict.fromkeys(o.section for o in found):
        children = []
        for o in (o for o in found if o.section == section):
            kind = occurrences.KINDS.get(section, "phase")
            end = types.Position(*o.end) if o.end > (o.line, o.col) else _range(o).end
            children.append(types.DocumentSymbol(
                name=o.name, kind=_SYMBOLS[kind], range=types.Range(_range(o).start, end),
                selection_range=_range(o), detail=kind if o.role == "declaration" else
                f"{kind}, changed"))
        whole = types.Range(children[0].range.start, max(
            (c.range.end for c in children), key=lambda p: (p.line, p.character)))
        out.append(types.DocumentSymbol(name=section, kind=types.SymbolKind.Namespace,
                                        range=whole, selection_range=children[0].selection_range,
                                        children=children))
    return out


def rename_refusal(index: occurrences.Index, old: str, new: str) -> str | None:
    """Why `old` cannot become `new` (None: it can)."""
    if index.broken:
        return f"{index.broken[0].name} is not valid YAML: fix it before renaming"
    if old not in index.kinds:
        return f"{old!r} is not a name this game declares: only a declared name can be renamed"
    if not _IDENTIFIER.fullmatch(new):
        return f"{new!r} is not a name: a letter or _, then letters, digits or _"
    if new in index.kinds:
        return f"the game already has a {index.kinds[new]} named {new!r}"
    if new in words.keywords() or builtin(new) is not None or new in words.CONSTRUCT:
        return f"{new!r} is a word of the language, not free for a name"
    if new in index.locals:
        at = index.locals[new]
        return (f"{new!r} is already the name of a local value in rule text "
                f"({at.path.name}:{at.line + 1}:{at.col + 1})")
    return None


def make_server() -> MeeplangServer:
    server = MeeplangServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MeeplangServer, params: types.DidOpenTextDocumentParams):
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MeeplangServer, params: types.DidChangeTextDocumentParams):
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MeeplangServer, params: types.DidSaveTextDocumentParams):
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[" ", "(", "[", ","]))
    def completion(ls: MeeplangServer, params: types.CompletionParams):
        document = ls.document(params.text_document.uri)
        if document is None:
            return None
        text = ls.text(params.text_document.uri)
        found = complete(text.splitlines() or [""], params.position.line,
                         params.position.character, _schema(document.schema),
                         ls.declared(params.text_document.uri))
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(label=c.label, kind=_KINDS.get(c.kind),
                                 detail=" ".join(filter(None, (c.kind, c.detail))))
            for c in found])

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: MeeplangServer, params: types.HoverParams):
        name = _name_at(ls, params)
        if name is None:
            return None
        declared = ls.declared(params.text_document.uri).get(name)
        text = declared.describe() if declared else builtin(name)
        if text is None:
            lines = ls.workspace.get_text_document(params.text_document.uri).source.splitlines()
            row, col = params.position.line, params.position.character
            if in_rule_text(lines, row, col):
                text = words.describe(name, lines[row])
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: MeeplangServer, params: types.DefinitionParams):
        name = _name_at(ls, params)
        declared = ls.declared(params.text_document.uri).get(name) if name else None
        if declared is None:
            return None
        return [location(declared.pos, len(declared.name))]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: MeeplangServer, params: types.DocumentSymbolParams):
        document = ls.document(params.text_document.uri)
        if document is None:
            return None
        text = ls.workspace.get_text_document(params.text_document.uri).source
        try:
            return document_symbols(text, document.path)
        except yaml.YAMLError:
            return None  # the diagnostics say why

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: MeeplangServer, params: types.ReferenceParams):
        name = _name_at(ls, params)
        index = ls.index(params.text_document.uri) if name else None
        if index is None or name not in index.kinds:
            return None
        return [types.Location(uri=from_fs_path(str(o.path)), range=_range(o))
                for o in index.of(name)
                if params.context.include_declaration or o.role != "declaration"]

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def rename(ls: MeeplangServer, params: types.RenameParams):
        name = _name_at(ls, params)
        index = ls.index(params.text_document.uri)
        if name is None or index is None:
            raise JsonRpcException("there is no name to rename here",
                                   code=types.LSPErrorCodes.RequestFailed)
        refusal = rename_refusal(index, name, params.new_name)
        if refusal is not None:
            raise JsonRpcException(refusal, code=types.LSPErrorCodes.RequestFailed)
        changes: dict[str, list[types.TextEdit]] = {}
        for o in index.of(name):
            changes.setdefault(from_fs_path(str(o.path)), []).append(
                types.TextEdit(range=_range(o), new_text=params.new_name))
        return types.WorkspaceEdit(changes=changes)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_actions(ls: MeeplangServer, params: types.CodeActionParams):
        lines = ls.workspace.get_text_document(params.text_document.uri).source.splitlines()
        out = []
        for diag in params.context.diagnostics:
            meant = _MEANT.search(diag.message)
            start, end = diag.range.start, diag.range.end
            if diag.source != "meeplang" or meant is None or start.line != end.line or \
                    start.line >= len(lines):
                continue
            if not _IDENTIFIER.fullmatch(lines[start.line][start.character:end.character]):
                continue  # the range is not the one misspelt word
            out.append(types.CodeAction(
                title=f"Change to '{meant.group(1)}'", kind=types.CodeActionKind.QuickFix,
                diagnostics=[diag], is_preferred=True, edit=types.WorkspaceEdit(changes={
                    params.text_document.uri: [types.TextEdit(diag.range, meant.group(1))]})))
        return out

    return server


@functools.cache
def _schema(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _name_at(ls: MeeplangServer, params) -> str | None:
    text = ls.text(params.text_document.uri)
    if text is None:
        return None
    lines = text.splitlines()
    row = params.position.line
    if row >= len(lines):
        return None
    found = word_at(lines[row], params.position.character)
    return found[0] if found else None


def serve() -> None:
    """Speak LSP on stdin/stdout until the editor says exit."""
    make_server().start_io()
