"""`meeplang explain`: a game's rules as a document in one language, section by section
(players, options, components, setup, how a game goes, actions, triggers, scoring, end of the
game), each sentence made by `sentences.Sentences` from the Game model; written as plain text,
Markdown or HTML."""
from __future__ import annotations

import html
import re

import attrs

from meeplang.dsl import ast as A
from meeplang.dsl.model import IfStep, LoopStep, PhaseStep, RepeatStep, TurnsStep

from .. import analysis
from .sentences import Line, Sentences

FORMATS = ("text", "md", "html")


@attrs.frozen
class Section:
    title: str
    lines: tuple  # Line, ...


class Explanation:
    """The sections of one game's rules in one language."""

    def __init__(self, game, lang: str):
        self.game = game
        self.say = Sentences(game, lang)

    # ------------------------------------------------------------ helpers
    def _s(self, phrase) -> str:
        return self.say.sentence(phrase)

    def _fill(self, construct, form=None, **fields):
        return self.say.fill(construct, form, **fields)

    def _actions(self, names) -> str:
        return str(self.say.join([self.say.action(n) for n in names]))

    # ------------------------------------------------------------ the document
    def title(self) -> str:
        t = self.game.title or {}
        text = t.get(self.say.lang) or t.get("en") or self.game.name
        return text

    def sections(self) -> list[Section]:
        parts = [self.players(), self.options(), self.components(), self.setup(), self.flow(),
                 self.actions(), self.triggers(), self.scoring(), self.end()]
        return [s for s in parts if s.lines]

    def players(self) -> Section:
        g = self.game
        lines = []
        summary = (g.summary or {}).get(self.say.lang)
        if summary:
            lines.append(Line(0, summary))
        form = "players" if g.min_players != g.max_players else \
            "players_1" if g.min_players == 1 else "players_n"
        lines.append(Line(0, str(self._fill("Game", form, lo=g.min_players, hi=g.max_players))))
        if g.automa:
            name, seats = g.automa
            form = "automa_1" if seats == 1 else "automa"  # never "seat(s)"
            lines.append(Line(0, self._s(self._fill("Game", form, name=self.say.term(name),
                                                     seats=seats))))
        return Section(self.say.word("players"), tuple(lines))

    def options(self) -> Section:
        lines = []
        for o in self.game.options.values():
            if isinstance(o.default, bool):  # a switch: on or off, not a truth value
                value = self._fill("Option", "yes" if o.default else "no")
            elif isinstance(o.default, str):  # an option's text is a code, not a term
                value = self.say.option_value(o.name, o.default)
            else:
                value = self.say.value(o.default)
            phrase = self._fill("Option", "option", name=self.say.term(o.name), value=value)
            if o.min is not None and o.max is not None:
                phrase = self._fill("Option", "range", text=phrase, min=o.min, max=o.max)
            if o.doc.get(self.say.lang):  # what it means, in the reader's language only
                phrase = self._fill("Option", "doc", text=phrase, doc=o.doc[self.say.lang])
            lines.append(Line(0, self._s(phrase)))
        return Section(self.say.word("options"), tuple(lines))

    def components(self) -> Section:
        g = self.game
        lines: list[Line] = []
        for key, things, say in (("counters", g.counters, self.counter), ("zones", g.zones, self.zone),
                                 ("items", g.items, self.item)):
            if things:
                lines.append(Line(0, self.say.word("sub", name=self.say.word(key))))
                lines += [Line(1, self._s(say(x))) for x in things.values()]
        if g.tables:
            lines.append(Line(0, self.say.word("sub", name=self.say.word("tables"))))
            for name, value in g.tables.items():
                lines += self.table(name, value, 1)
        if g.formulas:
            lines.append(Line(0, self.say.word("sub", name=self.say.word("formulas"))))
            for f in g.formulas.values():
                form = "formula" if f.params else "none"
                if self.say.is_condition(f.name):
                    form = "predicate" if f.params else "predicate_none"
                with self.say.scope(*f.params):
                    body = self.say.expr(f.body)
                lines.append(Line(1, self._s(self._fill(
                    "Formula", form, name=self.say.term(f.name), body=body,
                    params=", ".join(f.params)))))
        return Section(self.say.word("components"), tuple(lines))

    def counter(self, c):
        say = self.say
        phrase = self._fill("Counter", "player" if c.per_player else "game",
                            name=say.term(c.name), initial=say.expr(c.initial))
        if c.keys is not None:
            phrase = self._fill("Counter", "family", text=phrase,
                                keys=say.join([say.value(k) for k in c.keys], "and"))
        if c.track is not None:
            phrase = self._fill("Track", "track", name=say.term(c.name))
            if c.track.wrap_to is not None:
                phrase = self._fill("Track", "wrap", text=phrase, wrap=c.track.wrap_to)
        bounds = [("min_max", c.min is not None and c.max is not None), ("min", c.min is not None),
                  ("max", c.max is not None)]
        form = next((f for f, ok in bounds if ok), None)
        if form:
            phrase = self._fill("Counter", form, text=phrase, min=c.min, max=c.max)
            if c.overflow == "clamp":
                phrase = self._fill("Counter", "clamp", text=phrase)
        if c.transfer is not None:
            t = c.transfer
            # a fee written as a number is "a fee of 2"; an expression names the fee itself
            phrase = self._fill("Transfer", "number" if isinstance(t.fee, A.Num) else "expr",
                                text=phrase, name=say.term(c.name, singular=True),
                                fee=say.expr(t.fee),
                                sources=say.join([say.value(k) for k in t.sources], "and"))
        return phrase

    def zone(self, z):
        say = self.say
        name = say.term(z.name)
        phrase = self._fill("Zone", "player" if z.per_player else "game", name=name)
        if z.visibility in ("hidden", "owner"):
            form = z.visibility
            if "pl" in name.notes and form + "_pl" in say.templates["Zone"]:
                form += "_pl"  # `visibles`: agrees with a plural term
            phrase = self._fill("Zone", form, text=phrase)
        if z.grid is not None:
            phrase = self._fill("Zone", "grid", text=phrase, rows=z.grid[0], columns=z.grid[1])
        elif z.capacity is not None:
            phrase = self._fill("Zone", "capacity", text=phrase, capacity=say.expr(z.capacity))
        if z.keys is not None:
            phrase = self._fill("Zone", "family", text=phrase,
                                keys=say.join([say.value(k) for k in z.keys], "and"))
        if z.refill_from:
            phrase = self._fill("Zone", "refill", text=phrase, source=say.term(z.refill_from))
        if z.recycle:
            phrase = self._fill("Zone", "recycle", text=phrase, source=say.term(z.recycle))
        return phrase

    def item(self, k):
        say = self.say
        zone = say.term(k.zone) if k.zone else say.plain("")
        if k.source_table:
            phrase = self._fill("ItemKind", "table" if k.zone else "table_field",
                                name=say.term(k.name),
                                table=say.term(k.source_table), zone=zone)
        else:
            n = k.count.value if isinstance(k.count, A.Num) else None
            form = ("count" if k.zone else "nowhere") + ("" if n is None else "_n")
            phrase = self._fill("ItemKind", form, count=say.expr(k.count), zone=zone,
                                name=say.counted(k.name, 2 if n is None else n))
        return self._fill("ItemKind", "per_player", text=phrase) if k.per_player else phrase

    def table(self, name: str, value, depth: int) -> list[Line]:
        """A table's values (rule text said as sentences); a table of records only by its
        size: it is data, like the cards of a deck."""
        say = self.say
        head = say.term(name)
        if isinstance(value, dict):
            rows = [(format(say.value(k), "cap"), v) for k, v in value.items()]
        elif isinstance(value, list) and not any(isinstance(v, dict) for v in value):
            return [Line(depth, say.word("table_row", key=format(head, "cap"),
                                         value=say.join([say.value(v) for v in value], "and")
                                         if value else say.fill("ListExpr", "empty")))]
        elif isinstance(value, list):
            return [Line(depth, say.word("table_row", key=format(head, "cap"),
                                         value=say.word("records", n=len(value))))]
        else:
            return [Line(depth, say.word("table_row", key=format(head, "cap"),
                                         value=say.value(value)))]
        lines = [Line(depth, say.word("sub", name=format(head, "cap")))]
        for key, v in rows:
            rule = self.game.rule_texts.get(v) if isinstance(v, str) else None
            if rule is not None:
                inner = say.block(rule.block, depth + 2)
                if len(inner) == 1:
                    text = inner[0].text
                    lines.append(Line(depth + 1, say.word("table_row", key=key,
                                                          value=text[:1].lower() + text[1:])))
                else:
                    lines.append(Line(depth + 1, say.word("sub", name=key)))
                    lines += inner
            elif isinstance(v, (dict, list)):
                lines += self.table_values(key, v, depth + 1)
            else:
                lines.append(Line(depth + 1, say.word("table_row", key=key, value=say.value(v))))
        return lines

    def table_values(self, key, v, depth: int) -> list[Line]:
        say = self.say
        if isinstance(v, list):
            return [Line(depth, say.word("table_row", key=key,
                                         value=say.join([say.value(x) for x in v], "and")))]
        text = say.join([say.plain(f"{say.value(k)} → {say.value(x)}") for k, x in v.items()],
                        "sep")
        return [Line(depth, say.word("table_row", key=key, value=text))]

    def setup(self) -> Section:
        steps = self.game.setup.stmts
        lines = [Line(0, self.say.word("setup_first" if steps else "setup_items"))] \
            if self.game.items else []
        if steps:
            lines += self.say.block(self.game.setup, 1 if lines else 0)
        return Section(self.say.word("setup"), tuple(lines))

    # ------------------------------------------------------------ flow
    def flow(self) -> Section:
        lines: list[Line] = []
        for step in self.game.flow:
            lines += self.step(step, 0)
        return Section(self.say.word("flow"), tuple(lines))

    def step(self, step, depth: int) -> list[Line]:
        say = self.say
        match step:
            case PhaseStep():
                lines = [Line(depth, self._s(self._fill("PhaseStep", "phase",
                                                        name=say.term(step.name))))]
                if step.free_actions:
                    form = "free" if step.free_at == "any_time" else "between"
                    form += "" if step.free_if is None else "_if"
                    lines.append(Line(depth + 1, self._s(self._fill(
                        "PhaseStep", form, actions=self._actions(step.free_actions),
                        cond=say.condition(step.free_if)))))
                return lines + self.steps(step.steps, depth + 1)
            case RepeatStep():
                head = self._fill("RepeatStep", "as" if step.var else "repeat",
                                  count=say.expr(step.count), var=say.name(step.var or ""))
                return [Line(depth, self._s(head))] + self.steps(step.steps, depth + 1)
            case LoopStep():
                head = self._fill("LoopStep", "until" if step.until else "while",
                                  cond=say.expr(step.cond))
                return [Line(depth, self._s(head))] + self.steps(step.steps, depth + 1)
            case IfStep():
                head = self._fill("IfStep", "if", cond=say.condition(step.cond))
                lines = [Line(depth, self._s(head))]
                lines += self.steps(step.steps, depth + 1)
                if step.other:
                    lines += [Line(depth, self._s(self._fill("IfStep", "else")))]
                    lines += self.steps(step.other, depth + 1)
                return lines
            case TurnsStep():
                return self.turns(step, depth)
        return say.block(step.block, depth)

    def steps(self, steps, depth: int) -> list[Line]:
        return [line for s in steps for line in self.step(s, depth)]

    def turns(self, t, depth: int) -> list[Line]:
        say = self.say
        if t.order_list is not None:
            order = self._fill("TurnsStep", "list", order=say.expr(t.order_list))
        else:
            order = self._fill("TurnsStep", t.order)
        round_end = t.until == "never" and t.until_round is not None  # rounds until a condition
        until = self._fill("TurnsStep", "round_end", cond=say.expr(t.until_round)) if round_end \
            else self._fill("TurnsStep", t.until, cond=say.expr(t.until_cond))
        first = say.expr(t.first)
        if t.first is not None and isinstance(t.first, A.Num):
            first = self._fill("TurnsStep", "seat", n=t.first.value + 1)
        lines = [self._s(self._fill("TurnsStep", "turns", order=order, first=first, until=until))]
        if t.until_round is not None and not round_end:
            lines[0] = lines[0][:-1] + str(self._fill("TurnsStep", "until_round",
                                                       cond=say.expr(t.until_round))) + "."
        if t.per_turn is not None:
            lines.append(self._s(self._fill("TurnsStep", "per_turn", count=say.expr(t.per_turn),
                                            actions=self._actions(t.actions))))
        else:
            lines.append(self._s(self._fill("TurnsStep", "actions",
                                            actions=self._actions(t.actions))))
        if t.free_actions:
            form = "free" if t.free_at == "any_time" else "between"
            lines.append(self._s(self._fill("TurnsStep", form,
                                            actions=self._actions(t.free_actions))))
        for flag in ("free_after_last", "free_turn"):
            if getattr(t, flag):
                lines.append(self._s(self._fill("TurnsStep", flag)))
        if t.automa_actions:
            lines.append(self._s(self._fill("TurnsStep", "automa",
                                            actions=self._actions(t.automa_actions))))
        return [Line(depth, text) for text in lines]

    # ------------------------------------------------------------ actions and triggers
    def offered(self) -> tuple[set, set]:
        """The actions offered on turns, and the free ones (turns or phases)."""
        main, free = set(), set()
        for s in analysis.all_steps(self.game.flow):
            if isinstance(s, TurnsStep):
                main |= set(s.actions) | set(s.automa_actions)
                free |= set(s.free_actions)
            elif isinstance(s, PhaseStep):
                free |= set(s.free_actions)
        return main, free

    def actions(self) -> Section:
        say = self.say
        main, free = self.offered()
        lines: list[Line] = []
        for a in self.game.actions.values():
            with say.aliased(say.rule_aliases([a.param], [a.effect])):
                lines += self.action(a, main, free)
        return Section(say.word("actions"), tuple(lines))

    def action(self, a, main: set, free: set) -> list[Line]:
        """An action's lines: its heading, choice, condition, price, limits and effect."""
        say, lines = self.say, []
        form = "main" if a.name in main else "free" if a.name in free else "rules"
        head = self._fill("Action", form, name=say.term(a.name))
        if a.takes:
            head = self._fill("Action", "takes", text=head,
                              args=say.join([say.name(n) for n in a.takes], "sep"))
        lines.append(Line(0, str(head)))
        if a.param is not None:
            lines.append(Line(1, self._s(self._fill(
                "Action", "choice", text=say.choice("Param", a.param)))))
        if a.requires is not None:
            lines.append(Line(1, self._s(self._fill("Action", "requires",
                                                    cond=say.condition(a.requires)))))
        if a.cost is not None:
            lines.append(Line(1, self._s(self.cost(a.cost))))
        for lim in a.limits:
            lines.append(Line(1, self._s(self.limit(lim))))
        with say.passing(self.passed(a.name)):
            lines += say.block(a.effect, 1)
        return lines

    def passed(self, action: str):
        """What an action's `pass` leaves: ("round", its term) when the one turns step that
        offers it is in the phase that opens each round (New Eden FR l.162: « pendant cette
        manche »), ("phase", its term) when it is in another phase, else None (the step)."""
        offering = [p for p in _turns_phases(self.game.flow, None) if action in p[0].actions]
        if len(offering) != 1 or offering[0][1] is None:
            return None  # turns in several places, or in no phase: this step's
        phase = offering[0][1]
        passes = _pass_of(self.game.flow, phase)
        if passes is not None and passes in (self.game.terms or {}):
            return ("round", self.say.term(passes))
        return ("phase", self.say.term(phase))

    def per(self, per: str):
        """A limit's period: the turn, the game, or a phase, named as the flow names it; a phase
        that opens each pass of a repeat that names its passes (`as: round`), and is nowhere
        else, counts from one pass to the next: said as the pass (New Eden FR l.418 « par
        manche »)."""
        if per in ("turn", "game"):
            return self._fill("Limit", per)
        passes = _pass_of(self.game.flow, per)
        if passes is not None and passes in (self.game.terms or {}):
            return self._fill("Limit", "pass", name=self.say.term(passes))
        return self._fill("Limit", "phase", name=self.say.term(per))

    def times_per(self, times, per: str):
        """`at most 2 times per round`, `at most once per turn`."""
        once = isinstance(times, A.Num) and times.value == 1
        return self._fill("Limit", "once" if once else "limit", times=self.say.expr(times),
                          per=self.per(per))

    def limit(self, lim):
        phrase = self.times_per(lim.times, lim.per)
        if lim.shared:
            phrase = self._fill("Limit", "shared", text=phrase)
        if lim.cond is not None:
            phrase = self._fill("Limit", "if", text=phrase, cond=self.say.condition(lim.cond))
        return phrase

    def cost(self, cost):
        say = self.say
        parts = []
        for p in cost.parts:
            part = self._fill("CostPart", "part", amount=say.expr(p.amount), name=say.term(p.name))
            if p.to is not None:
                part = self._fill("CostPart", "to", text=part, to=say.expr(p.to))
            parts.append(part)
        phrase = self._fill("Cost", "cost", parts=say.join(parts, "sep"),
                            source=say.expr(cost.source))
        for part, amount in cost.discounts:
            phrase = self._fill("Cost", "discount", text=phrase, amount=say.expr(amount),
                                part=say.term(part))
        return phrase

    def each(self, param):
        """A trigger's `each:`: `l in the lines where ...`."""
        return self._fill("Param", "each_where" if param.cond is not None else "each",
                          name=self.say.name(param.name), source=self.say.expr(param.source),
                          cond=self.say.expr(param.cond))

    def triggers(self) -> Section:
        say = self.say
        lines: list[Line] = []
        for t in self.game.triggers:
            with say.aliased(say.rule_aliases([t.each], [t.effect])):
                lines += self.trigger(t)
        return Section(say.word("triggers"), tuple(lines))

    def trigger(self, t) -> list[Line]:
        """A trigger's lines: when it fires (its heading), then its effect."""
        say, lines = self.say, []
        event = t.event
        if event in ("before_action", "after_action") and t.target is None:
            event = event.split("_")[0] + "_any"
        target = say.action(t.target) if event.endswith("_action") else \
            say.term(t.target) if t.target else say.plain("")
        when = self._fill("Trigger", event, target=target, cond=say.condition(t.cond))
        if t.each is not None:
            when = self._fill("Trigger", "each", text=when, each=self.each(t.each))
        if t.cond is not None and event != "as_soon_as":
            when = self._fill("Trigger", "if", text=when, cond=say.condition(t.cond))
        if t.once:
            when = self._fill("Trigger", "once", text=when)
        if t.immediate:
            when = self._fill("Trigger", "immediate", text=when)
        if t.limit is not None:
            when = self._fill("Trigger", "limit", text=when,
                              limit=self.times_per(t.limit, t.limit_per))
        lines.append(Line(0, self._s(self._fill("Trigger", "heading", name=say.term(t.name),
                                                when=when))))
        lines += say.block(t.effect, 1)
        return lines

    def scoring(self) -> Section:
        say, s = self.say, self.game.scoring
        lines = [Line(0, self._s(self._fill("Scoring", "score", score=say.expr(s.score))))]
        if s.winners is not None:
            lines.append(Line(0, self._s(self._fill("Scoring", "winners",
                                                    winners=say.expr(s.winners)))))
        else:
            lines.append(Line(0, self._s(self._fill("Scoring", "best"))))
        if s.tie_break:
            keys = [self._fill("Scoring", "lowest", key=say.expr(k.operand))
                    if isinstance(k, A.Neg) else
                    self._fill("Scoring", "highest", key=say.expr(k)) for k in s.tie_break]
            lines.append(Line(0, self._s(self._fill("Scoring", "tie_break",
                                                    keys=say.join(keys, "then")))))
        if s.ranks:
            lines.append(Line(0, self._s(self._fill("Scoring", "ranks",
                                                    ranks=say.join(self._ranks(s.ranks))))))
        return Section(say.word("scoring"), tuple(lines))

    def _ranks(self, ranks) -> list:
        """`“Beginner” for 0 to 16`, ..., `“Expert” for 21 or more`: each title with its scores."""
        out = []
        for i, (low, term) in enumerate(ranks):
            title = format(self.say.term(term), "quote")
            if i + 1 < len(ranks):
                out.append(self._fill("Scoring", "rank_span", low=low, high=ranks[i + 1][0] - 1,
                                      title=title))
            else:
                out.append(self._fill("Scoring", "rank_from", low=low, title=title))
        return out

    def end(self) -> Section:
        g, say = self.game, self.say
        rules = [a.name for a in g.actions.values() if analysis.ends_game(a.effect)]
        rules += [t.name for t in g.triggers if analysis.ends_game(t.effect)]
        names = say.join([say.plain(format(say.term(n), "quote")) for n in rules])
        if analysis.seq_never_ends(g.flow):
            return Section(say.word("end"), (Line(0, say.word("end_never", rules=names)),))
        lines = [Line(0, say.word("end_flow"))]
        last = _last_step(g.flow)
        if isinstance(last, TurnsStep) and last.until_round is not None:
            lines.append(Line(0, say.word("end_round", cond=say.expr(last.until_round))))
        elif isinstance(last, TurnsStep) and last.until == "condition":
            lines.append(Line(0, say.word("end_turn", cond=say.expr(last.until_cond))))
        elif isinstance(last, LoopStep):
            lines.append(Line(0, say.word("end_until" if last.until else "end_while",
                                          cond=say.condition(last.cond))))
        if rules:
            lines.append(Line(0, say.word("end_rules", rules=names)))
        return Section(say.word("end"), tuple(lines))


