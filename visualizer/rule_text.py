"""The rule text that diagrams and reports show in their boxes: the sentences of `meeplang
explain` in the chosen language (`prose`, the default), or the rule code as the game file writes
it (`rules`). Both give the same four things, so the drawing code does not care which it has."""
from __future__ import annotations

from meeplang.dsl import ast as A
from meeplang.dsl.errors import UsageError

from .labels import Words, code_excerpt, cost_text, expr, wrap

TEXTS = ("prose", "rules")


class RuleCode:
    """Rule text as written: `coins >= 3`, `pay 3 coins`."""

    face = "Courier"  # the font of a block's lines

    def __init__(self, game, words: Words):
        self.w = words

    def expr(self, e) -> str:
        return expr(e)

    def name(self, key: str) -> str:
        """A table's or counter's name, as the rules write it."""
        return key

    def path(self, path: str, entry: bool = True) -> str:
        """A change's path (meeplang.dsl.diff), as it is: `actions.power_plant.limit.times`."""
        return path

    def block(self, block, max_lines: int, width: int) -> list[str]:
        return code_excerpt(block, max_lines, width, self.w)

    def choice(self, param) -> str:
        return f"{self.w.ui('choose')} {A.choice_source(param, expr)}"

    def each(self, param) -> str:
        """A trigger's `each:` as written: `l in lines where ...`."""
        return A.choice_source(param, expr)

    def cost(self, cost) -> str:
        return self.w.field("cost", cost_text(self.w, cost))

    def deck_op(self, op) -> str:
        """A draw or a search in short: `draws 2 from deck, keeps 1; the rest to the bottom`."""
        w = self.w
        if isinstance(op, A.DrawStmt):
            return w.ui("draw", expr(op.count), ("any of " if op.any_of else "") +
                        expr(op.source), expr(op.keep), w.ui(op.rest))
        if op.cond is None:
            return w.ui("search", expr(op.zone), op.name)
        return w.ui("search_where", expr(op.zone), op.name, expr(op.cond))


class RuleProse:
    """Rule text as sentences in the diagram's language: `tes pièces valent au moins 3`."""

    face = None

    def __init__(self, game, words: Words):
        from .prose import Explanation

        self.w = words
        self.doc = Explanation(game, words.lang)
        self.say = self.doc.say

    def expr(self, e) -> str:
        return self.say.grammar.finish(str(self.say.expr(e))) if e is not None else ""

    def name(self, key: str) -> str:
        """A table's or counter's name: its term."""
        return self.w.term(key)

    def path(self, path: str, entry: bool = True) -> str:
        """A change's path in words: `actions › Centrale › limite › fois` (`entry=False`: a
        path inside an entry, `limite › fois`)."""
        from .prose.paths import path_label

        return path_label(self.w.game, path, self.w.lang, entry)

    def block(self, block, max_lines: int, width: int) -> list[str]:
        """The block's sentences wrapped at width (nested ones indented), cut at max_lines
        with a `+N lines` note."""
        lines = []
        for line in self.say.block(block):
            indent = "  " * line.depth
            lines += [indent + part for part in wrap(line.text, max(width - len(indent), 12), 99)]
        if len(lines) == max_lines + 1:  # "+1 line" takes as much room as the line itself
            max_lines += 1
        out = lines[:max_lines]
        if len(lines) > max_lines:
            out.append(self.w.ui("more_lines", len(lines) - max_lines))
        return out

    def choice(self, param) -> str:
        return self.say.sentence(self.say.choice("Param", param))

    def each(self, param) -> str:
        return self.say.grammar.finish(str(self.doc.each(param)))

    def cost(self, cost) -> str:
        return self.say.sentence(self.doc.cost(cost))

    def deck_op(self, op) -> str:
        """A draw or a search as `meeplang explain` says it (a search: its opening sentence)."""
        return self.say.stmt(op, 0)[0].text


def limit_text(text, lim) -> str:
    """An action's use limit in a box or a table: `at most 3 per Development (shared), if ...`,
    with `text` (RuleCode or RuleProse) saying its numbers and condition."""
    w = text.w
    out = w.ui("limit", text.expr(lim.times), w.term(lim.per)) + (
        f" ({w.ui('shared')})" if lim.shared else "")
    return out if lim.cond is None else w.ui("limit_if", out, text.expr(lim.cond))


def rule_text(game, words: Words, text: str):
    if text not in TEXTS:
        raise UsageError(f"unknown --text {text!r}; expected one of {', '.join(TEXTS)}")
    return (RuleProse if text == "prose" else RuleCode)(game, words)
