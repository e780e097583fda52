"""Safe YAML reading that keeps the line and column of every node.

Only YAML's plain data types are accepted: object-constructing tags, anchors/aliases (the door to
"billion laughs" bombs), very deep nesting and oversized files are refused with a positioned error.
Nothing in a game file is ever executed.
"""
from __future__ import annotations

import re

import yaml
from yaml.events import AliasEvent

from .errors import LoadError, Pos, remember_source
from .limits import MAX_INT

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 200_000

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
}


class YMap(dict):
    """A mapping that remembers where it, its keys and its values stand."""

    pos: Pos
    key_pos: dict
    value_pos: dict

    def pos_of(self, key) -> Pos:
        return self.value_pos.get(key, self.pos)


class YList(list):
    pos: Pos
    item_pos: list

    def pos_of(self, index: int) -> Pos:
        return self.item_pos[index] if 0 <= index < len(self.item_pos) else self.pos


class YStr(str):
    """A string scalar with the information needed to map a column inside it back to the file."""

    pos: Pos
    style: str | None
    indent: int  # column (0-based) of the block's content, for | and > scalars

    def pos_at(self, line: int, col: int) -> Pos:
        """File position of 1-based (line, col) inside this string's text."""
        if self.style in ("|", ">"):
            if self.style == "|":
                return Pos(self.pos.path, self.pos.line + line, self.indent + col - 1)
            return Pos(self.pos.path, self.pos.line + 1, self.indent)
        if line == 1:
            shift = 1 if self.style in ("'", '"') else 0
            return Pos(self.pos.path, self.pos.line, self.pos.col + shift + col - 1)
        return self.pos