def _last_step(steps):
    """The step whose end ends the flow: the last one, inside the last phase if it is one."""
    while steps:
        last = steps[-1]
        if not isinstance(last, PhaseStep):
            return last
        steps = last.steps
    return None


# ---------------------------------------------------------------- writing it out
def explain(game, lang: str, fmt: str = "text") -> str:
    """The rules of a game as text, Markdown or a self-contained HTML page."""
    if fmt not in FORMATS:
        from meeplang.dsl.errors import UsageError

        raise UsageError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    doc = Explanation(game, lang)
    title, sections = doc.title(), doc.sections()
    return {"text": to_text, "md": to_markdown, "html": to_html}[fmt](title, sections, lang)


_LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """A text (a title, a term) kept on its line of the document: a line break in it is shown
    as its escape, so it cannot start a line of its own (a heading, an item, an `ok:`)."""
    return _LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def to_text(title: str, sections, lang: str) -> str:
    title = one_line(title)
    out = [title, "=" * len(title)]
    for s in sections:
        out += ["", one_line(s.title), "-" * len(one_line(s.title))]
        out += ["  " * line.depth + "- " + one_line(line.text) for line in s.lines]
    return "\n".join(out) + "\n"


def to_markdown(title: str, sections, lang: str) -> str:
    def e(text: str) -> str:
        return markdown_escape(one_line(text))

    out = [f"# {e(title)}"]
    for s in sections:
        out += ["", f"## {e(s.title)}", ""]
        out += ["  " * line.depth + "- " + e(line.text) for line in s.lines]
    return "\n".join(out) + "\n"


