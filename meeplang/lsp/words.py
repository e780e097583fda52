"""The rule words (`gain`, `move`, `to`, `otherwise`...): what each one says, for hover, and the
ones that begin a statement, for completion. Nothing here is a second description of the language:
a word's meaning is the docstring of the syntax-tree class it builds (meeplang.dsl.ast), and its
forms are the grammar's own alternatives (grammars/meeplang.lark), written as a reader types them.
What is kept here is only which class each word builds."""
from __future__ import annotations

import functools
import re

from meeplang.dsl import ast as A
from meeplang.dsl.grammar import grammar_path

# word -> the construct it builds, or is part of (a word of several: the one it is read in first)
CONSTRUCT = {
    "set": A.SetStmt, "add": A.AddStmt, "subtract": A.AddStmt, "gain": A.GainStmt,
    "lose": A.GainStmt, "pay": A.GainStmt, "gains": A.GainStmt, "loses": A.GainStmt,
    "pays": A.GainStmt, "transfer": A.GainStmt, "let": A.LetStmt, "move": A.MoveStmt,
    "to": A.MoveStmt, "at": A.MoveStmt, "top": A.MoveStmt, "bottom": A.MoveStmt,
    "position": A.MoveStmt, "without": A.MoveStmt, "gravity": A.MoveStmt, "deal": A.DealStmt,
    "from": A.DealStmt, "shuffle": A.ShuffleStmt, "roll": A.RollStmt, "as": A.RollStmt,
    "choose": A.ChooseStmt, "where": A.ChooseStmt, "by": A.ChooseStmt, "subsets": A.ChooseStmt,
    "random": A.RandomChooseStmt, "secretly": A.SecretChooseStmt,
    "chooses": A.SecretChooseStmt, "player": A.SecretChooseStmt, "auction": A.AuctionStmt,
    "among": A.AuctionStmt, "paying": A.AuctionStmt, "beyond": A.AuctionStmt,
    "means": A.AuctionStmt, "ties": A.AuctionStmt, "opener": A.AuctionStmt,
    "must": A.AuctionStmt, "bid": A.AuctionStmt, "place": A.PlaceStmt, "on": A.PlaceStmt,
    "do": A.DoStmt, "may": A.DoStmt, "one": A.DoStmt, "any": A.DoStmt, "of": A.DoStmt,
    "with": A.DoStmt, "end": A.ControlStmt, "turn": A.ControlStmt, "game": A.ControlStmt,
    "pass": A.ControlStmt, "log": A.LogStmt, "peek": A.PeekStmt, "draw": A.DrawStmt,
    "keep": A.DrawStmt, "return": A.DrawStmt, "the": A.DrawStmt, "rest": A.DrawStmt,
    "search": A.SearchStmt, "if": A.IfStmt, "elif": A.IfStmt, "else": A.IfStmt,
    "for": A.ForEachStmt, "each": A.ForEachStmt, "repeat": A.RepeatStmt, "times": A.RepeatStmt,
    "while": A.WhileStmt, "then": A.CondExpr, "otherwise": A.Otherwise, "can": A.CanExpr,
    "and": A.BoolOp, "or": A.BoolOp, "not": A.Not, "in": A.Compare, "true": A.Const,
    "false": A.Const, "none": A.Const,
    # selectors: a name called with `each x in L by KEY`
    "lowest": A.Select, "highest": A.Select, "sorted": A.Select,
}

# How the grammar's parts read in a form (what is not here is shown as the grammar writes it).
_PARTS = {"expr": "E", "sum": "E", "postfix": "E", "or_expr": "E", "DIE": "d6",
          "STRING": '"text"', "TOP_OR_BOTTOM": "top|bottom", "where": "where COND",
          "chooser": "by PLAYER", "placement": "at top|at bottom|at position N",
          "no_gravity": "without gravity", "suite": "BLOCK", "else_clause": "else: BLOCK",
          "elif_clause*": "[elif COND: BLOCK ...]", "do_target": "ACTION", "do_for": "for PLAYER",
          "do_with": "with NAME = E, ...", "do_times": "E times", "do_else": "else STATEMENT",
          "draw_pile": "[any of] PILE", "secret_who": "player|p in PLAYERS",
          "beyond_means": "beyond means", "opener_bids": "opener must bid [if COND]", "_NL": ""}
