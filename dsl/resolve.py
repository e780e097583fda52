"""From a validated YAML document to the Game model, with static checks.

Parses every rule string, then checks names (with "did you mean"), function arity, the kinds of
values each statement needs (a zone to move to, a counter to add to), and flow reachability.
Unused declarations come back as warnings.
"""
from __future__ import annotations

import difflib
import re

import attrs

from . import ast as A
from . import cache
from . import depends
from . import folder as files
from .builtins import ANY, COUNTER_FUNCTIONS, FUNCTIONS, VALUES
from .errors import Pos, ResolveError, SchemaError, Warning_
from .limits import MAX_PLAYERS, bounds_text
from .citations import warnings_of as citation_warnings
from .lookalike import text_warnings
from .terms import NAMED as TERM_NAMED, doc_warnings, named_value_warnings, term_warnings
from .loader import Source, load_source, locate, variant_names
from .model import (
    FREE_AT,
    TRIGGER_LOCALS,
    Action,
    Cost,
    CostPart,
    Counter,
    DoStep,
    Formula,
    Game,
    Limit,
    IfStep,
    ItemKind,
    LoopStep,
    Option,
    Param,
    PhaseStep,
    RepeatStep,
    RuleText,
    Scoring,
    Track,
    Transfer,
    Trigger,
    TurnsStep,
    Zone,
    member_name,
)
from .yamlpos import YList, YMap, plain

LANGS = ("en", "fr")
# what an item kind's `visible_to:` sees: the viewing seat, the item, its zone's family key
VISIBLE_TO_SCOPE = {"viewer": "player", "item": "any", "key": "any"}


def load_game(target: str, variant: str | None = None) -> Game:
    """Load, validate, parse and check a game (optionally with a variant overlay). A game loaded
    before from the same bytes by the same Meeplang comes from the cache (dsl/cache.py)."""
    found = locate(target, variant)
    stacked = "".join(f"\0{p.resolve()}" for p in found.stack)
    key = cache.key_for(found.folder, f"{found.variant}{stacked}", found.variant_file,
                        None if found.is_folder_game else found.game_file)
    game = cache.get(key)
    if game is None:
        with files.recording() as seen:
            game = build_game(load_source(target, variant))
        cache.put(key, game, seen)
    return game


def build_game(source: Source) -> Game:
    try:
        return _Builder(source).build()
    except RecursionError:
        raise ResolveError("the rules nest too deeply to check", source.doc.pos) from None


def value_origins(doc: YMap, main: str) -> dict:
    """`actions.power_plant.limit.per` -> where that value was written, for every value of the
    merged document that a file other than the game's main file gave (a variant, an include):
    the model's own positions are those of the main file's maps, which a merge keeps."""
    out: dict = {}

    def walk(node, path):
        for key, value in node.items():
            here = f"{path}.{key}" if path else str(key)
            pos = node.value_pos.get(key)
            if pos is not None and pos.path != main:
                out[here] = pos
            if isinstance(value, YMap):
                walk(value, here)
    walk(doc, "")
    return out


def _check_bounds(what: str, start: str, spec: YMap, pos: Pos) -> None:
    """`min` at most `max`, and a whole-number `initial`/`default` between them: a counter that
    starts out of its bounds is a mistake in its declaration, not in the first rule to touch it."""
    lo, hi, value = spec.get("min"), spec.get("max"), spec.get(start)
    if any(v is not None and type(v) is not int for v in (lo, hi)):
        return  # bounds read from a table per key: checked where they are read (_bounds)
    if lo is not None and hi is not None and lo > hi:
        raise SchemaError(f"{what}: min {lo} is larger than max {hi}", pos)
    if type(value) is int and (lo is not None and value < lo or hi is not None and value > hi):
        bound = "min" if lo is not None and value < lo else "max"
        at, bound_at = spec.pos_of(start), spec.pos_of(bound)
        if bound_at.path != at.path:  # a variant moved the bound: point at what it wrote
            raise SchemaError(f"{what}: {bound} {spec[bound]} leaves {start} {value} (at "
                              f"{at.path}:{at.line}) out of its bounds ({bounds_text(lo, hi)})",
                              bound_at)
        raise SchemaError(f"{what}: {start} {value} is out of its bounds ({bounds_text(lo, hi)})",
                          at)


def _not_empty(section: YMap, name: str, key, needs: str) -> None:
    """`roll:` with nothing under it, in a game file: an error where it stands (a variant removes
    an entry with `null`, and that never reaches here: see loader.apply_overlay)."""
    if section[key] is None:
        raise SchemaError(f"{name}.{key} is empty: {needs}", section.key_pos[key])