def markdown_escape(text: str) -> str:
    """Text said as itself in Markdown: a term or a rule text with `*`, `_`, `[`, `<`... (or
    opening like `1.` or `#`) is not read as emphasis, a link, HTML or a list."""
    text = re.sub(r"([\\`*_\[\]<>|~#])", r"\\\1", text)
    return re.sub(r"^(\d+)([.)])", r"\1\\\2", text)


def to_html(title: str, sections, lang: str) -> str:
    e = html.escape
    out = [f'<!DOCTYPE html>\n<html lang="{lang}">\n<head><meta charset="utf-8">'
           f"<title>{e(title)}</title></head>\n<body>\n<h1>{e(title)}</h1>"]
    for s in sections:
        out.append(f"<h2>{e(s.title)}</h2>")
        out.append(html_list(s.lines))
    out.append("</body>\n</html>")
    return "\n".join(out) + "\n"


def html_list(lines) -> str:
    """Nested <ul> lists from lines with depths."""
    out, depth = [], -1
    for line in lines:
        while depth < line.depth:
            out.append("<ul>")
            depth += 1
        while depth > line.depth:
            out.append("</li></ul>")
            depth -= 1
        if out and out[-1] != "<ul>":
            out.append("</li>")
        out.append(f"<li>{html.escape(line.text)}")
    while depth >= 0:
        out.append("</li></ul>")
        depth -= 1
    return "\n".join(out)


def _pass_of(flow, phase: str) -> str | None:
    """The `as:` name of the repeat whose every pass opens with `phase`, if the phase is
    nowhere else in the flow."""
    where = []

    def walk(steps, parent):
        for i, step in enumerate(steps):
            if isinstance(step, PhaseStep) and step.name == phase:
                where.append((parent, i))
            if isinstance(step, RepeatStep):
                walk(step.steps, step)
            else:
                walk(getattr(step, "steps", ()) or (), None)
                walk(getattr(step, "other", ()) or (), None)

    walk(flow, None)
    if len(where) == 1 and isinstance(where[0][0], RepeatStep) and where[0][1] == 0:
        return where[0][0].var
    return None


def _turns_phases(steps, phase: str | None) -> list:
    """(turns step, the name of the phase it is in, or None) for every turns step."""
    out = []
    for step in steps:
        if isinstance(step, TurnsStep):
            out.append((step, phase))
        inner = step.name if isinstance(step, PhaseStep) else phase
        out += _turns_phases(getattr(step, "steps", ()) or (), inner)
        out += _turns_phases(getattr(step, "other", ()) or (), inner)
    return out