_COMPOUND = ("if_stmt", "for_stmt", "repeat_stmt", "while_stmt", "search_stmt")


@functools.cache
def _rules() -> dict[str, list[str]]:
    """Every rule of the grammar: name -> its alternatives as written."""
    rules: dict[str, list[str]] = {}
    current = None
    for line in grammar_path().read_text(encoding="utf-8").splitlines():
        text = line.split("//")[0].rstrip()
        head = re.match(r"^\??([a-z_]+)\s*:(.*)$", text)
        if head:
            current = head.group(1)
            rules[current] = [head.group(2)]
        elif current and re.match(r"^\s+\|", text):
            rules[current].append(text.strip()[1:])
        elif not text.startswith(" "):
            current = None
    return rules


def _form(alternative: str) -> str:
    """`"move" expr "to" expr [placement]` -> `move E to E [at top|at bottom|at position N]`."""
    out = []
    for part in re.findall(r'"[^"]*"|\[|\]|[^\s\[\]]+', alternative.split("->")[0]):
        if part in ('"["', '"]"'):  # indexing: `gain E NAME[E]`
            out.append("\0" + part[1])
        else:
            out.append(_PARTS.get(part, part.strip('"')))
    text = " ".join(p for p in out if p)
    for glued, tight in (("[ ", "["), (" ]", "]"), (" ,", ","), (" :", ":"), (" \0", ""),
                         ("\0", "")):
        text = text.replace(glued, tight)
    return text.strip()


@functools.cache
def forms() -> dict[str, list[str]]:
    """The statement forms by the rule word they start with (`gains` for `p gains 3 coins`)."""
    out: dict[str, list[str]] = {}
    alternatives = _rules()["simple_stmt"] + [alt for name in _COMPOUND for alt in _rules()[name]]
    for alternative in alternatives:
        first = re.search(r'"([a-z]+)"', alternative)
        if first:
            out.setdefault(first.group(1), []).append(_form(alternative))
    return out


def statement_words() -> list[str]:
    """The words a statement begins with (not `gains`: `p gains 3 coins` begins with `p`)."""
    return sorted(w for w, fs in forms().items() if any(f.startswith(w + " ") or f == w
                                                         for f in fs))


@functools.cache
def keywords() -> frozenset[str]:
    """Every word the grammar reserves somewhere."""
    text = grammar_path().read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z]+)"', text))


def describe(word: str, line: str = "") -> str | None:
    """What a rule word says: its construct's description and the forms of its statement; a word
    inside a statement (`to` in `move card to hand`) is read as part of the statement its line
    begins with."""
    construct = CONSTRUCT.get(word)
    if construct is None:
        return None
    lead = re.match(r"\s*(?:-\s+)?(?:\w+\s+(?=gains|loses|pays))?([a-z]+)\b", line)
    statement = construct.__name__.endswith("Stmt")  # `in`, `and`, `otherwise`: their own
    if statement and word not in forms() and lead and lead.group(1) in forms():
        construct = CONSTRUCT[lead.group(1)]
    if word == "for" and line and not re.search(r"\bfor\s+each\b", line) and not (
            lead and lead.group(1) == "search"):
        construct = A.Comprehension  # `[p for p in players]`
    said = " ".join(construct.__doc__.split())
    shown = forms()[word] if word in forms() and CONSTRUCT[word] is construct else [
        f for w, fs in forms().items() if CONSTRUCT.get(w) is construct for f in fs]
    text = f"**rule word** `{word}`: {said}"
    if shown:
        text += "\n\n```\n" + "\n".join(dict.fromkeys(shown)) + "\n```"
    return text
