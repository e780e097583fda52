"""Text that reads as something it is not: warnings (errors with `check --strict`) for
bidirectional controls, words that mix Latin, Greek and Cyrillic letters (`cоins` with a Cyrillic
`о`), and two keys of one mapping that look the same (`coins` and `ｃｏｉｎｓ`, `Coins` and
`Сoins`). A shared game file must read as what it is: to a player, a translator, a reviewer.
"""
from __future__ import annotations

import re
import unicodedata

from .errors import Warning_
from .yamlpos import YList, YMap, YStr

# Characters that reorder the text around them (the "Trojan Source" characters)
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_WORD = re.compile(r"\w+")
_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
# Greek and Cyrillic letters drawn like Latin ones (Unicode's confusables, the common ones)
_LIKE_LATIN = str.maketrans(
    "аеорсухіјѕԁԛԝАВЕКМНОРСТХІЈЅορναιτκυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdqwABEKMHOPCTXIJSopvaitkuxABEZHIKMNOPTYX")


def skeleton(text: str) -> str:
    """What a text looks like: compatibility forms folded (full-width, ligatures), case folded,
    look-alike letters as the Latin ones."""
    return unicodedata.normalize("NFKC", text).translate(_LIKE_LATIN).casefold()


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "").split(" ")[0]
    return name if name in _SCRIPTS else None


def _mixed(text: str) -> str | None:
    """A word of `text` whose letters come from two of Latin, Greek and Cyrillic, if any."""
    if text.isascii():
        return None
    for word in _WORD.findall(text):
        scripts = {s for s in map(_script, word) if s}
        if len(scripts) > 1:
            return word
    return None


def _problem(text: str) -> str | None:
    found = BIDI.search(text)
    if found:
        return (f"{text[:40]!r} holds the bidirectional control U+{ord(found.group()):04X}, "
                "which makes the text read differently from what it is")
    word = _mixed(text)
    if word:
        scripts = sorted({s for s in map(_script, word) if s})
        return (f"{word!r} mixes {' and '.join(s.title() for s in scripts)} letters: it looks "
                f"like {word.translate(_LIKE_LATIN)!r} but is not")
    return None


def text_warnings(doc) -> list[Warning_]:
    """A warning for each text or key of a game's files (a merged document of YMap, YList and
    YStr) that reads as something it is not."""
    out: list[Warning_] = []

    def walk(node) -> None:
        if isinstance(node, YMap):
            seen: dict[str, str] = {}
            for key, value in node.items():
                if isinstance(key, str):
                    pos = node.key_pos.get(key, node.pos)
                    problem = _problem(key)
                    if problem:
                        out.append(Warning_(problem, pos))
                    look = skeleton(key)
                    if look in seen and seen[look] != key:
                        out.append(Warning_(f"{key!r} looks like {seen[look]!r} beside it but is "
                                            "another name", pos))
                    seen.setdefault(look, key)
                walk(value)
        elif isinstance(node, YList):
            for item in node:
                walk(item)
        elif isinstance(node, YStr):
            problem = _problem(node)
            if problem:
                out.append(Warning_(problem, node.pos))

    walk(doc)
    return out