def _pos(path: str, mark) -> Pos:
    return Pos(path, mark.line + 1, mark.column + 1)


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses aliases and deep nesting while composing."""

    depth = 0
    nodes = 0
    path = "<string>"

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise LoadError(
                "YAML anchors and aliases are not allowed in game files (write the value out, or "
                "use include:)",
                _pos(self.path, event.start_mark),
            )
        self.depth += 1
        self.nodes += 1
        if self.depth > MAX_DEPTH:
            raise LoadError(f"YAML nesting deeper than {MAX_DEPTH} levels",
                            _pos(self.path, self.peek_event().start_mark))
        if self.nodes > MAX_NODES:
            raise LoadError(f"YAML file has more than {MAX_NODES} nodes",
                            _pos(self.path, self.peek_event().start_mark))
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def load_yaml_text(text: str, path: str):
    """Parse YAML text into YMap/YList/YStr (and plain ints, floats, bools, None)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise LoadError(f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB", Pos(path, 1, 1))
    remember_source(path, text)
    if _FAST is not None:
        try:
            node, loader = _compose_fast(text, path)
        except yaml.YAMLError:
            pass  # bad YAML: the pure-Python loader below says what is wrong, and where
        else:
            if node is None:
                return YMap_at(Pos(path, 1, 1))
            return _convert(node, path, text.splitlines(), loader)
    return _load_slow(text, path)


_FAST = getattr(yaml, "CSafeLoader", None)


def _compose_fast(text: str, path: str):
    """Build the node tree from libyaml's events with an iterative composer (no recursion, so
    no depth can crash it), refusing aliases, deep nesting and too many nodes on the way."""
    from yaml.events import (AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                             SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

    loader = _FAST(text)
    root, stack, count = None, [], 0
    try:
        while True:
            event = loader.get_event()
            if isinstance(event, StreamEndEvent):
                break
            if isinstance(event, AliasEvent):
                raise LoadError("YAML anchors and aliases are not allowed in game files (write the "
                                "value out, or use include:)", _pos(path, event.start_mark))
            if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
                stack.pop()
                continue
            if isinstance(event, ScalarEvent):
                tag = event.tag
                if tag is None or tag == "!":
                    tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                                       event.style)
            elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                kind = yaml.MappingNode if isinstance(event, MappingStartEvent) else yaml.SequenceNode
                tag = event.tag
                if tag is None or tag == "!":
                    tag = loader.resolve(kind, None, event.implicit)
                node = kind(tag, [], event.start_mark, event.end_mark, event.flow_style)
            else:
                continue  # stream and document boundaries
            count += 1
            if count > MAX_NODES:
                raise LoadError(f"YAML file has more than {MAX_NODES} nodes",
                                _pos(path, event.start_mark))
            if stack:
                _attach(stack[-1], node)
            elif root is None:
                root = node
            if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
                if len(stack) >= MAX_DEPTH:
                    raise LoadError(f"YAML nesting deeper than {MAX_DEPTH} levels",
                                    _pos(path, event.start_mark))
                stack.append([node, None])
    finally:
        loader.dispose()
    return root, loader


def _attach(frame, node) -> None:
    parent, pending_key = frame
    if isinstance(parent, yaml.SequenceNode):
        parent.value.append(node)
    elif pending_key is None:
        frame[1] = node
    else:
        parent.value.append((pending_key, node))
        frame[1] = None


def _load_slow(text: str, path: str):
    """The pure-Python loader: slower, but its errors name the problem precisely."""
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        col = exc.position - (before.rfind("\n") + 1) + 1
        char = chr(exc.character) if isinstance(exc.character, int) else exc.character
        raise LoadError(f"YAML cannot contain the character {char!r} ({exc.reason})",
                        Pos(path, line, col)) from None
    loader.path = path
    try:
        node = loader.get_single_node()
    except LoadError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _pos(path, mark) if mark else Pos(path, 1, 1)
        what = exc.problem or "invalid YAML"
        if exc.context:
            what = f"{exc.context}: {what}" if "while" not in exc.context else f"{what} ({exc.context})"
        raise LoadError(f"YAML syntax: {what}", pos) from None
    except yaml.YAMLError as exc:
        raise LoadError(f"YAML syntax: {exc}", Pos(path, 1, 1)) from None
    finally:
        loader.dispose()
    if node is None:
        return YMap_at(Pos(path, 1, 1))
    lines = text.splitlines()
    return _convert(node, path, lines, loader)


def YMap_at(pos: Pos) -> YMap:
    m = YMap()
    m.pos, m.key_pos, m.value_pos = pos, {}, {}
    return m


def _block_indent(lines: list[str], start_line0: int) -> int:
    """Column (1-based) where a block scalar's content starts."""
    for raw in lines[start_line0 + 1:]:
        if raw.strip():
            return len(raw) - len(raw.lstrip(" ")) + 1
    return 1


_SURROGATE = re.compile("[\ud800-\udfff]")
_BOOL, _STR, _INT = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"


def _convert(node, path: str, lines: list[str], loader: _Loader):
    pos = _pos(path, node.start_mark)
    if node.tag not in _PLAIN_TAGS:
        raise LoadError(f"YAML tag {node.tag!r} is not allowed in game files (plain data only)", pos)
    if isinstance(node, yaml.MappingNode):
        out = YMap_at(pos)
        for key_node, value_node in node.value:
            key = _convert(key_node, path, lines, loader)
            if isinstance(key, (YMap, YList)):
                raise LoadError("a mapping key must be a plain value", _pos(path, key_node.start_mark))
            if isinstance(key, YStr):
                key = str(key)
            if key in out:
                raise LoadError(f"duplicate key {key!r}", _pos(path, key_node.start_mark))
            out[key] = _convert(value_node, path, lines, loader)
            out.key_pos[key] = _pos(path, key_node.start_mark)
            out.value_pos[key] = _pos(path, value_node.start_mark)
        return out
    if isinstance(node, yaml.SequenceNode):
        out = YList(_convert(item, path, lines, loader) for item in node.value)
        out.pos = pos
        out.item_pos = [_pos(path, item.start_mark) for item in node.value]
        return out
    if node.tag == _BOOL and node.value.lower() not in ("true", "false"):
        node.tag = _STR  # YAML 1.1 reads on/off/yes/no as booleans: a field `on:` became True
    if node.tag == _STR or node.tag == "tag:yaml.org,2002:timestamp":
        half = _SURROGATE.search(node.value)
        if half:  # "\uD800" in a double-quoted scalar: no character, and no UTF-8 to write
            raise LoadError(f"the text holds \\u{ord(half.group()):04X}, half of a UTF-16 "
                            "surrogate pair, which is not a character (write the character "
                            "itself, or its \\U0001XXXX escape)", pos)
        s = YStr(node.value)
        s.pos, s.style = pos, node.style
        s.indent = _block_indent(lines, node.start_mark.line) if node.style in ("|", ">") else pos.col
        return s
    if node.tag == _INT and len(node.value.lstrip("+-0_")) > 20:  # not even worth converting
        raise LoadError(f"the number {node.value[:20]}... is beyond the limit of ±{MAX_INT:,} "
                        "(10**18)", pos)
    try:
        value = loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        raise LoadError(f"bad scalar value: {exc}", pos) from None
    if type(value) is int and not -MAX_INT <= value <= MAX_INT:
        raise LoadError(f"the number {value} is beyond the limit of ±{MAX_INT:,} (10**18)", pos)
    return value


def plain(value):
    """Strip positions: YMap/YList/YStr into dict/list/str (for JSON Schema and hashing)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, YStr):
        return str(value)
    return value
