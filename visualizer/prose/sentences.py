"""Rule text as sentences: each construct of an expression or a statement block is said with its
template in the chosen language (`en.py`, `fr.py`), its numbers, names and terms taken from the
Game model, so a variant's sentences say what the variant changed.

A construct that has no template (one added to the language after its templates were written)
is shown as its rule source rather than stopping the explanation; the template test fails for it.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

import attrs

from meeplang.dsl import ast as A
from meeplang.dsl.builtins import VALUES

from . import en, fr
from .grammar import GRAMMARS, Phrase

TEMPLATES = {"en": en.TEMPLATES, "fr": fr.TEMPLATES}
WORDS = {"en": en.WORDS, "fr": fr.WORDS}

# a negated comparison is said as the opposite comparison
_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in",
             "not in": "in"}
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 2}
# the form of a built-in's template a call takes by its name and number of arguments
# (`max(list)` is `max_list`, `max(a, b)` is `max`), and the form when its last argument is a
# written number (`top(deck, 3)`: the top 3 of the deck)
_ARITY_FORMS = {("top", 2): "top_expr", ("bottom", 2): "bottom_expr", ("uses", 2): "uses_in",
                ("max", 1): "max_list", ("min", 1): "min_list"}
_NUMBER_FORMS = {"top_expr": "top_n", "bottom_expr": "bottom_n"}


def yes_no_fields(game) -> set[str]:
    """The item fields that are yes or no: given as true/false (`face_up: false`) or as a
    comparison (`boss: "n == 1"`), or a column of the kind's table that holds only true/false
    (`shark: true`); a field of the same name that is something else for another kind is not."""
    yes_no, other = set(), set()
    for kind in game.items.values():
        for name, e in kind.fields:
            is_flag = isinstance(e, A.Compare) or (isinstance(e, A.Const)
                                                   and isinstance(e.value, bool))
            (yes_no if is_flag else other).add(name)
        rows = game.tables.get(kind.source_table) if kind.source_table else None
        if isinstance(rows, list):
            columns = {k for row in rows if isinstance(row, dict) for k in row}
            for name in columns:
                values = [row.get(name) for row in rows if isinstance(row, dict)]
                (yes_no if all(isinstance(v, bool) for v in values) else other).add(name)
    return yes_no - other


def role_counters(game) -> frozenset[str]:
    """The game's counters that hold a player, a role such as "the player with the Nautilus
    marker", rather than an amount: set to `you`, read where a player is wanted (who starts the
    turns, who chooses, who does an action, who gains, the seat `players_from` starts at), or
    set to another such counter. `set ROLE to PLAYER` says that the player takes the role."""
    from meeplang.dsl.depends import rule_roots

    counters = {n for n, c in game.counters.items() if not c.per_player and c.keys is None}
    nodes = [n for _, roots in rule_roots(game) for n in _model_nodes(roots)]

    def named(e):
        return e.name if isinstance(e, A.Name) and e.name in counters else None

    roles = set()
    sets = []
    for n in nodes:
        if isinstance(n, A.SetStmt) and named(n.target):
            if isinstance(n.value, A.Name) and n.value.name == "you":
                roles.add(n.target.name)
            sets.append((n.target.name, named(n.value)))
        wanted = []
        if type(n).__name__ == "TurnsStep":
            wanted.append(n.first)
        elif isinstance(n, A.ChooseStmt):
            wanted.append(n.chooser)
        elif isinstance(n, (A.DoStmt, A.GainStmt)):
            wanted.append(n.player)
        elif isinstance(n, A.Call) and n.func == "players_from" and n.args:
            wanted.append(n.args[0])
        roles.update(name for name in map(named, wanted) if name)
    grew = True
    while grew:  # a counter set to a role's holder holds a player too, and the reverse
        grew = False
        for target, value in sets:
            if value and (target in roles) != (value in roles):
                roles.update((target, value))
                grew = True
    return frozenset(roles)


def _model_nodes(roots) -> list:
    """Every syntax node and model node (flow steps, params) under some roots."""
    out, stack = [], list(roots)
    while stack:
        cur = stack.pop()
        if isinstance(cur, (tuple, list)):
            stack.extend(cur)
        elif attrs.has(type(cur)):
            out.append(cur)
            stack.extend(getattr(cur, f.name) for f in attrs.fields(type(cur)) if f.name != "pos")
    return out


def _ends_in_sum(e) -> bool:
    """Is the phrase of `e` said with a sum or a difference at its end, which an operator after
    it would seem to continue (`the damage for the use − 1`)?"""
    while isinstance(e, A.Index):
        if isinstance(e.key, A.BinOp):
            return True
        e = e.key
    return False


class MissingTemplate(KeyError):
    """A construct or one of its forms has no template in the language."""


@attrs.frozen
class Line:
    """One sentence of an explanation, at a nesting depth (the body of an `if`, a loop...)."""

    depth: int
    text: str


class Sentences:
    """The sentences of one game's rules in one language."""

    def __init__(self, game, lang: str):
        if lang not in TEMPLATES:
            from meeplang.dsl.errors import UsageError

            raise UsageError(f"unknown language {lang!r}; expected one of {', '.join(TEMPLATES)}")
        self.game = game
        self.lang = lang
        self.templates = TEMPLATES[lang]
        self.words = WORDS[lang]
        self.grammar = GRAMMARS[lang]
        # item fields that are yes/no: said as `the card is face up`
        self.flags = yes_no_fields(game)
        # counters that hold a player: `set nautilus to winner` says the winner takes the role
        self.roles = role_counters(game)
        # parameters and loop variables in scope: said as their names, never as a term that
        # happens to share the key (`has_extension(p, name)`: `name` is not the field's term)
        self.variables: frozenset[str] = frozenset()
        # what a `pass` leaves, while an action's effect is said: ("round" or "phase", term)
        self.passes = None
        # an `if` or a loop with one simple sentence in its body is said on one line
        # (`If X: gain 1 coin.`); a flowchart, which draws each statement in its own node,
        # sets this to False to get the header alone on its line
        self.one_line = True
        # bound names said as the noun of what they range over (`for each r in rows`: each
        # row, then `the row`), rather than as the rules' letter (see `noun_for`)
        self.aliases: dict[str, Phrase] = {}

    @contextmanager
    def passing(self, passes):
        """While an action's effect is said: what its `pass` leaves (Document.passed)."""
        outer, self.passes = self.passes, passes
        try:
            yield
        finally:
            self.passes = outer

    @contextmanager
    def aliased(self, names: dict):
        """Bound names said as nouns while their scope is said."""
        outer = self.aliases
        self.aliases = {**outer, **{k: v for k, v in names.items() if v is not None}}
        try:
            yield
        finally:
            self.aliases = outer

    def noun_for(self, name: str | None, source) -> Phrase | None:
        """The noun a bound name is said as: the singular of the plural noun it ranges over
        (`r in rows`: the row; `p in players`: the player), or the piece made in the place it
        ranges over (`s in display`, where the sponsor tiles are made: the sponsor tile). None
        where the name is a term of the game already (it is said by its term), or where the
        source says nothing of what it holds: the name is then said as written."""
        if not name or name in self.variables or (
                len(name) > 1 and name in (self.game.terms or {})):  # a one-letter name is a
            return None                                           # placeholder (see `name`)
        return self.held_noun(source) or self.items_noun(source)

    def items_noun(self, source) -> Phrase | None:
        """One of what a plural noun names: `rows` -> row, `players` -> player (so `the r in
        rows where ...` is said `the rows where ...`)."""
        if isinstance(source, A.Comprehension) and _is_selection(source):
            return self.items_noun(source.source)
        g = self.game
        if isinstance(source, A.Attr) and source.name in g.zones:  # `p.modules`: a player's
            source = A.Name(source.name, pos=source.pos)             # place, said by its term
        elif isinstance(source, A.Call) and source.func in g.formulas:  # a list a formula
            source = A.Name(source.func, pos=source.pos)                # gives, named by its term
        if not isinstance(source, A.Name):
            return None
        key = source.name
        if key in ("players", "others", "passers"):
            if "player" in (g.terms or {}):
                return self.term("player", singular=True)
            return Phrase(self.words["player"], self.grammar, noun=True,
                          notes=frozenset(self.words.get("player_notes", "").split()))
        if key not in g.zones and key not in g.tables and key not in g.counters \
                and key not in g.formulas or key not in (g.terms or {}) or key in self.variables:
            return None
        if key in g.formulas and self.is_condition(key):
            return None
        from meeplang.dsl.terms import grammar

        # plural in the game's words: the term's `pl` note in this language; else the French
        # notes, which say the number (English ones seldom do); else a regular plural
        own, french = grammar(g.terms, key, self.lang), grammar(g.terms, key, "fr")
        noun = self.term(key)
        text = self.grammar.singular(noun.text)
        if not self.grammar.plain_head(noun.text):
            return None
        if "pl" in own:
            plural = True
        elif french & {"m", "f", "pl"}:  # a French gender note without `pl`: one thing
            plural = "pl" in french
        else:
            plural = not noun.text.endswith(("us", "ss"))
        # only a regular plural: `hex` (one hex, two hex) is not the plural of `he`
        if plural and text != noun.text and self.grammar.plural(text) == noun.text:
            return Phrase(text, self.grammar, noun=True, notes=noun.notes - {"pl"})
        # a plural noun followed by its complement (`modules outside the station`): its first
        # word said of one, where that is a regular plural
        first, space, rest = noun.text.partition(" ")
        one = self.grammar.singular(first)
        if plural and rest and one != first and self.grammar.plural(one) == first:
            return Phrase(one + space + rest, self.grammar, noun=True, notes=noun.notes - {"pl"})
        return None

    def held_noun(self, source) -> Phrase | None:
        """The piece a place holds when one kind of piece is made there (`the colony display`,
        `your diver queue`, `p.queue`): that piece's term."""
        if isinstance(source, A.Comprehension) and _is_selection(source):
            return self.held_noun(source.source)
        key = source.name if isinstance(source, (A.Name, A.Attr)) else None
        g = self.game
        if key not in g.zones or key in self.variables:
            return None
        kinds = [k.name for k in g.items.values() if k.zone == key]
        if len(kinds) == 1 and kinds[0] in (g.terms or {}):
            return self.term(kinds[0], singular=True)
        return None

    def rule_aliases(self, params=(), blocks=()) -> dict:
        """The nouns of the names a rule chooses (its `choose:`, its `choose` and `random`
        statements), said so through the whole rule; a name chosen twice from different
        sources keeps its letter."""
        found: dict = {}

        def note(name, source):
            noun = self.noun_for(name, source)
            text = str(noun) if noun is not None else None
            if name in found and (found[name] is None or str(found[name]) != text):
                found[name] = None
            elif name not in found:
                found[name] = noun

        for param in params:
            if param is not None and not param.is_range and not param.subsets:
                note(param.name, param.source)
        for block in blocks:
            for st in _statements(block):
                if isinstance(st, (A.ChooseStmt, A.SecretChooseStmt)) and not st.is_range \
                        and not st.subsets:
                    note(st.name, st.source)
                elif isinstance(st, A.RandomChooseStmt):
                    note(st.name, st.source)
        return {k: v for k, v in found.items() if v is not None}

    @contextmanager
    def scope(self, *names: str | None):
        """Parameters or loop variables in scope while their body is said."""
        outer = self.variables
        self.variables = outer | {n for n in names if n}
        try:
            yield
        finally:
            self.variables = outer

    def nobody(self, e) -> bool:
        """Is `e` none in this game: `none`, or a formula defined as none (New Eden's
        `wins_ties(): "none"`, which its solo variant defines)? A clause about it is dead."""
        if isinstance(e, A.Call) and e.func in self.game.formulas:
            e = self.game.formulas[e.func].body
        return isinstance(e, A.Const) and e.value is None

    # ------------------------------------------------------------ phrases and templates
    def plain(self, text) -> Phrase:
        return Phrase(str(text), self.grammar)

    def term(self, key: str, singular: bool = False) -> Phrase:
        """A game term as a noun, with its grammar notes (`fr_grammar: f pl`)."""
        from meeplang.dsl.terms import grammar

        notes = grammar(self.game.terms, key, self.lang)
        text = self.game.term(key, self.lang)
        if singular and "pl" in notes:
            text = self.grammar.singular(text)
            notes = notes - {"pl"}
        return Phrase(text, self.grammar, noun=True, notes=notes)

    def field(self, name: str) -> Phrase:
        """A field's term, as read in `x.NAME`: its own (`.dive`) where the game gives one."""
        from meeplang.dsl.terms import field_key

        return self.term(field_key(self.game.terms or {}, name))

    def is_condition(self, formula: str) -> bool:
        """A formula said as a condition (`the station holds (p)`), in every language."""
        from meeplang.dsl.terms import is_condition

        return is_condition(self.game.terms or {}, formula)

    def counted(self, key: str, n: int) -> Phrase:
        """A game term said of `n` things: `1 deeple`, `45 deeples` (the term's `LANG_plural`,
        else the language's regular plural)."""
        from meeplang.dsl.terms import grammar, plural

        if n == 1:
            return self.term(key, singular=True)
        if "pl" in grammar(self.game.terms, key, self.lang):
            return self.term(key)
        p = self.term(key)
        text = plural(self.game.terms, key, self.lang) or self.grammar.plural(p.text)
        return Phrase(text, self.grammar, noun=True, notes=p.notes | {"pl"})

    def name(self, key: str) -> Phrase:
        """A local name: a formula's parameter or a comprehension's variable is its name; a
        value a statement names (`let`, `choose card in`, `for each card in`) is its term if the
        game has one (`card` -> la carte). A one-letter name (`j`, `a`) is a placeholder, said as
        itself even where a field has that name (`t.g`, the card's printed G). A name bound
        over a plural noun is that noun (`Sentences.aliases`)."""
        if key in self.aliases:
            return self.aliases[key]
        if key in self.variables or len(key) == 1 or key not in (self.game.terms or {}):
            return self.plain(key)
        return self.term(key)

    def template(self, construct: str, form: str | None = None) -> str:
        entry = self.templates.get(construct)
        if isinstance(entry, dict):
            entry = entry.get(form) if form is not None else None
        if not isinstance(entry, str):
            raise MissingTemplate(f"{construct}.{form}" if form else construct)
        return entry

    def fill(self, construct: str, form: str | None = None, **fields) -> Phrase:
        """A construct's template (or one of its forms) filled with phrases."""
        values = {k: v if isinstance(v, Phrase) else self.plain(v) for k, v in fields.items()}
        return self.plain(self.template(construct, form).format(**values))

    def agreeing(self, phrase: Phrase, head: Phrase) -> Phrase:
        """A phrase that agrees like its head noun (`tes points` is plural: `valent`; `la salle`
        is feminine: `pleine`)."""
        return attrs.evolve(phrase, notes=head.notes & {"pl", "f"})

    def word(self, key: str, /, **fields) -> str:
        return self.words[key].format(**fields)

    def sentence(self, phrase) -> str:
        """A phrase as a sentence: capital letter, elisions, and a full stop (unless it opens a
        block with a colon)."""
        text = self.grammar.finish(str(phrase)).strip()
        if not re.match(r"\w ", text):  # a one-letter name (`p pays ...`) keeps its case
            text = text[:1].upper() + text[1:]
        return text if text.endswith((":", ".")) else text + "."

    # ------------------------------------------------------------ expressions
    def expr(self, e) -> Phrase:
        if e is None:
            return self.plain("")
        if isinstance(e, tuple) and len(e) == 2:  # a range (lo, hi)
            return self.fill("Call", "range", a0=self.expr(e[0]), a1=self.expr(e[1]))
        method = getattr(self, "_" + type(e).__name__, None)
        try:
            if method is None:
                raise MissingTemplate(type(e).__name__)
            return method(e)
        except MissingTemplate:
            return self.plain(A.expr_source(e))

    def _Num(self, e):
        return self.fill("Num", value=e.value)

    def _Str(self, e):
        if e.value in (self.game.terms or {}):
            return self.fill("Str", "term", term=self.term(e.value))
        return self.fill("Str", "text", value=e.value)

    def _Const(self, e):
        return self.fill("Const", {True: "true", False: "false", None: "none"}[e.value])

    def _Name(self, e):
        n, g = e.name, self.game
        if n in self.aliases:
            return self.agreeing(self.fill("Name", "local", term=self.aliases[n]), self.aliases[n])
        if n in self.variables:
            return self.fill("Name", "local", term=self.plain(n))
        if n in VALUES:
            return self.fill("Name", n)
        bound = "bound_" + n  # what a trigger sees: `excess`, `amount`, `item`...
        if bound in self.templates["Name"] and n not in g.counters and n not in g.zones \
                and n not in g.tables and n not in g.options:
            return self.fill("Name", bound)
        if n in g.counters:
            return self.agreeing(self.fill("Name", "counter" if g.counters[n].per_player
                                           else "game_counter", term=self.term(n)), self.term(n))
        if n in g.zones:
            return self._zone(n, whole=True)
        if n in g.tables:
            value = g.tables[n]
            if isinstance(value, (int, str, bool)):
                return self.fill("Name", "value", value=self.value(value))
            return self.agreeing(self.fill("Name", "table", term=self.term(n)), self.term(n))
        if n in g.options:
            default = g.options[n].default
            form = "flag_option" if isinstance(default, bool) else "text_option" if isinstance(
                default, str) else "option"
            return self.fill("Name", form, term=self.term(n), value=self.option_default(n))
        if n in g.actions:
            return self.fill("Name", "action", term=self.term(n))
        if n in g.graphs:
            return self.fill("Name", "graph", term=self.term(n))
        return self.agreeing(self.fill("Name", "local", term=self.name(n)), self.name(n))

    def value(self, v) -> Phrase:
        """A value from data: a number, a term (as a noun), or the text itself."""
        if isinstance(v, bool):
            return self._Const(A.Const(v, pos=None))
        if isinstance(v, str):
            if v in (self.game.terms or {}):
                return self.term(v)
            return self.fill("Str", "text", value=v)
        if v is None:
            return self._Const(A.Const(None, pos=None))
        return self.plain(v)

    def option_default(self, option: str) -> Phrase:
        """What an option is unless set otherwise: a switch on or off by default, one of its
        text values, or a number."""
        default = self.game.options[option].default
        if isinstance(default, bool):
            return self.fill("Option", "on_default" if default else "off_default")
        if isinstance(default, str):
            return self.option_value(option, default)
        return self.value(default)

    def option_value(self, option: str, value: str) -> Phrase:
        """One of an option's text values: its term (`OPTION.VALUE` in the term table) in
        quotes, else its code (`« must_bid »`)."""
        key = f"{option}.{value}"
        text = self.game.term(key, self.lang) if key in (self.game.terms or {}) else value
        return self.fill("Str", "text", value=text)

    def _Attr(self, e):
        name = self.field(e.name)
        if e.name in self.flags:
            return self.fill("Attr", "flag", name=name, obj=self.expr(e.obj))
        if isinstance(e.obj, A.Name) and e.obj.name == "you":
            return self.agreeing(self.fill("Attr", "yours", name=name), name)
        return self.agreeing(self.fill("Attr", "of", name=name, obj=self.expr(e.obj)), name)

    def _family(self, e) -> bool:
        name = e.name if isinstance(e, (A.Name, A.Attr)) else None
        spec = self.game.zones.get(name) or self.game.counters.get(name)
        return spec is not None and spec.keys is not None

    def _zone(self, n: str, whole: bool):
        """A zone by its term; a family of zones read whole is its members, in the plural
        (`count(dig)`: the items of your dig zones, not of "your dig zone")."""
        term = self.counted(n, 2) if whole and self.game.zones[n].keys is not None \
            else self.term(n)
        return self.agreeing(self.fill("Name", "zone" if self.game.zones[n].per_player
                                       else "game_zone", term=term), term)

    def is_zone(self, e) -> bool:
        """Is `e` a zone: a zone's name, a seat's zone (`p.hand`), a family's member?"""
        if isinstance(e, A.Index):
            return self._family(e.obj) and self.is_zone(e.obj)
        name = e.name if isinstance(e, (A.Name, A.Attr)) else None
        return name in self.game.zones and (isinstance(e, A.Name) or name not in self.flags)

    def _container(self, e) -> bool:
        """A zone said as what holds things (`la réserve`, `tes zones de fouille`), not as the
        things it holds (`les cartes au trésor`, a plural term): its count needs a noun."""
        from meeplang.dsl.terms import grammar

        whole = isinstance(e, A.Name) and self.game.zones[e.name].keys is not None
        name = e.obj.name if isinstance(e, A.Index) else e.name
        return whole or "pl" not in grammar(self.game.terms, name, self.lang)

    def _Index(self, e):
        family = self._family(e.obj)
        if family and isinstance(e.obj, A.Name) and e.obj.name in self.game.zones:
            obj = self._zone(e.obj.name, whole=False)  # one member: `ta zone de fouille (1)`
        else:
            obj = self.expr(e.obj)
        key = self.value(e.key.value) if family and isinstance(e.key, A.Str) else self.expr(e.key)
        return self.agreeing(self.fill("Index", "member" if family else "entry",
                                       obj=obj, key=key), obj)

    def _Slice(self, e):
        form = "both" if e.lo is not None and e.hi is not None else "from" if e.lo is not None \
            else "to"
        return self.fill("Slice", form, obj=self.expr(e.obj), lo=self.expr(e.lo),
                         hi=self.expr(e.hi))

    def _Call(self, e):
        if e.func == "count" and len(e.args) == 1 and _is_selection(e.args[0]):
            # `count([m for m in station if ...])`: the number of m in the station where ...
            return self._Comprehension(attrs.evolve(e.args[0], func="count"))
        args = [self.expr(a) for a in e.args]
        fields = {f"a{i}": a for i, a in enumerate(args)}
        if e.func in self.game.formulas:
            joined = self.join(args, "sep")
            if self.is_condition(e.func):
                form = "predicate" if e.args else "predicate_none"
            elif not e.args:
                form = "formula_none"
            elif len(e.args) == 1 and isinstance(e.args[0], A.Name) and e.args[0].name == "you":
                form = "formula_you"
            else:
                form = "formula"
            name = self.term(e.func)
            of = " " + self.word("of")
            if form == "formula" and len(e.args) == 1 and name.text.endswith(of):
                # a term that ends in "of" takes its argument as its complement, without
                # brackets: "the types of the dig zone of p (l)", not "types of (... (l))"
                name = attrs.evolve(name, text=name.text[:-len(of)])
                form = "formula_of"
            return self.agreeing(self.fill("Call", form, name=name, args=joined, **fields), name)
        form = self._call_form(e)
        if args:  # `la salle est pleine`
            form = self._agreeing_form("Call", form, args[0])
        return self.fill("Call", form, args=self.join(args, "and"), **fields)

    def _call_form(self, e) -> str:
        """Which form of a built-in's template: `top_n`, `max_list`, `passed_you`..."""
        form = _ARITY_FORMS.get((e.func, len(e.args)), e.func)
        if form == "count" and len(e.args) == 1 and self.is_zone(e.args[0]) \
                and self._container(e.args[0]):
            return "count_zone"  # the number of items in it, not "the number of your reserve"
        if e.args and isinstance(e.args[-1], A.Num):
            form = _NUMBER_FORMS.get(form, form)
        yours = bool(e.args) and isinstance(e.args[0], A.Name) and e.args[0].name == "you"
        if yours and form + "_you" in self.templates["Call"]:  # `tu as passé`
            form += "_you"
        return form

    def join(self, phrases, last: str = "last") -> Phrase:
        """`a, b or c` (`then`: `a, then b`; `nor`: what a negation goes through, `ni a ni b`)."""
        texts = [str(p) for p in phrases]
        if len(texts) <= 1:
            return self.plain("".join(texts))
        sep = self.template("ListExpr", "nor_sep" if last == "nor" else "sep")
        end = self.template("ListExpr", last)
        return self.plain(sep.join(texts[:-1]) + end + texts[-1])

    def _Comprehension(self, e):
        source = self.expr(e.source)
        elem_is_var = isinstance(e.elem, A.Name) and e.elem.name == e.var
        form = e.func or ("each" if elem_is_var else "list")
        table = self.templates["Comprehension"]
        # the variable as a noun where the language says this form with one (`for at least one
        # of the players, the notoriety of the player ...`); `the r in rows where ...` is
        # `the rows where ...`, and their count `the number of the rows where ...`
        noun = self.noun_for(e.var, e.source) if (
            form + "_noun" in table or form in ("each", "count")) else None
        if form in ("each", "count") and noun is not None and self.items_noun(e.source) is None:
            noun = None  # `the s in the colony display` is not `the colony display`
        with self.scope(e.var), self.aliased({e.var: noun}):
            if e.cond is not None:
                source = self.fill("Comprehension", "where", head=source, cond=self.expr(e.cond))
            if noun is not None and form == "each":
                return source
            if noun is not None and form == "count":
                return self.fill("Call", "count", a0=source, args=source)
            if noun is not None:
                form += "_noun"
            return self.fill("Comprehension", form, var=self.name(e.var), source=source,
                             elem=self.expr(e.elem))

    def _ListExpr(self, e, last: str = "last"):
        if not e.items:
            return self.fill("ListExpr", "empty")
        if len(e.items) == 1 and isinstance(e.items[0], A.Const) and e.items[0].value is None:
            return self.fill("ListExpr", "nowhere")  # `[none] + places`: no place at all
        return self.join([self.expr(x) for x in e.items], last)

    def _operand(self, parent_prec: int, e, right: bool) -> Phrase:
        phrase = self.expr(e)
        if isinstance(e, A.BinOp) and (_PREC[e.op] < parent_prec or
                                       (right and _PREC[e.op] == parent_prec)):
            return self.fill("BinOp", "paren", text=phrase)
        if _ends_in_sum(e):  # `table[i - 1] - x`: "(the table for i − 1) − x", not "… − 1 − x"
            return self.fill("BinOp", "paren", text=phrase)
        return phrase

    def _BinOp(self, e):
        p = _PREC[e.op]
        def is_list(x) -> bool:
            return isinstance(x, A.ListExpr) or isinstance(x, A.Comprehension) and x.func is None

        # lists put together: `a and b`, not a sum
        form = "+_list" if e.op == "+" and (is_list(e.left) or is_list(e.right)) else e.op
        return self.fill("BinOp", form, left=self._operand(p, e.left, False),
                         right=self._operand(p, e.right, True))

    def _operand_of(self, e, other) -> Phrase:
        """One side of a comparison; a text compared with an option is the option's code
        (`"up"`), not a term that happens to have that key."""
        option = self.game.options.get(other.name) if isinstance(other, A.Name) else None
        if isinstance(e, A.Str) and option is not None:
            return self.option_value(other.name, e.value)
        return self.expr(e)

    def _Compare(self, e, op: str | None = None):
        op = op or e.op
        left, right = e.left, e.right
        if isinstance(left, A.Name) and left.name == "you" and op in ("==", "!="):
            return self.fill("Compare", "is_you" if op == "==" else "is_not_you",
                             right=self.expr(right))
        if isinstance(right, A.Name) and right.name == "you" and op in ("==", "!="):
            return self.fill("Compare", "is_you" if op == "==" else "is_not_you",
                             right=self.expr(left))
        if isinstance(right, A.Const) and right.value is None and op in ("==", "!="):
            subject = self.expr(left)
            return self.fill("Compare", self._agreeing_form(
                "Compare", "is_none" if op == "==" else "is_not_none", subject), left=subject)
        if isinstance(right, A.ListExpr) and op in ("in", "not in"):
            subject = self.expr(left)
            form = "!=" if op == "not in" and len(right.items) == 1 else op + "_list"
            return self.fill("Compare", self._agreeing_form("Compare", form, subject), left=subject,
                             right=self._ListExpr(right, "nor" if op == "not in" else "last"))
        if op == "==" and isinstance(right, (A.Num, A.Neg)):
            op = "num=="
        elif not isinstance(right, (A.Num, A.Neg)) and op + "_expr" in self.templates["Compare"]:
            op += "_expr"  # a language whose `more than N` does not suit an expression
        subject = self._operand_of(left, right)
        return self.fill("Compare", self._agreeing_form("Compare", op, subject), left=subject,
                         right=self._operand_of(right, left))

    def _agreeing_form(self, construct: str, form: str, subject: Phrase) -> str:
        """A verb or an adjective agrees with its subject where the language has the form for
        it: `existe`, `existent`; `plein`, `pleine`, `pleins`, `pleines`."""
        table = self.templates[construct]
        number = "_pl" if "pl" in subject.notes else ""
        gender = "_f" if "f" in subject.notes else ""
        for suffix in (gender + number, number):
            if suffix and form + suffix in table:
                return form + suffix
        return form

    def _BoolOp(self, e, form: str | None = None):
        def side(x):
            if isinstance(x, A.BoolOp) and x.op == e.op:
                return self._BoolOp(x, form)
            phrase = self.expr(x)
            if isinstance(x, A.BoolOp):
                return self.fill("BinOp", "paren", text=phrase)
            return phrase
        return self.fill("BoolOp", form or e.op, left=side(e.left), right=side(e.right))

    def condition(self, e) -> Phrase:
        """A condition said after `if`: a language may join its clauses otherwise there (French
        `si A et que B`)."""
        if isinstance(e, A.BoolOp) and e.op + "_if" in self.templates["BoolOp"]:
            return self._BoolOp(e, e.op + "_if")
        return self.expr(e)

    def _Not(self, e):
        o = e.operand
        if isinstance(o, A.Call) and o.func == "empty":
            return self.fill("Call", "not_empty", a0=self.expr(o.args[0]))
        if isinstance(o, A.Call) and o.func not in self.game.formulas and o.args:
            form = self._call_form(o) + "_not"  # a built-in's negative: `tu n'as pas passé`
            if form in self.templates["Call"]:
                subject = self.expr(o.args[0])
                return self.fill("Call", self._agreeing_form("Call", form, subject), a0=subject)
        if isinstance(o, A.Compare):
            return self._Compare(o, _OPPOSITE[o.op])
        if isinstance(o, A.Comprehension) and o.func == "any":  # for no t in ..., ...
            return self._Comprehension(attrs.evolve(o, func="none"))
        if isinstance(o, A.CanExpr):
            return self._CanExpr(o, "cannot")
        if isinstance(o, A.Attr) and o.name in self.flags:
            return self.fill("Not", "not_flag", name=self.field(o.name), obj=self.expr(o.obj))
        option = self.game.options.get(o.name) if isinstance(o, A.Name) else None
        if option is not None and isinstance(option.default, bool):
            return self.fill("Not", "option_off", term=self.term(o.name),
                             value=self.option_default(o.name))
        return self.fill("Not", "not", operand=self.expr(o))

    def _Neg(self, e):
        return self.fill("Neg", operand=self.expr(e.operand))

    def _CondExpr(self, e):
        return self.fill("CondExpr", cond=self.expr(e.cond), then=self.expr(e.then),
                         other=self.expr(e.other))

    def _Otherwise(self, e):
        return self.fill("Otherwise", first=self.expr(e.first), then=self.expr(e.then))

    def action(self, name: str, value=None, args=()) -> Phrase:
        """An action as the rules name it: its term in quotes, a value, or a local name."""
        if value is not None:
            phrase = self.expr(value)
        elif name in self.game.actions:
            phrase = self.plain(format(self.term(name), "quote"))
        else:
            phrase = self.name(name)
        return phrase

    def args(self, args) -> Phrase:
        return self.join([self.expr(v) if isinstance(v, A.Name) and v.name == n else
                          self.plain(f"{self.name(n)} = {self.expr(v)}") for n, v in args], "and")

    def _CanExpr(self, e, form: str = "can"):
        action = self.action(e.action, e.value)
        if e.args:
            action = self.fill("CanExpr", "with", action=action, args=self.args(e.args))
        return self.fill("CanExpr", form, action=action)

    def _Select(self, e):
        key = self._ListExpr(e.key, "then") if isinstance(e.key, A.ListExpr) else self.expr(e.key)
        return self.fill("Select", e.func, var=self.name(e.var), source=self.expr(e.source),
                         key=key)

    # ------------------------------------------------------------ statements
    def block(self, block, depth: int = 0) -> list[Line]:
        """The sentences of a statement block; the body of an `if` or a loop one level deeper
        (on the same line when it is one simple sentence)."""
        if block is None or not block.stmts:
            return [Line(depth, self.sentence(self.fill("Block", "empty")))]
        out: list[Line] = []
        for s in block.stmts:
            out.extend(self.stmt(s, depth))
        return out

    def stmt(self, s, depth: int) -> list[Line]:
        method = getattr(self, "_" + type(s).__name__, None)
        try:
            if method is None:
                raise MissingTemplate(type(s).__name__)
            result = method(s, depth)
        except MissingTemplate:
            return [Line(depth, line) for line in A.block_source(A.Block((s,), pos=None)).splitlines()]
        if isinstance(result, list):
            return result
        return [Line(depth, self.sentence(result))]

    def inline(self, s) -> Phrase:
        """A statement said inside another sentence (`may do X else STATEMENT`)."""
        lines = self.stmt(s, 0)
        return self.plain(continued(" ".join(line.text for line in lines).rstrip(".")))

    def headed(self, header: Phrase, body, depth: int) -> list[Line]:
        """`If X: body`: one line when the body is one simple sentence, else nested lines."""
        inner = self.block(body, depth + 1)
        head = self.sentence(header)
        if self.one_line and len(inner) == 1 and not inner[0].text.endswith(":"):
            return [Line(depth, f"{head} {continued(inner[0].text)}")]
        return [Line(depth, head)] + inner

    def _SetStmt(self, s, depth):
        t, v = s.target, s.value
        if isinstance(v, A.Const) and v.value is None:
            return self.fill("SetStmt", "clear", target=self.expr(t))
        if isinstance(v, A.Name) and v.name == "you":
            return self.fill("SetStmt", "set_you", target=self.expr(t))
        if isinstance(t, A.Attr) and t.name in self.flags and isinstance(v, A.Const):
            return self.fill("SetStmt", "flag_true" if v.value else "flag_false",
                             name=self.field(t.name), obj=self.expr(t.obj))
        target, form = self.expr(t), "set"
        if isinstance(t, A.Name) and t.name in self.roles:
            # the player takes the role: "the winner becomes the player choosing the next row",
            # never the role said as becoming the player; a seat by its number (`player 1`)
            who = self.fill("TurnsStep", "seat", n=v.value + 1) if isinstance(v, A.Num) \
                else self.expr(v)
            return self.fill("SetStmt", "role", target=target, value=who)
        if not isinstance(v, (A.Num, A.Neg, A.BinOp)) and "set_expr" in self.templates["SetStmt"]:
            # a language whose `set X to` suits numbers only (`X devient le gagnant`)
            form = "set_expr_pl" if "pl" in target.notes else "set_expr"
        return self.fill("SetStmt", form, target=target, value=self.expr(v))

    def _AddStmt(self, s, depth):
        return self.fill("AddStmt", "add" if s.sign > 0 else "subtract", amount=self.expr(s.amount),
                         target=self.expr(s.target))

    def _GainStmt(self, s, depth):
        amount = s.amount
        number = isinstance(amount, A.Num) or (isinstance(amount, A.Name) and isinstance(
            self.game.tables.get(amount.name), int) and not isinstance(
            self.game.tables.get(amount.name), bool))
        one = isinstance(amount, A.Num) and amount.value == 1
        counter = self.term(s.counter, singular=one)
        if s.key is not None:
            counter = self.fill("GainStmt", "member", counter=counter, key=self.expr(s.key))
        what = self.fill("GainStmt", "amount" if number else "amount_expr",
                         amount=self.expr(amount), counter=counter)
        if s.to is not None and not self.nobody(s.to):  # paid to nobody: to the supply
            what = self.fill("GainStmt", "to", text=what, to=self.expr(s.to))
        if s.player is None:
            return self.fill("GainStmt", s.verb, what=what)
        return self.fill("GainStmt", s.verb + "s", what=what, player=self.expr(s.player))

    def _LetStmt(self, s, depth):
        return self.fill("LetStmt", name=self.name(s.name), value=self.expr(s.value))

    def _MoveStmt(self, s, depth):
        form = "position" if s.position is not None else (s.place or "move")
        phrase = self.fill("MoveStmt", form, item=self.expr(s.item), dest=self.expr(s.dest),
                           position=self.expr(s.position))
        return phrase if s.gravity else self.fill("MoveStmt", "no_gravity", text=phrase)

    def _DealStmt(self, s, depth):
        form = "top" if s.place == "top" else "deal"
        if form == "deal" and not isinstance(s.count, A.Num):
            form = "expr"
        elif form == "deal" and s.count.value == 1:
            form = "one"
        return self.fill("DealStmt", form, count=self.expr(s.count),
                         source=self.expr(s.source), dest=self.expr(s.dest))

    def _ShuffleStmt(self, s, depth):
        return self.fill("ShuffleStmt", zone=self.expr(s.zone))

    def _RollStmt(self, s, depth):
        return self.fill("RollStmt", sides=s.sides, name=self.name(s.name))

    def _RandomChooseStmt(self, s, depth):
        return self.fill("RandomChooseStmt", name=self.name(s.name), source=self.expr(s.source))

    def choice(self, construct: str, s, chooser=None) -> Phrase:
        """`choose NAME in/from ... where ...`, shared by choices, secret choices and params;
        with a chooser, the `by_` forms (`X chooses ...`)."""
        name = self.name(s.name)
        prefix = "" if chooser is None else "by_"
        who = self.expr(chooser)
        if s.is_range:
            phrase = self.fill(construct, prefix + "range", name=name, chooser=who,
                               lo=self.expr(s.source[0]), hi=self.expr(s.source[1]))
        else:
            phrase = self.fill(construct, prefix + ("subsets" if s.subsets else "in"), name=name,
                               chooser=who, source=self.expr(s.source))
        if s.cond is not None:
            phrase = self.fill(construct, "where", text=phrase, cond=self.expr(s.cond))
        return phrase

    def _ChooseStmt(self, s, depth):
        return self.choice("ChooseStmt", s, s.chooser)

    def _SecretChooseStmt(self, s, depth):
        phrase = self.choice("SecretChooseStmt", s)
        if s.among is None:
            return self.fill("SecretChooseStmt", "all", text=phrase)
        return self.fill("SecretChooseStmt", "among", text=phrase, var=self.name(s.var),
                         among=self.expr(s.among))

    def _PeekStmt(self, s, depth):
        if s.player is None:
            return self.fill("PeekStmt", "you", items=self.expr(s.items))
        return self.fill("PeekStmt", "by", items=self.expr(s.items), player=self.expr(s.player))

    def _DrawStmt(self, s, depth):
        phrase = self.fill("DrawStmt", "any_of" if s.any_of else "draw", count=self.expr(s.count),
                           source=self.expr(s.source), dest=self.expr(s.dest))
        phrase = self.fill("DrawStmt", "keep" if s.name is None else "keep_as", text=phrase,
                           keep=self.expr(s.keep), name=self.name(s.name or ""))
        if s.cond is not None:
            phrase = self.fill("DrawStmt", "where", text=phrase, cond=self.expr(s.cond))
        return self.fill("DrawStmt", s.rest, text=phrase)

    def _SearchStmt(self, s, depth):
        with self.aliased(self.loop_aliases(s)):
            return self._search(s, depth)

    def _search(self, s, depth):
        if s.searcher is None:
            head = self.fill("SearchStmt", "search", zone=self.expr(s.zone), name=self.name(s.name))
        else:
            head = self.fill("SearchStmt", "by", zone=self.expr(s.zone), name=self.name(s.name),
                             searcher=self.expr(s.searcher))
        if s.cond is not None:
            head = self.fill("SearchStmt", "where", text=head, cond=self.expr(s.cond))
        out = self.headed(self.fill("SearchStmt", "head", text=head), s.body, depth)
        if s.other is not None:
            out += self.headed(self.fill("SearchStmt", "else"), s.other, depth)
        return out

    def _AuctionStmt(self, s, depth):
        currency = self.term(s.currency) if s.member is None else \
            self.expr(A.Index(A.Name(s.currency, pos=s.pos), s.member, pos=s.pos))
        phrase = self.fill("AuctionStmt", "auction", bidders=self.expr(s.bidders),
                           currency=currency, winner=self.name(s.winner),
                           price=self.name(s.price))
        if s.beyond_means:
            phrase = self.fill("AuctionStmt", "beyond", text=phrase)
        if s.ties is not None and not self.nobody(s.ties):  # no one wins ties: no clause
            phrase = self.fill("AuctionStmt", "ties", text=phrase, ties=self.expr(s.ties))
        if s.opener_bids is not None:
            always = isinstance(s.opener_bids, A.Const) and s.opener_bids.value is True
            phrase = self.fill("AuctionStmt", "opener" if always else "opener_if", text=phrase,
                               cond=self.condition(s.opener_bids))
        return phrase

    def _PlaceStmt(self, s, depth):
        return self.fill("PlaceStmt", item=self.expr(s.item), zone=self.expr(s.zone),
                         row=self.expr(s.row), column=self.expr(s.column))

    def _DoStmt(self, s, depth):
        mode = {"": "", "one of": "one_of", "any of": "any_of"}[s.mode]
        form = ("may_" + mode if s.optional else mode) if mode else ("may" if s.optional else "do")
        phrase = self.fill("DoStmt", form, action=self.action(s.action, s.value))
        if s.player is not None:
            phrase = self.fill("DoStmt", "for", text=phrase, player=self.expr(s.player))
        if s.args:
            phrase = self.fill("DoStmt", "with", text=phrase, args=self.args(s.args))
        if s.times is not None:
            phrase = self.fill("DoStmt", "times" if isinstance(s.times, A.Num) else "times_expr",
                               text=phrase, times=self.expr(s.times))
        if s.otherwise is not None:
            phrase = self.fill("DoStmt", "else", text=phrase, other=self.inline(s.otherwise))
        return phrase

    def _ControlStmt(self, s, depth):
        if s.what == "pass" and self.passes is not None:  # until the end of the round, or phase
            kind, period = self.passes
            return self.fill("ControlStmt", f"pass_{kind}", period=period)
        return self.fill("ControlStmt", s.what)

    def _LogStmt(self, s, depth):
        return self.fill("LogStmt", text=s.text)

    def _IfStmt(self, s, depth):
        out: list[Line] = []
        for i, (cond, body) in enumerate(s.branches):
            out += self.headed(self.fill("IfStmt", "if" if i == 0 else "elif",
                                         cond=self.condition(cond)), body, depth)
        if s.other is not None:
            out += self.headed(self.fill("IfStmt", "else"), s.other, depth)
        return out

    def _ForEachStmt(self, s, depth):
        with self.aliased(self.loop_aliases(s)):  # the header's `where` says it too
            return self._for_each(s, depth)

    def _for_each(self, s, depth):
        source = s.source
        if (isinstance(source, A.Comprehension) and source.func is None and source.var == s.var
                and isinstance(source.elem, A.Name) and source.elem.name == s.var):
            # `for each r in [r for r in rows if ...]`: for each r of the rows where ...
            phrase = self.expr(source.source)
            if source.cond is not None:
                phrase = self.fill("Comprehension", "where", head=phrase,
                                   cond=self.expr(source.cond))
        elif isinstance(source, A.ListExpr):  # every value written: `2, 3, 4 and 5`
            phrase = self._ListExpr(source, "and")
        else:
            phrase = self.expr(source)
        return self.headed(self.fill("ForEachStmt", var=self.name(s.var), source=phrase),
                           s.body, depth)

    def loop_aliases(self, s) -> dict:
        """The noun a statement's own bound name is said as in its header and body (a `for
        each`'s variable, a search's find): what `aliased` takes."""
        if isinstance(s, A.ForEachStmt):
            return {s.var: self.noun_for(s.var, s.source)}
        if isinstance(s, A.SearchStmt):
            return {s.name: self.noun_for(s.name, s.zone)}
        return {}

    def _RepeatStmt(self, s, depth):
        form = "times" if isinstance(s.count, A.Num) else "expr"
        return self.headed(self.fill("RepeatStmt", form, count=self.expr(s.count)), s.body, depth)

    def _WhileStmt(self, s, depth):
        return self.headed(self.fill("WhileStmt", cond=self.expr(s.cond)), s.body, depth)


def _statements(block):
    """Every statement of a block, nested ones included, in order."""
    for st in (block.stmts if block is not None else ()):
        yield st
        if isinstance(st, A.IfStmt):
            for _, body in st.branches:
                yield from _statements(body)
            yield from _statements(st.other)
        elif isinstance(st, A.SearchStmt):
            yield from _statements(st.body)
            yield from _statements(st.other)
        elif isinstance(st, (A.ForEachStmt, A.RepeatStmt, A.WhileStmt)):
            yield from _statements(st.body)


def _is_selection(e) -> bool:
    """`[m for m in L if C]`: a list of some of a list's values, as they are."""
    return isinstance(e, A.Comprehension) and e.func is None and isinstance(e.elem, A.Name) \
        and e.elem.name == e.var


def continued(sentence: str) -> str:
    """A sentence going on inside another (`If X: gain 1 coin`, `...; if not, lose 1 point`):
    without its capital letter."""
    return sentence[:1].lower() + sentence[1:]
