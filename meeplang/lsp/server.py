"""The Language Server Protocol over stdio (pygls): diagnostics on open, change and save;
completion; hover; go to definition. The Meeplang side of each lives in its own module."""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from meeplang.dsl.errors import Pos
from meeplang.dsl.loader import file_of

from .. import __version__
from ..api import Problem
from . import project
from . import words
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


class MeeplangServer(LanguageServer):
    """Remembers, per game, the files it last put problems on (to clear them once fixed) and
    the last names that could be read (completion goes on while a file does not parse)."""

    def __init__(self):
        super().__init__("meeplang", __version__)
        self.published: dict[str, set[str]] = {}
        self.names: dict[str, dict[str, Declaration]] = {}

    def document(self, uri: str) -> project.Document | None:
        path = to_fs_path(uri)
        if path is None:
            return None
        return project.document_of(Path(path), self.workspace.get_text_document(uri).source)

    def buffers(self) -> dict[Path, str]:
        return {Path(to_fs_path(uri)): doc.source
                for uri, doc in self.workspace.text_documents.items() if to_fs_path(uri)}

    def check(self, uri: str) -> None:
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

    def declared(self, uri: str) -> dict[str, Declaration]:
        document = self.document(uri)
        if document is None:
            return {}
        if document.target not in self.names:
            self.check(uri)
        return self.names.get(document.target, {})


def _lines(text: str | None, path: Path) -> list[str]:
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
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
        text = ls.workspace.get_text_document(params.text_document.uri).source
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

    return server


@functools.cache
def _schema(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _name_at(ls: MeeplangServer, params) -> str | None:
    lines = ls.workspace.get_text_document(params.text_document.uri).source.splitlines()
    row = params.position.line
    if row >= len(lines):
        return None
    found = word_at(lines[row], params.position.character)
    return found[0] if found else None


def serve() -> None:
    """Speak LSP on stdin/stdout until the editor says exit."""
    make_server().start_io()