_FORMULA = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*\(\s*((?:[a-z_][a-z0-9_]*\s*,\s*)*"
                      r"[a-z_][a-z0-9_]*)?\s*\)\s*$")

_WHEN = re.compile(r"^(before|after) turn$|^(before|after) (any action|[a-z_][a-z0-9_]*)$|"
                   r"^(start|end) of ([a-z_][a-z0-9_]*)$|^overflow of ([a-z_][a-z0-9_]*)$|"
                   r"^as soon as (.+)$|^enter space of ([a-z_][a-z0-9_]*)$|"
                   r"^gain of ([a-z_][a-z0-9_]*)$|^enters ([a-z_][a-z0-9_]*)$", re.S)


class _Builder:
    def __init__(self, source: Source):
        self.src = source
        self.doc = source.doc
        self.path = self.doc.pos.path
        self.used: set[str] = set()
        self.used_tables: set[str] = set()
        self.warnings: list[Warning_] = []

    # ------------------------------------------------------------ helpers
    def section(self, key) -> YMap:
        value = self.doc.get(key)
        if value is None:
            from .yamlpos import YMap_at

            return YMap_at(self.doc.pos)
        return value

    def expr(self, value, what: str, pos: Pos | None = None):
        if value is None:
            return None
        if isinstance(value, (bool, int)) and not isinstance(value, str):
            return (A.Const(value, pos=pos) if isinstance(value, bool) else A.Num(value, pos=pos))
        return parse_expression(value, self.path)

    # ------------------------------------------------------------ build
    def build(self) -> Game:
        doc = self.doc
        name = str(doc.get("game", self.src.folder.name))
        lo, hi = self._players(doc.get("players", [1, 1]))
        options = self._options()
        terms = {str(k): {str(lang): str(t) for lang, t in v.items()}
                 for k, v in self.section("terms").items()}
        tables = {str(k): plain(v) for k, v in self.section("tables").items()}
        counters = self._counters()
        tracks = self._tracks(tables, counters)
        zones = self._zones()
        items = self._items(zones)
        actions = self._actions()
        rule_texts, data_actions = self._rule_texts(actions)
        formulas = self._formulas()
        graphs = self._graphs(tables)
        self.names = _Names(options, tables, {**counters, **self.track_families}, zones, actions,
                            items, formulas)
        for g in graphs:
            self.names.kinds[g] = "graph"
        phases_declared = {st.name for st in _all_steps(self._raw_flow_phases())}
        for a in actions.values():
            for lim in a.limits:
                if lim.per not in ("turn", "game") and lim.per not in phases_declared:
                    raise ResolveError(_unknown("period", lim.per, ["turn", "game"] + sorted(
                        phases_declared)) + " (a limit is per turn, game or a phase)",
                                      lim.per_pos or lim.pos)
            if len({lim.per for lim in a.limits}) != len(a.limits):
                raise ResolveError(f"{a.name}: two limits for the same period", a.pos)
        setup = parse_block(doc["setup"], self.path) if doc.get("setup") else A.Block((), pos=doc.pos)
        flow = self._steps(doc.get("flow") or YList(), "flow")
        triggers = self._triggers(actions, flow, counters, zones, tracks)
        scoring = self._scoring(terms)
        inv = self.section("invariants")
        invariants = tuple((str(k), self.expr(v, k, inv.pos_of(k))) for k, v in inv.items())

        checker = _Checker(self.names, self.path)
        checker.formulas()
        for c in counters.values():
            checker.expr(c.initial, {"key": "any"} if c.keys is not None else {})
            if c.transfer is not None:
                checker.expr(c.transfer.fee, {})
                checker.used.add(c.transfer.fee_to)
        for z in zones.values():
            if z.capacity is not None:
                checker.expr(z.capacity, {"key": "any"} if z.keys is not None else {})
        for kind in items.values():
            checker.expr(kind.count, {})
            for _, f in kind.fields:
                checker.expr(f, {"n": "int"})
            checker.abilities(kind, actions, self.counter_members)
            if kind.visible_to is not None:
                checker.expr(kind.visible_to, VISIBLE_TO_SCOPE)
        checker.block(setup, {})
        for rt in rule_texts.values():
            checker.block(rt.block, {t: "any" for t in rt.takes})
        for action in actions.values():
            checker.action(action)
        checker.steps(flow, {})
        for t in triggers:
            scope = _trigger_scope(t, actions)
            if t.each is not None:
                scope = checker.param(t.each, scope, "what `each:` goes through")
            if t.limit is not None:
                checker._want(checker.expr(t.limit, scope), "int", t.limit, "a trigger's limit")
            checker.block(t.effect, scope)
            if t.cond is not None:
                checker.expr(t.cond, scope)
        checker.expr(scoring.score, {})
        for tb in scoring.tie_break:
            checker.expr(tb, {})
        if scoring.winners is not None:
            checker.expr(scoring.winners, {})
        if scoring.heuristic is not None:
            checker._want(checker.expr(scoring.heuristic, {}), "int", scoring.heuristic,
                          "a heuristic")
        for _, e in invariants:
            checker.expr(e, {})
        automa_spec = doc.get("automa") or {}
        decide = {str(k): self.expr(v, k, automa_spec["decide"].pos_of(k))
                  for k, v in (automa_spec.get("decide") or {}).items()}
        for e in decide.values():  # a policy sees `options` and the asking rule's variables
            checker.expr(e, dict({n: "any" for n in checker.locals_seen}, options="list"))
        paid_into = self._automa_paid_into(automa_spec, counters) if automa_spec else None
        if paid_into is not None:
            checker.used.add(paid_into)  # what rules pay an automa seat goes there
        self._warn_unused(checker.used | self.used_tables | {kind.zone for kind in items.values()}
                          | {z for z in zones if any(k.zone_field for k in items.values())})
        self.warnings.extend(term_warnings(
            terms, self.section("terms").key_pos,
            {section: self.section(section).key_pos for section, _ in TERM_NAMED}
            | {"formulas": {f.name: f.pos for f in formulas.values()}},
            {s.name: s.pos for s in _all_steps(flow) if isinstance(s, PhaseStep)},
            checker.fields_read))
        specs = self.section("options")
        self.warnings.extend(doc_warnings(terms, {
            o.name: (o.doc, specs[o.name].pos_of("doc")) for o in options.values() if o.doc}))
        self.warnings.extend(text_warnings(doc))
        self.warnings.extend(citation_warnings(self.src))  # `# FR l.418` that says no line
        if actions and not doc.get("flow"):
            self.warnings.append(Warning_("the game has actions but no `flow:`: no one is ever "
                                          "asked to take one (the game ends at once)", doc.pos))

        title = _texts(doc.get("title", name))
        variants = tuple(self._variant_info(v) for v in variant_names(self.src.folder)) \
            if self.src.variant is None and self.src.located.is_folder_game else ()
        found = self.src.located
        automa = (str(automa_spec["name"]), int(automa_spec.get("seats", 1))) if automa_spec else ()
        summary = _texts(doc.get("summary", ""))
        game = Game(
            automa_paid_into=paid_into, rule_texts=rule_texts, data_actions=data_actions, tracks=tracks, track_families=self.track_families, counter_members=self.counter_members, graphs=graphs, formulas=formulas, automa_decide=decide, summary=summary, automa=automa, item_fields=frozenset(self.names.fields), name=name, title=title, variant=self.src.variant, variants=variants,
            min_players=lo, max_players=hi, options=options, terms=terms, tables=tables,
            counters=counters, zones=zones, items=items, setup=setup, flow=flow, actions=actions,
            triggers=tuple(triggers), scoring=scoring, rules_hash=self.src.rules_hash,
            folder=str(self.src.folder), warnings=tuple(self.warnings), invariants=invariants,
            game_file=None if found.is_folder_game else str(found.game_file.resolve()),
            variant_file=str(found.variant_file.resolve()) if found.variant_file and not
            found.stack else None,
            stack=tuple(("name", p.stem) if p.parent == found.folder / "variants" else
                        ("file", str(p.resolve())) for p in found.files) if found.stack else (),
            table_pos=dict(self.section("tables").key_pos), sample_data=self.src.sample,
            origins=value_origins(self.doc, self.path))
        return self._with_dependencies(game)

    def _with_dependencies(self, game: Game) -> Game:
        """The game with its dependency graph (dsl/depends.py), and the checks made on it: a
        table indexed by an action's use count has an entry for every use its limit allows."""
        graph = depends.build(game)
        for ix, limit, largest, entries in depends.limit_overruns(game, graph):
            times_pos = getattr(limit.times, "pos", None) or limit.pos
            table_pos = game.table_pos.get(ix.table)
            pos = times_pos
            if table_pos is not None and times_pos.path == self.path and table_pos.path != self.path:
                pos = table_pos  # the variant changed the table, not the limit: point at it
            raise ResolveError(depends.overrun_message(game, ix, limit, largest, entries), pos)
        named = named_value_warnings(game, depends.rule_roots(game))  # `let stocked`, no term
        return attrs.evolve(game, deps=graph, warnings=game.warnings + tuple(named))

    def _raw_flow_phases(self):
        """The phase steps of the flow, parsed shallowly (for checks made before the flow)."""
        out = []

        def walk(steps):
            for spec in steps or []:
                if isinstance(spec, dict):
                    if "phase" in spec:
                        out.append(PhaseStep(str(spec["phase"]), (), pos=spec.pos))
                    walk(spec.get("steps"))
                    walk(spec.get("else"))
        walk(self.doc.get("flow"))
        return out

    def _variant_info(self, vname: str):
        """(name, title, (min, max)) of a variant, from its own files (not a full load)."""
        from .errors import MeeplangError
        from .loader import variant_files

        players, title = self.doc.get("players", [1, 1]), None
        try:
            for overlay in variant_files(self.src.folder, vname):
                players = overlay.get("players", players)
                title = overlay.get("title", title)
            lo, hi = self._players(players)
        except MeeplangError:  # a broken variant is reported by `check game:variant`
            return (vname, vname, (0, 0))
        if title is None:
            title = vname
        title = str(title) if isinstance(title, str) else str(title.get("en", vname))
        return (vname, title, (lo, hi))

    def _players(self, value):
        if isinstance(value, int):  # `players: 4`, bounded like `players: {min: 4, max: 4}`
            lo, hi = value, value
        elif isinstance(value, dict):
            lo, hi = value["min"], value["max"]
        else:
            lo, hi = value
        if lo > hi:
            raise SchemaError(f"players: min {lo} is larger than max {hi}", self.doc.pos_of("players"))
        if hi > MAX_PLAYERS:
            raise SchemaError(f"players: at most {MAX_PLAYERS} players, not {hi}",
                              self.doc.pos_of("players"))
        return int(lo), int(hi)

    def _options(self):
        out = {}
        sec = self.section("options")
        for key, value in sec.items():
            pos = sec.key_pos[key]
            if isinstance(value, dict):
                out[key] = Option(key, value["default"], value.get("min"), value.get("max"),
                                  _texts(value.get("doc", {})), pos=pos,
                                  min_pos=value.pos_of("min") if "min" in value else None,
                                  max_pos=value.pos_of("max") if "max" in value else None)
                _check_bounds(f"option {key}", "default", value, pos)
            else:
                out[key] = Option(key, value, None, None, {}, pos=pos)
        return out

    @staticmethod
    def _automa_paid_into(automa, counters) -> str | None:
        """`paid_into:` of the automa seats: the counter of the game that what rules pay an automa
        seat goes into ("royalties on the virtual opponent's patents go to the bank"), `none` for
        out of play; absent, an automa seat is paid like any player."""
        into = automa.get("paid_into", ...)
        if into is ...:
            return None
        if into is None or into == "none":
            return "none"
        where = automa.pos_of("paid_into")
        if not isinstance(into, str) or into not in counters:
            raise ResolveError(_unknown("counter", str(into), [
                n for n, c in counters.items() if not c.per_player]) + " (automa paid_into:)", where)
        if counters[into].per_player or counters[into].keys is not None:
            raise ResolveError(f"automa paid_into: {into!r} must be a counter of the game, not one "
                               "per player or a family", where)
        return into

    def _counters(self):
        out, self.counter_members = {}, {}
        sec = self.section("counters")
        for key, spec in sec.items():
            spec = spec or {}
            pos = sec.key_pos[key]
            keys = self._family_keys(spec, f"counter {key}") if "each" in spec else None
            if keys is None:
                _check_bounds(f"counter {key}", "initial", spec, pos)
            initial = self.expr(spec.get("initial", 0), key, pos) or A.Num(0, pos=pos)
            bounds = (None, None) if keys is not None else self._bounds(key, spec, None)
            counter = Counter(key, spec.get("per") == "player", initial,
                              *bounds, spec.get("overflow", "error"),
                              spec.get("visibility", "public"), keys=keys, pos=pos)
            if keys is not None:
                counter = attrs.evolve(counter, transfer=self._transfer(key, spec, keys))
                for k in keys:
                    name = member_name(key, k)
                    self.counter_members[name] = attrs.evolve(
                        counter, name=name, keys=None, member=k, transfer=None,
                        min=self._bounds(key, spec, k)[0], max=self._bounds(key, spec, k)[1])
            out[key] = counter
        return out

    def _tracks(self, tables, counters) -> dict:
        """`tracks:` -> counters (added to `counters`) whose values are spaces; returns each
        declaration's member names (one, or one per key of a family)."""
        out, self.track_families = {}, {}
        sec = self.section("tracks")
        for key, spec in sec.items():
            pos = sec.key_pos[key]
            members = [key]
            if "each" in spec:
                each = spec["each"]
                if isinstance(each, str):
                    if not isinstance(tables.get(each), list):
                        raise ResolveError(f"tracks {key}: each: {each!r} must name a list table",
                                           spec.pos_of("each"))
                    self.used_tables.add(each)
                    each = tables[each]
                members = [str(m) for m in each]
                if len(set(members)) != len(members) or not members:
                    raise SchemaError(f"tracks {key}: each: needs distinct keys",
                                      spec.pos_of("each"))
                if key in counters or key in self.section("zones"):
                    raise ResolveError(f"track family {key!r} has the name of a counter or zone",
                                       pos)
            initial = self.expr(spec.get("initial", 0), key, spec.pos_of("initial"))
            for name in members:
                if name in counters or name in self.section("zones"):
                    raise ResolveError(f"track {name!r} has the name of another counter, zone or "
                                       "track", pos)
                rows = self._spaces(key, spec, tables, name if len(members) > 1 else None)
                wrap = spec.get("wrap_to")
                if wrap is not None and not 0 <= wrap < len(rows):
                    raise SchemaError(f"tracks {key}: wrap_to: {wrap} is not a space of the "
                                      f"track {name} (0 to {len(rows) - 1})",
                                      spec.pos_of("wrap_to"))
                counters[name] = Counter(name, spec.get("per") == "player", initial, 0,
                                         len(rows) - 1, "clamp", spec.get("visibility", "public"),
                                         Track(key, rows, wrap), pos=pos)
            out[key] = tuple(members)
            if "each" in spec:  # read by key: `p.attribute[a]`, `gain 1 attribute[a]`
                self.track_families[key] = Counter(
                    key, spec.get("per") == "player", initial, None, None, "clamp",
                    spec.get("visibility", "public"), keys=tuple(members), pos=pos)
        return out

    def _spaces(self, key, spec, tables, member) -> tuple:
        """A track's spaces: a number of them, a list table (a row per space), or for a family a
        table of such lists by key (each track its own rows)."""
        spaces = spec["spaces"]
        if not isinstance(spaces, str):
            return tuple(range(int(spaces)))
        rows = tables.get(spaces)
        where = spec.pos_of("spaces")
        if rows is None:
            raise ResolveError(_unknown("table", spaces, tables), where)
        self.used_tables.add(spaces)
        if member is not None and isinstance(rows, dict):
            if member not in rows:
                raise ResolveError(f"tracks {key}: table {spaces!r} has no spaces for {member!r}",
                                   where)
            rows = rows[member]
        if not isinstance(rows, list) or not rows:
            also = ", or a table of such lists by key" if member else ""
            raise ResolveError(f"tracks {key}: spaces: {spaces!r} must name a list table (one row "
                               f"per space){also}", where)
        return tuple(rows)

    def _family_keys(self, spec, what: str) -> tuple:
        """`each: [a, b]` or `each: TABLE` (a list table): the keys of a family."""
        each = spec["each"]
        if isinstance(each, str):
            table = self.section("tables").get(each)
            if not isinstance(table, list):
                raise ResolveError(f"{what}: each: {each!r} must name a list table",
                                   spec.pos_of("each"))
            self.used_tables.add(each)
            each = table
        keys = tuple(plain(each))
        bad = next((k for k in keys if not isinstance(k, (str, int))), None)
        if bad is not None:  # keys name members: `station["crab"]`, never a list or a table
            raise SchemaError(f"{what}: each: keys are names or whole numbers, not {bad!r}",
                              spec.pos_of("each"))
        if len(set(map(str, keys))) != len(keys) or not keys:
            raise SchemaError(f"{what}: each: needs distinct keys", spec.pos_of("each"))
        return keys

    def _bounds(self, name: str, spec, key) -> tuple:
        """A counter's (min, max): numbers, or for a family member `TABLE[key]` read now."""
        out = []
        for bound in ("min", "max"):
            value = spec.get(bound)
            if isinstance(value, str) and key is None:  # read per key: only in a family
                raise SchemaError(f"counters.{name}.{bound} must be an integer, not a string",
                                  spec.pos_of(bound))
            if isinstance(value, str):
                value = self._constant(value, key, spec.pos_of(bound), f"counter {name}: {bound}")
            out.append(value)
        lo, hi = out
        if lo is not None and hi is not None and lo > hi:
            at = f" (key {key})" if key is not None else ""
            raise SchemaError(f"counter {name}{at}: min {lo} is larger than max {hi}",
                              spec.pos_of("min"))
        return lo, hi

    def _constant(self, text, key, pos, what: str):
        """A bound written as an expression over tables and `key` (`limits[key]`), read at load."""
        e = parse_expression(text, self.path)
        tables = self.section("tables")

        def value(n):
            if isinstance(n, A.Num):
                return n.value
            if isinstance(n, A.Str):
                return n.value
            if isinstance(n, A.Name) and n.name == "key" and key is not None:
                return key
            if isinstance(n, A.Name) and n.name in tables:
                self.used_tables.add(n.name)
                return plain(tables[n.name])
            if isinstance(n, A.Index):
                table, k = value(n.obj), value(n.key)
                if isinstance(table, dict):
                    if k in table or str(k) in table:
                        return table[k] if k in table else table[str(k)]
                elif isinstance(table, list) and isinstance(k, int) and 0 <= k < len(table):
                    return table[k]
                raise ResolveError(f"{what}: no entry {k!r} in {A.expr_source(n.obj)}", n.pos)
            raise ResolveError(f"{what} must be a number or read a table with `key` "
                               f"(e.g. `limits[key]`), not {A.expr_source(n)}", n.pos)
        result = value(e)
        if type(result) is not int:
            raise ResolveError(f"{what} must be a whole number, got {result!r}", pos)
        return result

    def _transfer(self, name: str, spec, keys) -> Transfer | None:
        t = spec.get("transfer")
        if t is None:
            return None
        ends = {}
        for end in ("from", "into"):
            ends[end] = tuple(plain(t.get(end, list(keys))))
            for k in ends[end]:
                if str(k) not in map(str, keys):
                    raise ResolveError(f"counter {name}: transfer {end} {k!r}, which is not one "
                                       f"of its keys ({', '.join(map(str, keys))})",
                                       t.pos_of(end))
        to = t.get("fee_to")
        if to is not None and (str(to) not in self.section("counters") or
                               (self.section("counters")[str(to)] or {}).get("per") == "player"):
            raise ResolveError(_unknown("game counter", str(to), [
                k for k, v in self.section("counters").items() if (v or {}).get("per") != "player"])
                + " (transfer fees go to a counter of the game, e.g. the bank)",
                t.pos_of("fee_to"))
        return Transfer(self.expr(t["fee"], "fee", t.pos_of("fee")), ends["from"], ends["into"],
                        str(to) if to is not None else None, pos=t.pos if hasattr(t, "pos")
                        else spec.pos_of("transfer"))

    def _zones(self):
        out = {}
        sec = self.section("zones")
        for key, spec in sec.items():
            spec = spec or {}
            pos = sec.key_pos[key]
            if key in self.section("counters"):
                raise ResolveError(f"{key!r} is declared both as a counter and as a zone", pos)
            grid = spec.get("grid")
            grid = (int(grid["rows"]), int(grid["columns"])) if grid else None
            gravity = spec.get("gravity", "none")
            if gravity != "none" and grid is None:
                raise SchemaError(f"zone {key}: gravity needs a `grid:`", spec.pos_of("gravity"))
            keys = self._family_keys(spec, f"zone {key}") if "each" in spec else None
            out[key] = Zone(key, spec.get("per") == "player", spec.get("visibility", "public"),
                            self.expr(spec.get("capacity"), key, pos), grid, gravity, keys,
                            spec.get("refill_from"), spec.get("recycle"), pos=pos)
        for key, zone in out.items():
            self._deck_links(zone, out, sec[key])
        return out

    def _deck_links(self, zone, zones, spec) -> None:
        """`refill_from:` needs a capacity and a plain source; `recycle:` a plain zone (a bag and
        its discards are one zone each, shared or of the same owner)."""
        for link in ("refill_from", "recycle"):
            other = getattr(zone, link)
            if other is None:
                continue
            where = spec.pos_of(link)
            if other not in zones:
                raise ResolveError(_unknown("zone", other, zones), where)
            if other == zone.name or zones[other].keys is not None or (
                    zones[other].per_player and not zone.per_player):
                raise ResolveError(f"zone {zone.name}: {link}: {other!r} must be another single "
                                   "zone, shared or of each player", where)
        if zone.refill_from is not None and zone.capacity is None and zone.grid is None:
            raise ResolveError(f"zone {zone.name}: refill_from needs a `capacity:` to fill up to",
                               spec.pos_of("refill_from"))

    def _items(self, zones):
        out = {}
        sec = self.section("items")
        tables = self.section("tables")
        for key, spec in sec.items():
            _not_empty(sec, "items", key, "items need `count:` (or `from:` a table) and `zone:`")
            pos = sec.key_pos[key]
            table = str(spec["from"]) if "from" in spec else None
            zone = str(spec["zone"]) if "zone" in spec else None
            zone_field = str(spec["zone_field"]) if "zone_field" in spec else None
            if table is not None:
                rows = tables.get(table)
                if rows is None:
                    raise ResolveError(_unknown("table", table, tables), spec.pos_of("from"))
                if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                    raise ResolveError(f"items {key}: table {table!r} must be a list of rows "
                                       "(mappings)", spec.pos_of("from"))
                self.used_tables.add(table)
            elif "count" not in spec:
                raise SchemaError(f"items {key} need `count:` (or `from:` a table)", pos)
            if (zone is None) == (zone_field is None):
                raise SchemaError(f"items {key} need exactly one of `zone:` and `zone_field:`", pos)
            targets = [zone] if zone is not None else sorted(
                {str(r.get(zone_field)) for r in tables[table]} if table else [])
            for z in targets:
                if z not in zones:
                    where = spec.pos_of("zone" if zone is not None else "zone_field")
                    raise ResolveError(_unknown("zone", z, zones), where)
            per = spec.get("per") == "player"
            where = spec.pos_of("zone" if zone is not None else "zone_field")
            for z in targets:
                if per and not zones[z].per_player:
                    raise ResolveError(f"items of {key!r} belong to each player, so their zone "
                                       f"{z!r} must be `per: player`", where)
                if not per and zones[z].per_player:
                    raise ResolveError(f"items of {key!r} are shared, so they cannot start in "
                                       f"{z!r}, a zone of each player (add `per: player` to the "
                                       "items)", where)
            fields = spec.get("fields") or {}
            count = self.expr(spec.get("count", 0), key, spec.pos_of("count"))
            out[key] = ItemKind(key, per, count,
                                tuple((str(f), self.expr(v, f, fields.pos_of(f)))
                                      for f, v in fields.items()), zone, table, zone_field,
                                self._while_held(spec.get("while_held") or {}),
                                self.expr(spec.get("visible_to"), key, spec.pos_of("visible_to")),
                                pos=pos)
        return out

    def _while_held(self, spec) -> tuple:
        """`while_held: {bonus: {research: 1}, discount: {coins: this.rebate}, extra_limit:
        {dive: 1}}`: what an item changes for the player holding it (checked in `_abilities`)."""
        return tuple((str(what), str(target), self.expr(amount, target, targets.pos_of(target)))
                     for what, targets in spec.items() for target, amount in targets.items())

    def _actions(self):
        out = {}
        sec = self.section("actions")
        for key, spec in sec.items():
            _not_empty(sec, "actions", key, "an action needs at least `effect:`")
            pos = sec.key_pos[key]
            param = None
            if spec.get("choose"):
                c = parse_param(spec["choose"], self.path)
                param = Param(c.name, c.source, c.cond, c.is_range, c.subsets, pos=c.pos)
            limits = spec.get("limit") or []
            limits = [limits] if isinstance(limits, dict) else limits
            takes = spec.get("takes") or ()
            takes = (str(takes),) if isinstance(takes, str) else tuple(str(t) for t in takes)
            if "effect" not in spec:
                raise SchemaError(f"actions.{key}: 'effect' is a required property", pos)
            out[key] = Action(key, param, self.expr(spec.get("requires"), key, pos),
                              parse_block(spec["effect"], self.path),
                              tuple(Limit(self.expr(lim["times"], key, lim.pos_of("times")),
                                          str(lim.get("per", "game")), bool(lim.get("shared", False)),
                                          pos=lim.pos, cond=self.expr(lim.get("if"), key,
                                                                      lim.pos_of("if")),
                                          per_pos=lim.value_pos.get("per"))
                                    for lim in limits), takes,
                              self._cost(spec) if "cost" in spec else None, pos=pos)
        return out

    def _rule_texts(self, actions) -> dict:
        """`rule_text: {cards: {fields: [effect], takes: [card]}}`: which table cells hold rule
        text (every value of the table when `fields` is not given). A cell is an action's name,
        statements, or null (no effect); statements are parsed here, so an error points inside
        the cell. -> ({text: RuleText}, names of the actions cells name)"""
        out: dict = {}
        named: list = []
        sec = self.section("rule_text")
        tables = self.section("tables")
        for name, spec in sec.items():
            if name not in tables:
                raise ResolveError(_unknown("table", name, tables), sec.key_pos[name])
            spec = spec or {}
            takes = tuple(str(t) for t in spec.get("takes") or ())
            for leaf, where in _rule_cells(tables[name], spec.get("fields"), name,
                                           sec.key_pos[name]):
                if leaf is None:
                    continue
                if not isinstance(leaf, str):
                    raise ResolveError(f"rule text must be an action's name or statements, not "
                                       f"{leaf!r}", where)
                text = str(leaf)
                if text.strip() in actions:
                    named += [text.strip()] if text.strip() not in named else []
                    continue
                if re.fullmatch(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*", text):
                    raise ResolveError(_unknown("action", text.strip(), actions) +
                                       " (rule text is an action's name or statements)",
                                       getattr(leaf, "pos", where))
                block = parse_block(leaf, self.path)
                before = out.get(text)
                both = tuple(dict.fromkeys((before.takes if before else ()) + takes))
                out[text] = RuleText(text, block, both, pos=block.pos)
        return out, tuple(named)

    def _cost(self, spec) -> Cost:
        """`cost: {from: COUNTER, PART: AMOUNT or {amount: ..., to: PAYEE}, ...}` and
        `discount: {PART: AMOUNT, ...}`."""
        sec = spec["cost"]
        parts = []
        for name, part in sec.items():
            if name == "from":
                continue
            where = sec.pos_of(name)
            if isinstance(part, dict):
                parts.append(CostPart(str(name), self.expr(part["amount"], name, part.pos_of("amount")),
                                      self.expr(part.get("to"), name, part.pos_of("to")),
                                      pos=sec.key_pos[name]))
            else:
                parts.append(CostPart(str(name), self.expr(part, name, where), None,
                                      pos=sec.key_pos[name]))
        if not parts:
            raise SchemaError("a cost needs at least one part (`bank: 3`)", spec.key_pos["cost"])
        discounts = spec.get("discount") or {}
        names = [p.name for p in parts]
        for part in discounts:
            if part not in names:
                raise ResolveError(_unknown("cost part", str(part), names) + " (a discount names "
                                   "a part of the action's cost)", discounts.key_pos[part])
        return Cost(self.expr(sec["from"], "from", sec.pos_of("from")), tuple(parts),
                    tuple((str(k), self.expr(v, k, discounts.pos_of(k)))
                          for k, v in discounts.items()), pos=spec.key_pos["cost"])

    def _triggers(self, actions, flow, counters, zones, tracks):
        phases = {s.name for s in _all_steps(flow) if isinstance(s, PhaseStep)}
        out = []
        sec = self.section("triggers")
        for key, spec in sec.items():
            _not_empty(sec, "triggers", key, "a trigger needs `when:` and `effect:`")
            when = " ".join(str(spec["when"]).split())
            pos = spec.pos_of("when")
            m = _WHEN.match(when)
            cond = self.expr(spec.get("if"), key, pos)
            if m and m.group(7):
                if spec.get("if") is not None:
                    raise SchemaError("an `as soon as` trigger takes its condition in `when:`; "
                                      "drop `if:`", spec.pos_of("if"))
                cond = parse_expression(_after_prefix(spec["when"], "as soon as"), self.path)
                event, target = "as_soon_as", None
            elif not m:
                raise ResolveError(
                    f"when: {when!r} is not an event; expected `before turn`, `after turn`, "
                    "`before ACTION`, `after ACTION`, `after any action`, `start of PHASE` or "
                    "`end of PHASE`, `overflow of COUNTER`, `gain of COUNTER`, `enter space of "
                    "TRACK`, `enters ZONE` or `as soon as CONDITION`", pos)
            elif m.group(6):
                event, target = "overflow", m.group(6)
                counter = counters.get(target)
                if counter is None:
                    raise ResolveError(_unknown("counter", target, counters), pos)
                if counter.overflow != "clamp" or counter.max is None:
                    raise ResolveError(f"`overflow of {target}` needs the counter to have a `max:` "
                                       "and `overflow: clamp`", pos)
            elif m.group(8):
                event, target = "enter_space", m.group(8)
                if target not in tracks and not (target in counters and counters[target].track):
                    raise ResolveError(_unknown("track", target, list(tracks) + [
                        n for n, c in counters.items() if c.track]), pos)
            elif m.group(9):
                event, target = "gain", m.group(9)
                if target not in counters:
                    raise ResolveError(_unknown("counter", target, counters), pos)
            elif m.group(10):
                event, target = "enters", m.group(10)
                if target not in zones:
                    raise ResolveError(_unknown("zone", target, zones), pos)
            elif m.group(1):
                event, target = f"{m.group(1)}_turn", None
            elif m.group(2):
                event = f"{m.group(2)}_action"
                target = None if m.group(3) == "any action" else m.group(3)
                if target is not None and target not in actions:
                    raise ResolveError(_unknown("action", target, actions), pos)
            else:
                event, target = f"phase_{m.group(4)}", m.group(5)
                if target not in phases:
                    raise ResolveError(_unknown("phase", target, phases), pos)
            if "timing" in spec and event not in ("overflow", "as_soon_as", "gain", "enters"):
                raise SchemaError("`timing:` applies to `overflow of`, `gain of`, `enters` and "
                                  "`as soon as` triggers (`enter space of` runs as the cube "
                                  "enters the space)", spec.pos_of("timing"))
            each = None
            if "each" in spec:
                c = parse_param(spec["each"], self.path)
                if c.is_range or c.subsets:
                    raise SchemaError("each: takes `NAME in LIST [where COND]`",
                                      spec.pos_of("each"))
                each = Param(c.name, c.source, c.cond, False, pos=c.pos)
            limit = spec.get("limit")
            times = self.expr(limit["times"], key, limit.pos_of("times")) if limit else None
            out.append(Trigger(key, event, target, cond, parse_block(spec["effect"], self.path),
                               bool(spec.get("once", False)), spec.get("timing") == "immediately",
                               each, times, str(limit.get("per", "game")) if limit else "game",
                               pos=sec.key_pos[key]))
            if limit:
                self._check_period(str(limit.get("per", "game")), limit.pos_of("per"))
        return out

    def _check_period(self, period: str, pos) -> None:
        """A trigger's `limit: {per: ...}`: turn, game, a phase, or a repeat step's `as:` name."""
        names = {st.name for st in self._raw_flow_phases()} | self._repeat_vars()
        if period not in ("turn", "game") and period not in names:
            raise ResolveError(f"limit per {period!r}: expected turn, game, a phase name or a "
                               f"repeat's `as:` name ({', '.join(sorted(names)) or 'none'})", pos)

    def _repeat_vars(self) -> set:
        out = set()

        def walk(steps):
            for spec in steps or []:
                if isinstance(spec, dict):
                    if "repeat" in spec and "as" in spec:
                        out.add(str(spec["as"]))
                    walk(spec.get("steps"))
                    walk(spec.get("else"))
        walk(self.doc.get("flow"))
        return out

    def _scoring(self, terms: dict):
        sec = self.doc.get("scoring")
        if sec is None:
            raise SchemaError("a game needs a `scoring:` section with at least `score:`", self.doc.pos)
        tbs = sec.get("tie_break") or []
        return Scoring(self.expr(sec["score"], "score", sec.pos_of("score")),
                       tuple(self.expr(t, "tie_break", tbs.pos_of(i)) for i, t in enumerate(tbs)),
                       self.expr(sec.get("winners"), "winners", sec.pos_of("winners")), pos=sec.pos,
                       heuristic=self.expr(sec.get("heuristic"), "heuristic",
                                           sec.pos_of("heuristic")),
                       ranks=self._ranks(sec, terms))

    def _ranks(self, sec, terms: dict) -> tuple:
        """`ranks: {0: beginner, 17: hopeful}`: the title a final score earns, from each threshold
        up (a solo game's honour table). The thresholds go up and each title is a term, so the
        result reads in every language of the game."""
        spec = sec.get("ranks")
        if spec is None:
            return ()
        if not spec:  # a mapping (the schema says so)
            raise SchemaError("`ranks:` maps final scores to terms, lowest first: "
                              "{0: beginner, 17: expert}", sec.pos_of("ranks"))
        out: list = []
        for threshold, title in spec.items():
            where = spec.key_pos.get(threshold, spec.pos)
            if type(threshold) is not int:
                raise ResolveError(f"a rank's threshold is a whole number (a final score), not "
                                   f"{threshold!r}", where)
            if out and threshold <= out[-1][0]:
                raise ResolveError(f"the ranks' thresholds go up, lowest first: {threshold} comes "
                                   f"after {out[-1][0]}", where)
            if not isinstance(title, str) or str(title) not in terms:
                raise ResolveError(_unknown("term", str(title), terms) + " (a rank's title is a "
                                   "term of the game's `terms:`)", spec.pos_of(threshold))
            out.append((threshold, str(title)))
        return tuple(out)

    # ------------------------------------------------------------ flow
    def _steps(self, steps: YList, where: str) -> tuple:
        out = []
        for i, spec in enumerate(steps):
            pos = steps.pos_of(i)
            step = self._step(spec, pos)
            if out and _never_ends(out[-1]):
                raise ResolveError(
                    f"unreachable: the step before this one ({_step_name(out[-1])}, at "
                    f"{out[-1].pos}) never finishes, so the flow cannot get here", pos)
            out.append(step)
        return tuple(out)

    def _step(self, spec: YMap, pos: Pos):
        kinds = [k for k in ("do", "phase", "repeat", "while", "until", "if", "turns") if k in spec]
        if len(kinds) != 1:
            what = ", ".join(kinds) if kinds else "none"
            raise SchemaError("a flow step needs exactly one of do, phase, repeat, while, until, "
                              f"if, turns (found: {what})", pos)
        kind = kinds[0]
        name = str(spec["name"]) if "name" in spec else None
        sub = self._steps(spec.get("steps") or YList(), kind) if "steps" in spec else ()
        if kind in ("repeat", "while", "until", "phase", "if") and "steps" not in spec:
            raise SchemaError(f"a `{kind}` step needs `steps:`", pos)
        if kind == "do":
            return DoStep(parse_block(spec["do"], self.path), pos=pos)
        if kind == "phase":
            free = spec.get("free_actions") or []
            self._offerable(free, free)
            return PhaseStep(str(spec["phase"]), sub, tuple(free),
                             self.expr(spec.get("free_actions_if"), "free_actions_if",
                                       spec.pos_of("free_actions_if")), pos=pos,
                             free_at=self._free_at(spec))
        if kind == "repeat":
            return RepeatStep(self.expr(spec["repeat"], "repeat", spec.pos_of("repeat")),
                              str(spec["as"]) if "as" in spec else None, sub, name, pos=pos)
        if kind in ("while", "until"):
            return LoopStep(self.expr(spec[kind], kind, spec.pos_of(kind)), kind == "until", sub,
                            name, pos=pos)
        if kind == "if":
            other = self._steps(spec.get("else") or YList(), "else")
            return IfStep(self.expr(spec["if"], "if", spec.pos_of("if")), sub, other, pos=pos)
        t = spec["turns"]
        until = str(t.get("until", "all_passed"))
        until_cond = None
        if until not in ("all_passed", "one_round", "never"):
            until_cond = parse_expression(t["until"], self.path)
            until = "condition"
        for key in ("actions", "free_actions", "automa_actions"):
            self._offerable(t.get(key) or [], t.get(key))
        order, order_list = str(t.get("order", "clockwise")), None
        if order not in ("clockwise", "counterclockwise"):
            order_list = parse_expression(t["order"], self.path)
            if isinstance(order_list, A.Name) and order_list.name not in self.doc.get(
                    "tables", {}) and order_list.name not in ("players", "others"):
                raise SchemaError("order must be clockwise, counterclockwise, or the seats in turn "
                                  "order, e.g. `sorted(each p in players by -p.bribe)`",
                                  t.pos_of("order"))
            if "first" in t:
                raise SchemaError("first: is not used when `order` lists the seats (the list's "
                                  "first seat plays first)", t.key_pos["first"])
            order = "list"
        return TurnsStep(self.expr(t.get("first", 0), "first", t.pos_of("first")),
                         order, tuple(t["actions"]),
                         tuple(t.get("free_actions") or ()),
                         self.expr(t.get("per_turn"), "per_turn", t.pos_of("per_turn")),
                         until, until_cond, str(t["as"]) if "as" in t else None,
                         tuple(t.get("automa_actions") or ()),
                         self.expr(t.get("until_round"), "until_round", t.pos_of("until_round")),
                         bool(t.get("free_after_last", False)), order_list,
                         bool(t.get("free_turn", False)), pos=pos, free_at=self._free_at(t))

    def _free_at(self, spec: YMap) -> str:
        """`free_actions_at:` of a turns step or a phase: when its free actions are offered."""
        if "free_actions_at" not in spec:
            return FREE_AT[0]
        at = spec["free_actions_at"]
        if at not in FREE_AT:
            raise SchemaError(f"free_actions_at must be {' or '.join(FREE_AT)}, not {at!r}",
                              spec.pos_of("free_actions_at"))
        if not spec.get("free_actions"):
            raise ResolveError("free_actions_at says when free actions are offered, but this step "
                               "has no free_actions", spec.key_pos["free_actions_at"])
        return str(at)

    def _offerable(self, names, node):
        """Actions a step offers to players must exist and take no arguments."""
        actions = self.section("actions")
        for i, a in enumerate(names):
            if a not in actions:
                raise ResolveError(_unknown("action", a, actions), node.pos_of(i))
            if (actions[a] or {}).get("takes"):
                raise ResolveError(f"{a} takes arguments: only rules can do it (`do {a} with ...`)",
                                   node.pos_of(i))

    def _graphs(self, tables) -> dict:
        """`graphs: {sea: {nodes: TABLE, edges: TABLE}}` -> adjacency, checked once here."""
        out = {}
        sec = self.section("graphs")
        for name, spec in sec.items():
            where = sec.key_pos[name]
            if name in self.section("counters") or name in self.section("zones") or name in tables:
                raise ResolveError(f"graph {name!r} has the name of another declaration", where)
            nodes, edges = tables.get(spec["nodes"]), tables.get(spec["edges"])
            for key, value in (("nodes", nodes), ("edges", edges)):
                if not isinstance(value, list):
                    raise ResolveError(f"graph {name}: {key}: {spec[key]!r} must name a list table",
                                       spec.pos_of(key))
                self.used_tables.add(spec[key])
            for node in nodes:
                if not isinstance(node, (str, int)) or isinstance(node, bool):
                    raise ResolveError(f"graph {name}: node {node!r} must be a name or a number",
                                       spec.pos_of("nodes"))
            adjacency = {n: [] for n in nodes}
            for edge in edges:
                if not (isinstance(edge, list) and len(edge) == 2
                        and all(isinstance(e, (str, int)) and e in adjacency for e in edge)):
                    raise ResolveError(f"graph {name}: edge {edge!r} must join two of its nodes",
                                       spec.pos_of("edges"))
                a, b = edge
                adjacency[a].append(b)
                adjacency[b].append(a)
            out[name] = {n: tuple(v) for n, v in adjacency.items()}
        return out

    def _formulas(self) -> dict:
        out = {}
        sec = self.section("formulas")
        for key, body in sec.items():
            m = _FORMULA.match(str(key))
            pos = sec.key_pos[key]
            if not m:
                raise SchemaError(f"a formula is declared as `name(a, b)`, not {key!r}", pos)
            name = m.group(1)
            params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
            if len(set(params)) != len(params):
                raise SchemaError(f"formula {name}: a parameter is named twice", pos)
            if name in FUNCTIONS or name in VALUES or name in out:
                raise ResolveError(f"formula {name!r} has the name of a built-in or another formula",
                                   pos)
            out[name] = Formula(name, params, self.expr(body, name, sec.pos_of(key)), pos=pos)
        return out

    def _warn_unused(self, used: set[str]):
        for section, kind in (("counters", "counter"), ("zones", "zone"), ("tables", "table"),
                              ("options", "option")):
            sec = self.section(section)
            for key in sec:
                if key not in used:
                    self.warnings.append(Warning_(f"{kind} {key!r} is never used", sec.key_pos[key]))


def _after_prefix(text, prefix: str):
    """The condition of `as soon as COND`, keeping its position in the file."""
    from .yamlpos import YStr

    raw = str(text)
    start = raw.index(prefix) + len(prefix)
    while start < len(raw) and raw[start] in " \t":
        start += 1
    rest = raw[start:]
    if isinstance(text, YStr) and "\n" not in raw[:start]:
        out = YStr(rest)
        out.pos, out.style, out.indent = text.pos_at(1, start + 1), None, text.indent
        return out
    return rest


def _trigger_scope(t: Trigger, actions=None) -> dict:
    if t.event in TRIGGER_LOCALS:
        return dict(TRIGGER_LOCALS[t.event])
    if not t.event.endswith("_action"):
        return {}
    scope = {"action": "str"}
    action = (actions or {}).get(t.target)
    if action is not None:  # before/after ACTION see the action's arguments and choice
        scope.update({n: "any" for n in action.takes})
        if action.param is not None:
            scope[action.param.name] = "any"
    return scope


def _rule_cells(table, fields, name: str, where: Pos):
    """(value, position) of every cell of a `rule_text:` table: the given fields of each row,
    or every value (inside lists and mappings) when no fields are given."""
    if fields is None:
        yield from _leaves(table, where)
        return
    rows = list(table.values()) if isinstance(table, dict) else table
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ResolveError(f"rule_text {name}: `fields:` needs a table of rows (mappings)", where)
    for row in rows:
        for f in fields:
            if f in row:
                yield row[f], row.pos_of(f) if isinstance(row, YMap) else where


def _leaves(node, where: Pos):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, node.pos_of(k) if isinstance(node, YMap) else where)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, node.pos_of(i) if isinstance(node, YList) else where)
    else:
        yield node, where


def _all_steps(steps):
    for s in steps:
        yield s
        for attr in ("steps", "other"):
            yield from _all_steps(getattr(s, attr, ()) or ())


def _never_ends(step) -> bool:
    if isinstance(step, TurnsStep):
        return step.until == "never"
    if isinstance(step, LoopStep):
        c = step.cond
        return isinstance(c, A.Const) and c.value is (not step.until)
    return False


def _step_name(step) -> str:
    if isinstance(step, TurnsStep):
        return "turns until never"
    return "while true" if not step.until else "until false"


def _texts(value) -> dict:
    """A text in each language (`{en: ..., fr: ...}`), or one plain text, which is English."""
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    return {"en": str(value)}


def _unknown(kind: str, name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {kind} {name!r}{hint}"


# ---------------------------------------------------------------- names and static checks
class _Names:
    """What every declared name is (option, table, counter, zone, action)."""

    def __init__(self, options, tables, counters, zones, actions, items, formulas):
        self.formulas = formulas
        self.kinds: dict[str, str] = {}
        for n in options:
            self.kinds[n] = "option"
        for n, value in tables.items():  # a table may be one number: `plant_income: 5`
            self.kinds[n] = _CONSTANT_KINDS.get(type(value), "table")
        for n, c in counters.items():
            if c.keys is not None:
                self.kinds[n] = "pcounters" if c.per_player else "counters"
            else:
                self.kinds[n] = "pcounter" if c.per_player else "counter"
        for n, z in zones.items():
            if z.keys is not None:
                self.kinds[n] = "pfamily" if z.per_player else "family"
            else:
                self.kinds[n] = "pzone" if z.per_player else "zone"
        self.actions = actions
        self.counters, self.zones = counters, zones
        self.fields = {f for kind in items.values() for f, _ in kind.fields} | {"kind", "owner", "id"}
        for table in tables.values():  # a row of a table is read like an item: `prices[r].coins`
            rows = table.values() if isinstance(table, dict) else table if isinstance(
                table, list) else ()
            for row in rows:
                if isinstance(row, dict):
                    self.fields |= {str(k) for k in row}
        self.zone_specs = zones
        self.player_attrs = {n for n, c in counters.items() if c.per_player} | {
            n for n, z in zones.items() if z.per_player}
        self.zone_specs = zones


_CONSTANT_KINDS = {int: "number", bool: "flag", str: "text"}
_TYPE_OF_KIND = {"option": "any", "table": "table", "number": "int", "flag": "bool",
                 "text": "str", "graph": "graph", "counter": "int",
                 "pcounter": "int", "counters": "counters", "pcounters": "counters",
                 "zone": "zone", "pzone": "zone", "family": "family", "pfamily": "family"}


def _a_type(t: str) -> str:
    """A static type, said with its article in an error ("an int cannot be indexed")."""
    return f"an {t}" if t[:1] in "aeiou" else f"a {t}"


class _Checker:
    def __init__(self, names: _Names, path: str):
        self.n = names
        self.path = path
        self.used: set[str] = set()
        self.locals_seen: set[str] = set()  # every local name bound anywhere (for automa policies)
        self.fields_read: dict[str, Pos] = {}  # `x.name`: each name read, where it is first read

    def formulas(self):
        """Check formula bodies and refuse cycles (so evaluating a formula always ends)."""
        calls = {}
        for f in self.n.formulas.values():
            self.expr(f.body, {p: "any" for p in f.params})
            calls[f.name] = [n.func for n in A.walk(f.body)
                             if isinstance(n, A.Call) and n.func in self.n.formulas]
        state: dict[str, int] = {}

        def visit(name, path):
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                cycle = path[path.index(name):] + [name]
                raise ResolveError("formula cycle: " + " -> ".join(cycle),
                                   self.n.formulas[name].pos)
            state[name] = 1
            for callee in calls[name]:
                visit(callee, path + [name])
            state[name] = 2
        for name in calls:
            visit(name, [])

    def args(self, action_name: str, args, node, scope):
        """`with name = value` must give every argument the action takes, and nothing else."""
        action = self.n.actions[action_name]
        allowed = set(action.takes) | ({action.param.name} if action.param else set())
        given = [n for n, _ in args]
        for name, e in args:
            if name not in allowed:
                self.fail(f"{action_name} has no argument {name!r} (it takes: "
                          f"{', '.join(sorted(allowed)) or 'nothing'})", node)
            self.expr(e, scope)
        if len(set(given)) != len(given):
            self.fail("an argument is given twice", node)
        missing = [t for t in action.takes if t not in given]
        if missing:
            self.fail(f"{action_name} needs {', '.join(missing)} (`with {missing[0]} = ...`)", node)

    def abilities(self, kind, actions, members):
        """`while_held:` targets: a player counter for bonus/discount (a family: each member, or
        one member `accounts[hr]`), a limited action for extra_limit; the amount is a number
        reading `this` (the held item) and `you`."""
        for what, target, amount in kind.while_held:
            if what in ("bonus", "discount"):
                spec = self.n.counters.get(target) or members.get(target)
                if spec is None or not spec.per_player:
                    self.fail(_unknown("player counter", target, list(self.n.player_attrs) + list(
                        members)) + f" (items {kind.name}: while_held {what})", amount)
            elif target not in actions or not actions[target].limits:
                self.fail(f"items {kind.name}: extra_limit needs an action with a `limit:`, not "
                          f"{target!r}", amount)
            self._want(self.expr(amount, {"this": "any"}), "int", amount, f"a {what}")

    def do_target(self, action: str, value, mode: str, args, node, scope):
        """What `do`/`can()` performs: a named action (its arguments checked), a variable or an
        expression holding an action's name or rule text, or a list of them (`one of`/`any of`),
        whose arguments are only known when it runs."""
        if action and action in self.n.actions and action not in scope:
            self.args(action, args, node, scope)
            return
        if action and action not in scope:
            self.fail(_unknown("action", action, self.n.actions), node)
        if value is not None:
            t = self.expr(value, scope)
            if mode:
                self._want(t, "list", value, f"what `do {mode}` chooses from")
        for _, e in args:
            self.expr(e, scope)

    def fail(self, msg, node):
        raise ResolveError(msg, node.pos)

    # -- expressions: return a coarse type
    def expr(self, e, scope: dict) -> str:
        if e is None:
            return "none"
        match e:
            case A.Num():
                return "int"
            case A.Str():
                return "str"
            case A.Const(value=v):
                return "bool" if isinstance(v, bool) else "none"
            case A.Name(name=name):
                if name in scope:
                    return scope[name]
                if name in self.n.kinds:
                    self.used.add(name)
                    return _TYPE_OF_KIND[self.n.kinds[name]]
                if name in VALUES:
                    return VALUES[name]
                if name in self.n.actions:  # an action as a value: `do one of [travel, sonar]`
                    return "str"
                known = list(scope) + list(self.n.kinds) + list(VALUES)
                self.fail(_unknown("name", name, known), e)
            case A.Attr(obj=obj, name=name):
                self.fields_read.setdefault(name, e.pos)
                t = self.expr(obj, scope)
                if t in ("int", "bool", "str", "zone", "list", "table"):
                    if not (t == "int" and name in self.n.player_attrs):
                        self.fail(f"{_a_type(t)} has no attribute {name!r}", e)
                if t == "player" or (t in ("any", "int") and name in self.n.player_attrs):
                    if name in self.n.player_attrs:
                        self.used.add(name)
                        return _TYPE_OF_KIND[self.n.kinds[name]]
                    if t == "player":
                        self.fail(_unknown("player counter or zone", name, self.n.player_attrs), e)
                if name in self.n.fields:
                    return "player" if name == "owner" else "any"
                known = self.n.fields | self.n.player_attrs
                self.fail(_unknown("field", name, known), e)
            case A.Index(obj=obj, key=key):
                t = self.expr(obj, scope)
                self.expr(key, scope)
                if t in ("int", "bool", "none"):
                    self.fail(f"{_a_type(t)} cannot be indexed", e)
                if t in ("family", "counters"):
                    family = self._family_of(obj)
                    if family is not None and isinstance(key, (A.Num, A.Str)) and \
                            str(key.value) not in map(str, family.keys):
                        close = difflib.get_close_matches(str(key.value),
                                                          list(map(str, family.keys)), n=1)
                        self.fail(f"{family.name} has no key {key.value!r} (keys: "
                                  f"{', '.join(map(str, family.keys))})" +
                                  (f"; did you mean {close[0]!r}?" if close else ""), key)
                    return "zone" if t == "family" else "int"
                return "any"
            case A.Slice(obj=obj, lo=lo, hi=hi):
                self._want(self.expr(obj, scope), "list", obj, "what is sliced")
                for bound in (lo, hi):
                    if bound is not None:
                        self._want(self.expr(bound, scope), "int", bound, "a slice bound")
                return "list"
            case A.CanExpr(action=a, args=args, value=v):
                self.do_target(a, v, "", args, e, scope)
                return "bool"
            case A.Call(func=f, args=args) if f in COUNTER_FUNCTIONS:
                if len(args) != 1:
                    self.fail(f"{f}() takes 1 argument, got {len(args)}", e)
                (target,) = args
                if A.counter_target(target) is None or A.counter_target(target)[1] not in \
                        self.n.counters:
                    self.fail(f"{f}() takes a counter (`coins`, `p.coins`, `accounts[a]`), not "
                              f"{A.expr_source(target)}", target)
                self._counter_target(target, scope)
                return COUNTER_FUNCTIONS[f]
            case A.Call(func=f, args=args) if f in self.n.formulas:
                want = len(self.n.formulas[f].params)
                if len(args) != want:
                    self.fail(f"{f}() takes {want} argument{'s' if want != 1 else ''}, "
                              f"got {len(args)}", e)
                for a in args:
                    self.expr(a, scope)
                return "any"
            case A.Call(func=f, args=args):
                spec = FUNCTIONS.get(f)
                if spec is None:
                    known = list(FUNCTIONS) + list(self.n.formulas)
                    self.fail(_unknown("function", f, known), e)
                lo, hi, ret, argtypes = spec
                if not lo <= len(args) <= hi:
                    want = str(lo) if lo == hi else (f"at least {lo}" if hi >= ANY else
                                                     f"{lo} to {hi}")
                    plural = "" if (hi if hi < ANY else lo) == 1 else "s"
                    self.fail(f"{f}() takes {want} argument{plural}, got {len(args)}", e)
                for i, a in enumerate(args):
                    t = self.expr(a, scope)
                    want = argtypes[min(i, len(argtypes) - 1)] if argtypes else "any"
                    self._want(t, want, a, f"argument {i + 1} of {f}()")
                return ret
            case A.Comprehension(func=f, elem=el, var=v, source=src, cond=c):
                st = self.expr(src, scope)
                self._want(st, "list", src, "a `for` source")
                inner = dict(scope)
                inner[v] = "any"
                if c is not None:
                    self.expr(c, inner)
                self.expr(el, inner)
                if f is None:
                    return "list"
                if f not in FUNCTIONS:
                    self.fail(_unknown("function", f, FUNCTIONS), e)
                return FUNCTIONS[f][2]
            case A.ListExpr(items=items):
                for x in items:
                    self.expr(x, scope)
                return "list"
            case A.Select(func=f, var=v, source=src, key=k):
                if f not in ("lowest", "highest", "sorted"):
                    self.fail(f"unknown selector {f!r}: expected lowest, highest or sorted", e)
                self._want(self.expr(src, scope), "list", src, f"what {f}() picks from")
                self.expr(k, dict(scope, **{v: "player" if _is_players(src) else "any"}))
                return "list" if f == "sorted" else ("player" if _is_players(src) else "any")
            case A.BinOp(op=op, left=l, right=r):
                lt, rt = self.expr(l, scope), self.expr(r, scope)
                if op == "+" and "list" in (lt, rt) and {lt, rt} <= {"list", "any"}:
                    return "list"
                self._want(lt, "int", l, f"the left side of {op}")
                self._want(rt, "int", r, f"the right side of {op}")
                return "int"
            case A.Compare(op=op, left=l, right=r):
                lt, rt = self.expr(l, scope), self.expr(r, scope)
                if op in ("<", "<=", ">", ">="):
                    self._want(lt, "int", l, f"the left side of {op}")
                    self._want(rt, "int", r, f"the right side of {op}")
                if op in ("in", "not in"):
                    self._want(rt, "list", r, f"the right side of `{op}`")
                return "bool"
            case A.BoolOp(left=l, right=r):
                self.expr(l, scope)
                self.expr(r, scope)
                return "bool"
            case A.Not(operand=o):
                self.expr(o, scope)
                return "bool"
            case A.Neg(operand=o):
                self._want(self.expr(o, scope), "int", o, "a negation")
                return "int"
            case A.Otherwise(first=f, then=t):
                a, b = self.expr(f, scope), self.expr(t, scope)
                return a if a == b else "any"
            case A.CondExpr(cond=c, then=t, other=o):
                self.expr(c, scope)
                a, b = self.expr(t, scope), self.expr(o, scope)
                return a if a == b else "any"
        raise TypeError(e)  # pragma: no cover

    def _family_of(self, obj):
        """The zone or counter family an expression names (`station`, `p.accounts`), or None."""
        name = obj.name if isinstance(obj, (A.Name, A.Attr)) else None
        spec = self.n.zone_specs.get(name) or self.n.counters.get(name)
        return spec if spec is not None and spec.keys is not None else None

    def _want(self, got: str, want: str, node, what: str):
        if got in ("any", "none") or want == "any" or got == want:
            return
        if want == "list" and got in ("zone", "list", "table", "family", "counters"):
            return
        if want == "int" and got in ("int", "bool", "player"):
            return
        if want == "player" and got == "int":
            return
        self.fail(f"{what} must be {_article(want)}, but this is {_article(got)}", node)

    def _draw_counts(self, n, k, name):
        """What a draw's written numbers already say is wrong: a negative count, keeping more
        than is drawn, or a name for what `keep 0` keeps (nothing)."""
        drawn = n.value if isinstance(n, A.Num) else None
        kept = k.value if isinstance(k, A.Num) else None
        if drawn is not None and drawn < 0:
            self.fail(f"cannot draw {drawn} items", n)
        if kept is not None and kept < 0:
            self.fail(f"cannot keep {kept} items", k)
        if drawn is not None and kept is not None and kept > drawn:
            self.fail(f"cannot draw {drawn} and keep {kept}", k)
        if kept == 0 and name is not None:
            self.fail(f"`keep 0` keeps nothing for `as {name}` to name", k)

    # -- statements
    def block(self, block: A.Block, scope: dict):
        scope = dict(scope)
        for s in block.stmts:
            self.stmt(s, scope)

    def _counter_target(self, t, scope):
        if isinstance(t, A.Index) and self._family_of(t.obj) is not None and \
                self.expr(t, scope) == "int":
            return  # a member of a counter family: `accounts[a]`, `p.accounts["hr"]`
        if isinstance(t, A.Name) and self.n.kinds.get(t.name) in ("counter", "pcounter") \
                and t.name not in scope:
            self.used.add(t.name)
            return
        if isinstance(t, A.Attr) and t.name in self.n.counters and self.n.counters[t.name].per_player:
            self._want(self.expr(t.obj, scope), "player", t.obj, "the owner of a counter")
            self.used.add(t.name)
            return
        if isinstance(t, A.Attr) and t.name in self.n.fields and t.name not in ("kind", "owner",
                                                                                 "id"):
            obj = self.expr(t.obj, scope)
            if obj in ("int", "bool", "str", "zone", "list", "player"):
                self.fail(f"only an item's field can be set, and this is {_article(obj)}", t.obj)
            return
        if isinstance(t, A.Name) and t.name not in self.n.kinds and t.name not in scope \
                and t.name not in VALUES:
            self.fail(_unknown("counter", t.name, [k for k, v in self.n.kinds.items()
                                                   if v in ("counter", "pcounter")]), t)
        self.fail("only a counter can be set or added to (declare it under `counters:`)", t)

    def _payee(self, t, scope):
        """Who is paid: a counter (`bank`, `p.coins`, `accounts["hr"]`), or a player, who gains
        the amount in their counter of the same name."""
        target = A.counter_target(t)
        if target is not None and (target[1] in self.n.counters and (
                target[0] is None or self.n.counters[target[1]].per_player)) and \
                target[1] not in scope:
            self._counter_target(t, scope)
            return
        self._want(self.expr(t, scope), "player", t, "who is paid")

    def _zone(self, z, scope, what):
        t = self.expr(z, scope)
        if t == "family":
            self.fail(f"{what} must be one zone of the family: add its key, e.g. "
                      f"{A.expr_source(z)}[...]", z)
        if t not in ("zone", "any"):
            self.fail(f"{what} must be a zone, but this is {_article(t)}", z)

    def stmt(self, s, scope: dict):
        match s:
            case A.SetStmt(target=t, value=v) if A.sets_a_field(t, self.n.counters):
                self._counter_target(t, scope)
                if self.expr(v, scope) in ("zone", "family", "graph"):
                    self.fail("an item's field holds plain data (a number, text, true/false, "
                              "none, an item, a player or a list), not this", v)
            case A.SetStmt(target=t, value=v) | A.AddStmt(amount=v, target=t):
                self._counter_target(t, scope)
                self._want(self.expr(v, scope), "int", v, "the amount")
            case A.GainStmt(player=p, amount=a, counter=c, key=k):
                if p is not None:
                    self._want(self.expr(p, scope), "player", p, "who gains")
                spec = self.n.counters.get(c)
                if spec is None or not (spec.per_player or (spec.keys is not None and p is None)):
                    self.fail(_unknown("player counter", c, self.n.player_attrs) +
                              " (gain/lose/pay work on counters declared with `per: player`)", s)
                if (k is None) != (spec.keys is None):
                    self.fail(f"{c} is a family of counters: name one, e.g. {c}[{spec.keys[0]!r}]"
                              if k is None else f"{c} is one counter, not a family: drop [...]", s)
                if k is not None:
                    self.expr(A.Index(A.Name(c, pos=s.pos), k, pos=k.pos), scope)
                self.used.add(c)
                self._want(self.expr(a, scope), "int", a, "the amount")
                if s.verb == "transfer":
                    if spec.transfer is None:
                        self.fail(f"{c} declares no `transfer:` (its fee and the accounts money "
                                  "may come from)", s)
                    dest = A.counter_target(s.to)
                    if dest is None or dest[1] != c or dest[2] is None:
                        self.fail(f"a transfer goes to another member of {c}, e.g. {c}[...]",
                                  s.to)
                    self.expr(s.to, scope)
                elif s.to is not None:
                    self._payee(s.to, scope)
            case A.LetStmt(name=n, value=v):
                scope[n] = self.expr(v, scope)
                self.locals_seen.add(n)
            case A.MoveStmt(item=i, dest=d, position=n):
                self.expr(i, scope)
                self._zone(d, scope, "the destination of move")
                if n is not None:
                    self._want(self.expr(n, scope), "int", n, "the position")
            case A.DealStmt(count=c, source=src, dest=d):
                self._want(self.expr(c, scope), "int", c, "the number of items to deal")
                self._zone(src, scope, "the source of deal")
                self._zone(d, scope, "the destination of deal")
            case A.ShuffleStmt(zone=z):
                self._zone(z, scope, "what is shuffled")
            case A.RollStmt(sides=n, name=name):
                if n < 1:
                    self.fail("a die needs at least one side", s)
                scope[name] = "int"
            case A.RandomChooseStmt(name=name, source=src):
                self._want(self.expr(src, scope), "list", src, "what is chosen at random")
                scope[name] = "any"
                self.locals_seen.add(name)
            case A.SecretChooseStmt(among=among) if among is not None:
                self._want(self.expr(among, scope), "list", among, "the players who choose")
                self.param(s, dict(scope, **{s.var: "player"}))
                scope[s.name] = "list"
                self.locals_seen.update((s.name, s.var))
            case A.ChooseStmt() | A.SecretChooseStmt():
                self.param(s, scope)
                if getattr(s, "chooser", None) is not None:
                    self._want(self.expr(s.chooser, scope), "player", s.chooser, "who chooses")
                scope[s.name] = "list" if isinstance(s, A.SecretChooseStmt) or s.subsets else (
                    "int" if s.is_range else "any")
                self.locals_seen.add(s.name)
            case A.AuctionStmt(bidders=b, currency=cur, winner=w, price=pr, ties=t, history=hist):
                self._want(self.expr(b, scope), "list", b, "the bidders")
                if s.member is not None:   # a family's member: `paying accounts["sf"]`
                    if cur in self.n.counters and self.n.counters[cur].keys is None:
                        self.fail(f"counter {cur!r} is not a family: it has no members", s.member)
                    self.expr(A.Index(A.Name(cur, pos=s.pos), s.member, pos=s.member.pos), scope)
                elif cur in self.n.counters and self.n.counters[cur].keys is not None:
                    self.fail(f"counter {cur!r} is a family: name the member paid from, "
                              f"e.g. {cur}[{self.n.counters[cur].keys[0]!r}]", s)
                if t is not None:
                    self._want(self.expr(t, scope), "player", t, "who wins ties")
                if s.opener_bids is not None:
                    self._want(self.expr(s.opener_bids, scope), "bool", s.opener_bids,
                               "what follows `opener must bid if`")
                if cur not in self.n.counters or not self.n.counters[cur].per_player:
                    self.fail(_unknown("player counter", cur, self.n.player_attrs) +
                              " (an auction is paid from a counter declared with `per: player`)", s)
                self.used.add(cur)
                scope[w], scope[pr] = "player", "int"
                self.locals_seen.update((w, pr))
                if hist is not None:
                    scope[hist] = "list"
                    self.locals_seen.add(hist)
            case A.PlaceStmt(item=i, zone=z, row=r, column=col):
                self.expr(i, scope)
                self._zone(z, scope, "where an item is placed")
                if isinstance(z, A.Name) and z.name in self.n.zone_specs and \
                        self.n.zone_specs[z.name].grid is None:
                    self.fail(f"zone {z.name!r} has no grid: declare `grid: {{rows: R, columns: C}}`"
                              " to place items on cells", z)
                self._want(self.expr(r, scope), "int", r, "the row")
                self._want(self.expr(col, scope), "int", col, "the column")
            case A.DoStmt(action=a, player=p, times=t, args=args):
                self.do_target(a, s.value, s.mode, args, s, scope)
                if s.otherwise is not None:
                    self.stmt(s.otherwise, dict(scope))
                if p is not None:
                    self._want(self.expr(p, scope), "player", p, "who does the action")
                if t is not None:
                    self._want(self.expr(t, scope), "int", t, "the number of times")
            case A.DrawStmt(count=n, source=src, dest=d, keep=k, name=name, cond=c):
                self._want(self.expr(n, scope), "int", n, "the number of items to draw")
                if s.any_of:
                    piles = self.expr(src, scope)
                    if piles == "zone":
                        self.fail("`any of` needs a list of piles, but this is a zone", src)
                    self._want(piles, "list", src, "the piles drawn from")
                else:
                    self._zone(src, scope, "the pile drawn from")
                self._zone(d, scope, "where drawn items go")
                self._want(self.expr(k, scope), "int", k, "the number of items kept")
                self._draw_counts(n, k, name)
                if name is not None:
                    scope[name] = "any"
                    self.locals_seen.add(name)
                if c is not None:
                    self.expr(c, scope)
            case A.SearchStmt(zone=z, name=name, cond=c, searcher=who, body=b, other=other):
                self._zone(z, scope, "what is searched")
                if who is not None:
                    self._want(self.expr(who, scope), "player", who, "who searches")
                inner = dict(scope, **{name: "any"})
                self.locals_seen.add(name)
                if c is not None:
                    self.expr(c, inner)
                self.block(b, inner)
                if other is not None:
                    self.block(other, scope)
            case A.PeekStmt(items=i, player=p):
                self.expr(i, scope)
                if p is not None:
                    self._want(self.expr(p, scope), "player", p, "who looks")
            case A.ControlStmt() | A.LogStmt():
                pass
            case A.IfStmt(branches=branches, other=other):
                for cond, body in branches:
                    self.expr(cond, scope)
                    self.block(body, scope)
                if other is not None:
                    self.block(other, scope)
            case A.ForEachStmt(var=v, source=src, body=b):
                self._want(self.expr(src, scope), "list", src, "a `for each` source")
                self.locals_seen.add(v)
                inner = dict(scope)
                inner[v] = "player" if _is_players(src) else "any"
                self.block(b, inner)
            case A.RepeatStmt(count=c, body=b):
                self._want(self.expr(c, scope), "int", c, "the number of repeats")
                self.block(b, scope)
            case A.WhileStmt(cond=c, body=b):
                self.expr(c, scope)
                self.block(b, scope)
            case _:  # pragma: no cover
                raise TypeError(s)

    def param(self, p, scope, what: str = "what is chosen from"):
        if getattr(p, "is_range", False):
            lo, hi = p.source
            self._want(self.expr(lo, scope), "int", lo, "the lowest choice")
            self._want(self.expr(hi, scope), "int", hi, "the highest choice")
            inner = dict(scope, **{p.name: "int"})
        else:
            t = self.expr(p.source, scope)
            self._want(t, "list", p.source, what)
            kind = "list" if getattr(p, "subsets", False) else (
                "player" if _is_players(p.source) else "any")
            inner = dict(scope, **{p.name: kind})
        if p.cond is not None:
            self.expr(p.cond, inner)
        return inner

    def action(self, action: Action):
        scope = {t: "any" for t in action.takes}
        for lim in action.limits:
            self._want(self.expr(lim.times, {}), "int", lim.times, "a use limit")
            if isinstance(lim.times, A.Num) and lim.times.value < 0:
                self.fail(f"a use limit is a number of times, 0 or more, not {lim.times.value}",
                          lim.times)
            if lim.cond is not None:
                self._want(self.expr(lim.cond, {}), "bool", lim.cond, "a limit's `if:`")
        if action.param is not None:
            scope = self.param(action.param, scope)
            self.locals_seen.add(action.param.name)
        self.locals_seen.update(action.takes)
        if action.requires is not None:
            self.expr(action.requires, scope)
        if action.cost is not None:
            self.cost(action.cost, scope)
        self.block(action.effect, scope)

    def cost(self, cost, scope):
        source = A.counter_target(cost.source)
        if source is None or source[1] not in self.n.counters or source[1] in scope:
            self.fail(f"a cost is paid from a counter (`coins`, `accounts[\"rd\"]`), not "
                      f"{A.expr_source(cost.source)}", cost.source)
        self._counter_target(cost.source, scope)
        for part in cost.parts:
            self._want(self.expr(part.amount, scope), "int", part.amount, f"cost part {part.name}")
            if part.to is not None:
                self._payee(part.to, scope)
        for name, amount in cost.discounts:
            self._want(self.expr(amount, scope), "int", amount, f"the discount on {name}")

    def steps(self, steps, scope):
        for s in steps:
            match s:
                case DoStep(block=b):
                    self.block(b, scope)
                case PhaseStep(steps=sub, free_if=free_if):
                    if free_if is not None:
                        self.expr(free_if, scope)
                    self.steps(sub, scope)
                case RepeatStep(count=c, var=v, steps=sub):
                    self._want(self.expr(c, scope), "int", c, "the number of repeats")
                    self.steps(sub, dict(scope, **({v: "int"} if v else {})))
                case LoopStep(cond=c, steps=sub):
                    self.expr(c, scope)
                    self.steps(sub, scope)
                case IfStep(cond=c, steps=sub, other=other):
                    self.expr(c, scope)
                    self.steps(sub, scope)
                    self.steps(other, scope)
                case TurnsStep():
                    self._want(self.expr(s.first, scope), "player", s.first, "the first player")
                    if s.order_list is not None:
                        self._want(self.expr(s.order_list, scope), "list", s.order_list,
                                   "the turn order")
                    if s.per_turn is not None:
                        self._want(self.expr(s.per_turn, scope), "int", s.per_turn,
                                   "actions per turn")
                        if isinstance(s.per_turn, A.Num) and s.per_turn.value < 1:
                            raise ResolveError("a turn has at least 1 action: per_turn is "
                                               f"{s.per_turn.value}", s.per_turn.pos)
                    if s.until_cond is not None:
                        self.expr(s.until_cond, scope)
                    if s.until_round is not None:
                        self.expr(s.until_round, scope)


def _is_players(e) -> bool:
    return (isinstance(e, A.Name) and e.name in ("players", "others")) or (
        isinstance(e, A.Call) and e.func in ("players_from", "others_of"))


def _article(t: str) -> str:
    words = {"int": "a number", "bool": "a condition", "str": "a string", "zone": "a zone",
             "list": "a list", "player": "a player", "table": "a table", "none": "nothing",
             "any": "a value", "item": "an item"}
    return words.get(t, t)


# The parser (and Lark) load on first use: a game that comes from the cache is never parsed.
def parse_block(source, path):
    from .parser import parse_block as parse

    return parse(source, path)


def parse_expression(source, path):
    from .parser import parse_expression as parse

    return parse(source, path)


def parse_param(source, path):
    from .parser import parse_param as parse

    return parse(source, path)
