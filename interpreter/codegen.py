"""Rules of a checked game compiled to Python source: one module per game.

The technique of Jinja2 and of attrs: generate source, then compile it. It is safe only under
rules that make the game's text unable to reach the code (docs/security.md):
- the source comes from the checked syntax tree only, node class by node class;
- no text of a game file is spliced in: functions get names from a fixed scheme (`e12`, `e12_3`,
  `b4`, `formula2`, `choice3`), so do their temporaries (`t7`); every string and number is a `repr()`
  literal, positions are indexes into a table `P`, the zones, tables and graphs a rule names are
  entries of a table `K`, and the `file:line` comment above each function is ASCII-escaped (no
  line break can enter);
- the result is verified (interpreter/codecheck.py) before it is compiled and run.

What is generated: each block of statements the compiler compiles (an action's effect, a
trigger's, a flow step's `do:`), with `let`, `if`, `for each`, `repeat`, `move` and the control
statements written out and any other statement called as its closure (`S[3](c)`, or `yield from`
it when it can ask something); each listing of a choice's legal values (a loop over the pool,
its `where`, and an action's `requires:` that reads the chosen value, inline); and each
expression site that is not part of a generated block.
Expressions do the common case in plain Python (an item's field, a list indexed by a whole number,
int + int, a comparison of two ints, `count` of a zone, its `top`) and fall back to the runtime
(interpreter/coderuntime.py) for anything else, which says and charges exactly what the closures
of interpreter/compile.py do: a generated function and its closure agree, errors and positions
included. A part that must run later or inside an error handler (the branch of `otherwise`, the
arguments a built-in's error covers) is a function of its own, named after its site; so is each
comprehension, written out as a loop. A formula is a function of the context and its arguments
(`formula2(c, t7)`, no context of its own per call), unless such a part of its body reads them:
the runtime calls those with a context alone, so the formula then gets one holding them.
"""
from __future__ import annotations

from meeplang.dsl import ast as A
from meeplang.dsl.errors import RuleError
from meeplang.dsl.limits import MAX_INT
from meeplang.dsl.model import Action

from .compile import Compiled, name_kinds

# Bounds on what a game's rules may generate, refused at the rule (`meeplang check` generates the
# module): far above the bundled games (largest function 5,715 characters, New Eden's; largest
# module 294,954, Thesauros: Lawless!'s; loops nested 2 deep, blocks 4), far below what Python cannot
# compile (20 loops nested in one function: "too many statically nested blocks"; 100 levels of
# indentation) or compiles only with gigabytes (a module of 22.9 MB took 4 GB).
MAX_FUNCTION_CHARS = 100_000  # one generated function: a block of statements, an expression site
MAX_MODULE_CHARS = 4_000_000  # a game's whole module
MAX_LOOP_NESTING = 16  # `for each` and `repeat` inside one another in one rule
MAX_BLOCK_NESTING = 50  # blocks (`if`, `for each`, `repeat`) inside one another in one rule

_ORDER_OPS = ("<", "<=", ">", ">=")
_DIVIDE_OPS = ("//", "%", "/")
_ENDS = {"top": 0, "first": 0, "bottom": -1, "last": -1}  # built-ins written out: the index read
_FLUSH = ("if c.eng.pending_now or c.eng.watching_now:", "    yield from c.eng.flush_now(c)")


class Generated:
    """A game's generated module: its source, the positions its functions report errors at
    (`P[i]`), the declared things it reads (`K[i]`: (kind, name)), the function of each expression
    site and of each block (by the node's id) and the statements it calls as closures (id -> i in
    `S`)."""

    __slots__ = ("source", "positions", "constants", "names", "blocks", "fallbacks", "listings")

    def __init__(self, source: str, positions: tuple, constants: tuple, names: dict,
                 blocks: dict, fallbacks: dict, listings: dict):
        self.source, self.positions, self.constants = source, positions, constants
        self.names, self.blocks, self.fallbacks = names, blocks, fallbacks
        self.listings = listings  # a choice's node, or an action's, -> its listing's function


class Recording:
    """What the compiler compiles for a game (it reports through Compiled's hooks): every
    expression with the local names in scope there, every block with whether it is a generator,
    and whether each statement is, and every listing of a choice's legal values (a choice's
    node, or an action's whose `requires:` reads its chosen value). `prog` is that compiled
    program."""

    def __init__(self, game):
        self.exprs: dict[int, tuple] = {}  # id -> (expression, frozenset of local names)
        self.blocks: dict[int, tuple] = {}  # id -> (block, is generator), inner blocks first
        self.stmt_gen: dict[int, bool] = {}
        self.listings: dict[int, object] = {}  # id -> a choice's node or an action
        self.prog = Compiled(game, expr_hook=self.expr, block_hook=self.block,
                             listing_hook=self.listing)

    def expr(self, e, scope, fn):
        self.exprs.setdefault(id(e), (e, frozenset(scope)))
        return fn

    def block(self, block, parts, compiled):
        self.blocks.setdefault(id(block), (block, compiled[1]))
        for s, (_, is_gen) in zip(block.stmts, parts):
            self.stmt_gen.setdefault(id(s), is_gen)
        return compiled

    def listing(self, node, scope, fn):
        self.listings.setdefault(id(node), node)
        return fn

    def sites(self) -> list[tuple]:
        """Every expression compiled on its own (not as part of a larger one): [(e, scope)]."""
        inner = {id(n) for e, _ in self.exprs.values() for n in A.walk(e) if n is not e}
        return [site for key, site in self.exprs.items() if key not in inner]


def expression_sites(game) -> list[tuple]:
    """Every expression site of a game, with the local names in scope there."""
    return Recording(game).sites()


def generate(game, recording: Recording | None = None, every_site: bool = False) -> Generated:
    """The module of a game: its blocks, then the expression sites they do not hold (with
    `every_site`, all of them: the differential test pairs each with its closure)."""
    rec = Recording(game) if recording is None else recording
    gen = _Generator(game, rec)
    inlined: set[int] = set()
    for key, (block, _) in reversed(rec.blocks.items()):  # outer blocks first
        if key not in inlined and block.stmts:
            gen.block_function(block)
            inlined |= gen.inlined_blocks
    for node in rec.listings.values():
        gen.listing(node)
    for e, scope in rec.sites():
        if every_site or id(e) not in gen.inlined_exprs:
            gen.site(e, scope)
    return gen.module()


def where(pos) -> str:
    """A position for a comment: `file:line`, ASCII-escaped so that no character of a file name
    can end the comment."""
    return ascii(f"{pos.path}:{pos.line}")[1:-1]


def _local_names(rec: Recording) -> frozenset:
    """Every name that is local somewhere in the game (a `do NAME` may name a local holding an
    action): in scope at an expression, or bound by a statement."""
    names = set().union(*(scope for _, scope in rec.exprs.values()))
    for block, _ in rec.blocks.values():
        for n in A.walk(block):
            names.update(getattr(n, field) for field in ("name", "var", "winner", "price",
                                                          "history")
                         if isinstance(getattr(n, field, None), str))
    return frozenset(names)


def _put_back(var: str, saved: str) -> list[str]:
    """A rule's local as it was before a loop bound it (`saved`: its value, or MISSING if it had
    none; `var`: its name's literal)."""
    return [f"if {saved} is not MISSING:", f"    c.v[{var}] = {saved}", f"elif {var} in c.v:",
            f"    del c.v[{var}]"]


def _int_literal(e) -> bool:
    return isinstance(e, A.Num) and type(e.value) is int


class _Generator:
    def __init__(self, game, rec: Recording):
        self.g, self.rec = game, rec
        self.kinds = name_kinds(game)
        self.immediate = any(t.immediate for t in game.triggers)
        self.defs: list[str] = []
        self.positions: list = []
        self.pos_index: dict = {}
        self.constants: dict[tuple, int] = {}
        self.names: dict[int, str] = {}
        self.blocks: dict[int, str] = {}
        self.fallbacks: dict[int, int] = {}
        self.listings: dict[int, str] = {}
        self.formulas: dict[str, tuple[str, bool]] = {}  # name -> (function, takes arguments?)
        self.formula_defs: list[str] = []
        self.formula_count = 0
        self.args: dict[str, str] = {}  # a formula's parameters -> the function's arguments
        self.needs_context = False  # has a formula's body a part that reads them from `c.v`?
        self.inlined_blocks: set[int] = set()
        self.inlined_exprs: set[int] = set()
        self.prefix, self.subs, self.temps = "", 0, 0
        self.yields = False  # has the block being written a `yield` yet?
        self.local_names = _local_names(rec)
        self.gain_targets = {(t.event, t.target) for t in game.triggers if t.event == "gain"}
        self.size = 0  # characters of the module so far
        self.loops = 0  # loops open around the statement being written

    def module(self) -> Generated:
        head = "# Meeplang rules of one game, generated by interpreter/codegen.py\n"
        constants = tuple(sorted(self.constants, key=self.constants.__getitem__))
        return Generated(head + "".join(self.formula_defs + self.defs), tuple(self.positions),
                         constants, dict(self.names), dict(self.blocks), dict(self.fallbacks),
                         dict(self.listings))

    # ------------------------------------------------------------ functions
    def site(self, e, scope) -> str:
        name = self.names.get(id(e))
        if name is None:
            name = self.names[id(e)] = f"e{len(self.names)}"
            self.prefix, self.subs = name, 0
            self.function(name, e.pos, self.x(e, scope))
        return name

    def define(self, name: str, pos, lines: list, args: tuple = ()) -> None:
        body = "".join(f"    {line}\n" for line in lines)
        if len(body) > MAX_FUNCTION_CHARS:
            raise RuleError(f"this rule makes {len(body):,} characters of Python, more than the "
                            f"{MAX_FUNCTION_CHARS:,} one rule may: split it (a formula, an action "
                            "done with `do`)", pos)
        self.size += len(body)
        if self.size > MAX_MODULE_CHARS:
            raise RuleError(f"the rules make more than {MAX_MODULE_CHARS:,} characters of Python "
                            "by this one: the game is too large to run", pos)
        self.defs.append(f"\n# {where(pos)}\ndef {name}({', '.join(('c',) + args)}):\n{body}")

    def function(self, name: str, pos, expr: str) -> None:
        self.define(name, pos, [f"return {expr}"])

    def sub_name(self) -> str:
        self.subs += 1
        return f"{self.prefix}_{self.subs}"

    def lazy(self, body: str, pos) -> str:
        """A part computed later, or inside a runtime function's error handling: a function of its
        own, named after its site. The runtime calls it with the context alone, so a formula's
        body that has one reads its parameters from a context of its own (see `formula`)."""
        if self.args:
            self.needs_context = True
        name = self.sub_name()
        self.function(name, pos, body)
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def at(self, pos) -> str:
        i = self.pos_index.get(pos)
        if i is None:
            i = self.pos_index[pos] = len(self.positions)
            self.positions.append(pos)
        return f"P[{i}]"

    def constant(self, kind: str, name: str) -> str:
        i = self.constants.setdefault((kind, name), len(self.constants))
        return f"K[{i}]"

    def formula(self, name: str) -> tuple[str, bool]:
        """A formula's function -> (its name, whether it takes the arguments as its own): a
        plain function of the context and the arguments (`formula3(c, t1, t2)`, the parameters
        read as Python locals), unless a part of its body is a function the runtime calls with
        the context alone: then `formula3(c)` of a context holding them, as the closure does."""
        known = self.formulas.get(name)
        if known is not None:
            return known
        f = self.g.formulas[name]
        fn = f"formula{self.formula_count}"
        self.formula_count += 1
        saved = self.prefix, self.subs, self.args, self.needs_context, self.defs
        for args in ({p: self.temp() for p in f.params}, {}):
            self.prefix, self.subs, self.args, self.needs_context = fn, 0, args, False
            self.defs = []  # this formula's functions only: a formula it calls keeps its own
            body = self.x(f.body, set(f.params))
            if not self.needs_context:
                break
        self.define(fn, f.body.pos, [f"return {body}"], tuple(self.args.values()))
        self.formula_defs.extend(self.defs)
        known = self.formulas[name] = (fn, bool(self.args) or not f.params)
        self.prefix, self.subs, self.args, self.needs_context, self.defs = saved
        return known

    def listing(self, node) -> None:
        """`def choiceN(c)`: the legal values of a choice, as compile.options_fn lists them (the
        pool charged, the variable bound in `c.v` for each value and put back, the `where`
        inline); for an action whose `requires:` reads the chosen value (node: the action),
        then those of them that meet it, as CompiledAction.meeting."""
        name = self.listings[id(node)] = f"choice{len(self.listings)}"
        self.prefix, self.subs = name, 0
        p, requires = (node.param, node.requires) if isinstance(node, Action) else (node, None)
        at, var = self.at(p.pos), repr(p.name)
        lines: list[str] = []
        if p.cond is not None:
            saved = self.temp()
            lines.append(f"{saved} = c.v[{var}] if {var} in c.v else MISSING")
        if p.is_range:
            lo, hi = p.source
            pool = (f"number_options(need_int({self.ex(lo)}, 'the lowest choice', {at}), "
                    f"need_int({self.ex(hi)}, 'the highest choice', {at}), 'a choice', {at})")
        else:
            pool = f"need_items(c, {self.ex(p.source)}, 'what is chosen from', {at})"
            if p.subsets:
                pool = f"subsets_of({pool}, {at})"
        tests = [] if p.cond is None else [self.ex(p.cond)]
        if requires is not None:  # also an expression site of its own: read, not inlined
            tests.append(self.x(requires, self.rec.exprs[id(requires)][1]))
        values = self.temp()
        lines.append(f"{values} = {pool}")
        for i, test in enumerate(tests):
            out, x = self.temp(), self.temp()
            lines += [f"{out} = []", f"for {x} in {values}:", f"    c.v[{var}] = {x}",
                      f"    if {test}:", f"        {out}.append({x})"]
            if i == 0 and p.cond is not None:
                lines += _put_back(var, saved)
            values = out
        lines.append(f"return {values}")
        self.define(name, p.pos, lines)

    # ------------------------------------------------------------ statements
    def block_function(self, block) -> None:
        """`def bN(c)`: a block as the compiler compiles it (a generator function exactly when
        its closure is one), its statements written out or called as closures."""
        name = self.blocks[id(block)] = f"b{len(self.blocks)}"
        self.prefix, self.subs = name, 0
        self.inlined_blocks, self.yields, self.loops = set(), False, 0
        lines: list[str] = []
        self.statements(block, lines, "")
        assert self.yields == self.rec.blocks[id(block)][1], "a generator exactly when the closure is"
        self.define(name, block.stmts[0].pos, lines)

    def statements(self, block, out: list, ind: str) -> None:
        if not block.stmts:
            out.append(ind + "pass")
        if len(ind) > 4 * MAX_BLOCK_NESTING:
            raise RuleError(f"blocks nested more than {MAX_BLOCK_NESTING} deep in one rule: "
                            "split it (an action done with `do`)", block.stmts[0].pos)
        for s in block.stmts:
            write = getattr(self, "s_" + type(s).__name__, None)
            if write is None:
                self.closure(s, out, ind)
            else:
                write(s, out, ind)
            if self.immediate:  # as compile.run_flushing: `timing: immediately` triggers
                out.extend(ind + line for line in _FLUSH)
                self.yields = True

    def body(self, block, out: list, ind: str) -> None:
        """A block written out inside the statement that holds it."""
        self.inlined_blocks.add(id(block))
        self.statements(block, out, ind + "    ")

    def closure(self, s, out: list, ind: str) -> None:
        """A statement the generator does not write out: its closure, from the table `S`."""
        i = self.fallbacks.setdefault(id(s), len(self.fallbacks))
        is_gen = self.rec.stmt_gen[id(s)]
        self.yields = self.yields or is_gen
        out.append(f"{ind}{'yield from ' if is_gen else ''}S[{i}](c)")

    def ex(self, e) -> str:
        """An expression site of a statement written out: inline, in that statement's scope."""
        self.inlined_exprs.add(id(e))
        return self.x(e, self.rec.exprs[id(e)][1])

    def s_LetStmt(self, s, out, ind):
        out.append(f"{ind}c.v[{s.name!r}] = {self.ex(s.value)}")

    def s_IfStmt(self, s, out, ind):
        for i, (cond, block) in enumerate(s.branches):
            out.append(f"{ind}{'elif' if i else 'if'} {self.ex(cond)}:")
            self.body(block, out, ind)
        if s.other is not None:
            out.append(f"{ind}else:")
            self.body(s.other, out, ind)

    def s_ForEachStmt(self, s, out, ind):
        at, t = self.at(s.pos), self.temp()
        src = self.ex(s.source)
        # as compile.s_ForEachStmt: a zone is copied (and not charged) unless the body can ask
        if self.rec.blocks[id(s.body)][1]:
            pool = f"need_items(c, {src}, 'what `for each` goes through', {at})"
        else:
            pool = f"each_pool(c, {src}, {at})"
        out.extend([f"{ind}for {t} in {pool}:", f"{ind}    c.eng.tick({at})",
                    f"{ind}    c.v[{s.var!r}] = {t}"])
        self.loop_body(s, out, ind)

    def s_RepeatStmt(self, s, out, ind):
        at, t = self.at(s.pos), self.temp()
        out.extend([f"{ind}for {t} in repeats({self.ex(s.count)}, {at}):",
                    f"{ind}    c.eng.tick({at})"])
        self.loop_body(s, out, ind)

    def loop_body(self, s, out: list, ind: str) -> None:
        """The body of a loop written out, within the loops Python can nest."""
        if self.loops == MAX_LOOP_NESTING:
            raise RuleError(f"loops nested more than {MAX_LOOP_NESTING} deep in one rule: split "
                            "it (the inner loops in an action done with `do`)", s.pos)
        self.loops += 1
        self.body(s.body, out, ind)
        self.loops -= 1

    def s_MoveStmt(self, s, out, ind):
        if s.position is not None:
            self.closure(s, out, ind)
            return
        out.append(f"{ind}move(c, {self.ex(s.item)}, {self.ex(s.dest)}, {s.place == 'top'!r}, "
                   f"{self.at(s.pos)}, {bool(s.gravity)!r})")

    def s_DoStmt(self, s, out, ind):
        """`do NAME [for P] [with ...]` once, as the closure does it: whose turn, then the
        arguments, then one step of work and the action. Anything more (times, `else`, an action
        held in a value or a local) is left to the closure."""
        if (s.times is not None or s.value is not None or s.otherwise is not None or
                s.action not in self.g.actions or s.action in self.local_names):
            self.closure(s, out, ind)
            return
        at, who, bound = self.at(s.pos), self.temp(), self.temp()
        player = self.ex(s.player) if s.player is not None else "c.you"
        args = "{" + ", ".join(f"{n!r}: {self.ex(x)}" for n, x in s.args) + "}"
        out.extend([f"{ind}{who} = {player}", f"{ind}{bound} = {args}", f"{ind}c.eng.tick({at})",
                    f"{ind}yield from c.eng.do_action({s.action!r}, {who}, {at}, "
                    f"{bool(s.optional)!r}, {bound})"])
        self.yields = True

    def counter(self, target, out, ind) -> tuple | None:
        """A counter target written out (`coins`, `bank`, `p.coins`): emits its holder into a
        temporary, whose seat first (checked as compile._counter_setter checks it) ->
        (holder, owner, spec), or None when the closure should do it (a family member, an item's
        field, a track or a counter with `gain of` triggers)."""
        target_of = A.counter_target(target)
        if isinstance(target, A.Index) or A.sets_a_field(target, self.g.counters) or (
                target_of is None or target_of[1] not in self.g.counters):
            return None
        spec = self.g.counters[target_of[1]]
        if spec.keys is not None or spec.track is not None or (
                "gain", spec.name) in self.gain_targets:
            return None
        holder = self.temp()
        if isinstance(target, A.Attr):
            owner = self.temp()
            out.append(f"{ind}{owner} = seat(c, {self.ex(target.obj)}, {self.at(target.pos)})")
        else:
            owner = "c.you" if spec.per_player else "None"
        h = "c.s['counters']" if owner == "None" else f"c.s['players'][{owner}]"
        out.append(f"{ind}{holder} = {h}")
        return holder, owner, spec

    def bounded(self, value: str, spec, owner: str, at: str) -> str:
        """A counter's new value, within its bounds; else compile's bounder (clamp, overflow,
        or its error) through the runtime's `bound`."""
        t = self.temp()
        lo = spec.min if spec.min is not None else -MAX_INT  # no number beyond ±10**18
        hi = spec.max if spec.max is not None else MAX_INT
        tests = [f"type({t} := {value}) is int", f"{lo!r} <= {t}", f"{t} <= {hi!r}"]
        return f"({t} if {' and '.join(tests)} else bound(c, {spec.name!r}, {t}, {owner}, {at}))"

    def whole(self, e, what: str, at: str) -> str:
        """`need_int` of an expression, the int itself without a call."""
        if _int_literal(e):
            self.inlined_exprs.add(id(e))
            return f"({e.value!r})"
        t = self.temp()
        return f"({t} if type({t} := {self.ex(e)}) is int else need_int({t}, {what!r}, {at}))"

    def s_SetStmt(self, s, out, ind):
        if isinstance(s.target, A.Attr) and A.sets_a_field(s.target, self.g.counters):
            # an item's field: the item checked before the value is computed, as the closure does
            # (its data read here when it is one); a plain value set here, unless a rehearsal
            # must note what it changes: then, or for any other value, by the runtime
            data, at, n = self.temp(), self.at(s.target.pos), repr(s.target.name)
            x, items, v = self.temp(), self.temp(), self.temp()
            out.extend([f"{ind}{data} = ({items}[{x}] if type({x} := {self.ex(s.target.obj)}) "
                        f"is str and {x} in ({items} := c.s['items']) "
                        f"else item_data(c, {x}, {n}, {at}))",
                        f"{ind}if (({v} := {self.ex(s.value)}) is None or type({v}) in "
                        f"(int, bool, str)) and not c.eng.rehearsing:",
                        f"{ind}    {data}[{n}] = {v}", f"{ind}else:",
                        f"{ind}    set_field(c, {data}, {n}, {v}, {at})"])
            return
        lines: list[str] = []
        place = self.counter(s.target, lines, ind)
        if place is None:
            self.closure(s, out, ind)
            return
        holder, owner, spec = place
        out.extend(lines)
        value = self.bounded(self.ex(s.value), spec, owner, self.at(s.pos))
        out.append(f"{ind}{holder}[{spec.name!r}] = {value}")

    def s_AddStmt(self, s, out, ind):
        lines: list[str] = []
        place = self.counter(s.target, lines, ind)
        if place is None:
            self.closure(s, out, ind)
            return
        holder, owner, spec = place
        out.extend(lines)
        at, name = self.at(s.pos), repr(spec.name)
        amount = self.whole(s.amount, "the amount", at)
        value = f"{holder}[{name}] {'+' if s.sign > 0 else '-'} {amount}"
        out.append(f"{ind}{holder}[{name}] = {self.bounded(value, spec, owner, at)}")

    def s_GainStmt(self, s, out, ind):
        """`gain N coins`, `p gains N coins`: as compile.s_GainStmt without held items' bonus
        (those, a payment, a loss, a family member are left to the closure)."""
        spec = self.g.counters.get(s.counter) or self.g.family(s.counter)
        if (s.verb != "gain" or s.key is not None or s.to is not None or spec.track is not None
                or ("gain", spec.name) in self.gain_targets or spec.keys is not None or
                ("bonus", s.counter) in self.rec.prog.abilities):
            self.closure(s, out, ind)
            return
        at, name, who, n, holder = (self.at(s.pos), repr(s.counter), self.temp(), self.temp(),
                                    self.temp())
        player = f"seat(c, {self.ex(s.player)}, {at})" if s.player is not None else "c.you"
        out.extend([f"{ind}{who} = {player}",
                    f"{ind}{n} = {self.whole(s.amount, 'the amount', at)}",
                    f"{ind}if {n} < 0:",
                    f"{ind}    negative(c, 'gain', {name}, {n}, {at})",
                    f"{ind}{holder} = c.s['players'][{who}]",
                    f"{ind}{holder}[{name}] = "
                    f"{self.bounded(f'{holder}[{name}] + {n}', spec, who, at)}"])

    def s_ControlStmt(self, s, out, ind):
        out.append(f"{ind}control(c, {s.what!r}, {self.at(s.pos)})")

    # ------------------------------------------------------------ expressions
    def x(self, e, scope) -> str:
        """The Python expression computing `e` from the context `c`."""
        return getattr(self, "x_" + type(e).__name__)(e, scope)

    def x_Num(self, e, scope) -> str:
        return f"({e.value!r})"

    x_Str = x_Const = x_Num

    def x_Name(self, e, scope) -> str:
        name = e.name
        n = repr(name)
        if name in scope:
            return self.args.get(name) or f"c.v[{n}]"
        kind = self.kinds.get(name)
        if kind in ("option",):
            return f"c.eng.opts[{n}]"
        if kind in ("table", "zone", "family"):
            return self.constant(kind, name)
        if name in self.g.graphs:
            return self.constant("graph", name)
        simple = {"counter": f"c.s['counters'][{n}]", "pcounter": f"c.s['players'][c.you][{n}]",
                  "counters": f"counter_family(c, {n}, False)",
                  "pcounters": f"counter_family(c, {n}, True)"}
        if kind in simple:
            return simple[kind]
        if kind in ("pzone", "pfamily"):  # yours, of the zones (or families) of each seat
            return f"{self.constant('seats', name)}[c.you]"
        builtin = {"you": "c.you", "players": "players(c)", "others": "others(c)",
                   "player_count": "c.eng.n", "passers": "passers(c)"}
        if name in builtin:
            return builtin[name]
        if name in self.g.actions:
            return n
        raise RuleError(f"unknown name {name!r}", e.pos)  # the checker prevents this

    def x_Attr(self, e, scope) -> str:
        obj, n, at = self.x(e.obj, scope), repr(e.name), self.at(e.pos)
        t, d = self.temp(), self.temp()
        if e.name in self.g.item_fields:  # an item's field: the items' table, read here
            return (f"({d}[{n}] if type({t} := {obj}) is str and {t} in ({d} := c.s['items']) "
                    f"and {n} in ({d} := {d}[{t}]) else field(c, {t}, {n}, {at}))")
        counter, zone = self.g.counters.get(e.name), self.g.zones.get(e.name)
        if counter is not None and counter.per_player and counter.keys is None:
            fast = f"c.s['players'][{t}][{n}]"  # a seat's counter (as compile's from_player)
        elif counter is None and zone is not None and zone.per_player:
            fast = f"{self.constant('seats', e.name)}[{t}]"  # a seat's zone (or family)
        else:
            return f"player_attr(c, {obj}, {n}, {at})"
        return (f"({fast} if type({t} := {obj}) is int and 0 <= {t} < c.eng.n "
                f"else player_attr(c, {t}, {n}, {at}))")

    def both_ints(self, left, right, scope) -> tuple[str, str, str]:
        """(a, b, test): the two sides of an operator, each computed once and in order (the `&`
        does not stop at the first), and the test that both are ints (a literal needs none)."""
        sides, tests = [], []
        for side in (left, right):
            if _int_literal(side):
                sides.append(f"({side.value!r})")
            else:
                t = self.temp()
                sides.append(t)
                tests.append(f"(type({t} := {self.x(side, scope)}) is int)")
        return sides[0], sides[1], " & ".join(tests) or "True"

    def x_Index(self, e, scope) -> str:
        if self._family(e.obj, scope):
            return f"member_value{self._member_args(e, scope)}"
        o, at = self.temp(), self.at(e.pos)
        obj = self.x(e.obj, scope)
        zones = self._zone_family(e.obj, scope)
        if zones is not None:  # `station[arm]`, `p.station["crab"]`: the member, if a key
            k, members = self.temp(), self.constant("members", zones)
            return (f"({members}[{o}.owner][{k}] if (type({o} := {obj}) is FamilyRef) & "
                    f"(type({k} := {self.x(e.key, scope)}) in (str, int)) and "
                    f"{k} in {members}[{o}.owner] else index(c, {o}, {k}, {at}))")
        if _int_literal(e.key) and e.key.value >= 0:
            k = repr(e.key.value)
            return (f"({o}[{k}] if type({o} := {obj}) is list and {k} < len({o}) "
                    f"else index(c, {o}, {k}, {at}))")
        k = self.temp()
        return (f"({o}[{k}] if (type({o} := {obj}) is list) & (type({k} := "
                f"{self.x(e.key, scope)}) is int) and 0 <= {k} < len({o}) "
                f"else {o}[{k}] if type({o}) is dict and type({k}) is int and {k} in {o} "
                f"else index(c, {o}, {k}, {at}))")

    def _zone_family(self, e, scope) -> str | None:
        """The zone family `e` names (`station`, `p.station`, `market_row`), if it names one."""
        if isinstance(e, A.Name) and e.name not in scope and self.kinds.get(e.name) in (
                "family", "pfamily"):
            return e.name
        if isinstance(e, A.Attr) and e.name not in self.g.item_fields and \
                e.name not in self.g.counters:
            zone = self.g.zones.get(e.name)
            if zone is not None and zone.per_player and zone.keys is not None:
                return e.name
        return None

    def _family(self, e, scope) -> bool:
        """Does `e` name a counter family or a family of tracks (`accounts`, `p.attribute`)? As
        compile.family_of."""
        if isinstance(e, (A.Name, A.Attr)) and not (isinstance(e, A.Name) and e.name in scope):
            return self.g.family(e.name) is not None
        return False

    def _member_args(self, e, scope) -> str:
        """`(c, family, key, whose, pos, whose pos)` for `accounts[a]` / `p.accounts[a]`."""
        who, who_at = "None", "None"
        if isinstance(e.obj, A.Attr):
            who, who_at = self.lazy(self.x(e.obj.obj, scope), e.obj.pos), self.at(e.obj.pos)
        return (f"(c, {e.obj.name!r}, {self.x(e.key, scope)}, {who}, {self.at(e.pos)}, "
                f"{who_at})")

    def x_Slice(self, e, scope) -> str:
        at = self.at(e.pos)
        bounds = [f"need_int({self.x(b, scope)}, 'a slice bound', {at})" if b is not None
                  else "None" for b in (e.lo, e.hi)]
        return (f"slice_(need_items(c, {self.x(e.obj, scope)}, 'what is sliced', {at}), "
                f"{bounds[0]}, {bounds[1]})")

    def x_CanExpr(self, e, scope) -> str:
        args = "{" + ", ".join(f"{n!r}: {self.x(v, scope)}" for n, v in e.args) + "}"
        if e.value is not None:
            value = self.x(e.value, scope)
        elif e.action in scope:
            value = f"c.v[{e.action!r}]"
        else:
            return f"can(c, {e.action!r}, {args})"
        return f"can_value(c, {value}, {args}, {self.at(e.pos)})"

    def clean(self, e, errors: str, seen: frozenset = frozenset()) -> bool:
        """Can `e` raise none of these Python errors of its own (`errors`: "T" TypeError, "TIK"
        with IndexError and KeyError), only rule errors? `in` over a number may raise a
        TypeError, `p.coins` of a seat past the last an IndexError, and what `can()` computes
        anything. A clean side of `<` or argument of a built-in is computed outside the runtime's
        error handling, which would otherwise report such an error at the comparison or call."""
        for n in A.walk(e):
            if isinstance(n, A.Compare) and n.op in ("in", "not in") or isinstance(n, A.CanExpr):
                return False
            if isinstance(n, A.Call) and n.func == "funds":
                return False
            if isinstance(n, A.Call) and n.func in self.g.formulas and n.func not in seen:
                if not self.clean(self.g.formulas[n.func].body, errors, seen | {n.func}):
                    return False
            if "I" in errors and isinstance(n, A.Attr) and getattr(
                    self.g.counters.get(n.name), "per_player", False):
                return False
        return True

    def x_Call(self, e, scope) -> str:
        if e.func == "funds":
            return self._funds(e.args[0], scope)
        if e.func in self.g.formulas:
            params = self.g.formulas[e.func].params
            fn, plain = self.formula(e.func)
            if plain:
                return f"{fn}({', '.join(['c'] + [self.x(a, scope) for a in e.args])})"
            bound = ", ".join(f"{p!r}: {self.x(a, scope)}" for p, a in zip(params, e.args))
            return f"{fn}(Ctx(c.s, c.you, {{{bound}}}, c.eng))"
        at, name = self.at(e.pos), repr(e.func)
        if not all(self.clean(a, "TIK") for a in e.args):
            args = "".join(f"{self.x(a, scope)}, " for a in e.args)
            return f"call(c, {name}, {self.lazy(f'({args})', e.pos)}, {at})"
        if e.func in ("count", "empty") and len(e.args) == 1:
            t = self.temp()
            slow = f"call_now(c, {name}, ({t},), {at})"
            arg = self.x(e.args[0], scope)
            if e.func == "count":
                return (f"(len(c.s['zones'][{t}.key]) if type({t} := {arg}) is ZoneRef "
                        f"else len({t}) if type({t}) is list else {slow})")
            return (f"((not c.s['zones'][{t}.key]) if type({t} := {arg}) is ZoneRef "
                    f"else (not {t}) if type({t}) is list else {slow})")
        if e.func in _ENDS and len(e.args) == 1:  # an end of a zone or list, or none if empty
            t, z, i = self.temp(), self.temp(), _ENDS[e.func]
            slow = f"call_now(c, {name}, ({t},), {at})"
            arg = self.x(e.args[0], scope)
            return (f"(({z}[{i}] if ({z} := c.s['zones'][{t}.key]) else None) if type({t} := {arg}) "
                    f"is ZoneRef else ({t}[{i}] if {t} else None) if type({t}) is list else {slow})")
        args = "".join(f"{self.x(a, scope)}, " for a in e.args)
        return f"call_now(c, {name}, ({args}), {at})"

    def _funds(self, target, scope) -> str:
        if isinstance(target, A.Index):
            slot = f"member_slot{self._member_args(target, scope)}"
            name = target.obj.name
        elif isinstance(target, A.Name):
            name = target.name
            owner = "c.you" if self.g.counters[name].per_player else "None"
            slot = f"counter_slot(c, {name!r}, {owner})"
        else:
            name = target.name
            owner = f"seat(c, {self.x(target.obj, scope)}, {self.at(target.pos)})"
            slot = f"counter_slot(c, {name!r}, {owner})"
        return f"funds(c, {name!r}, {slot})"

    def x_Comprehension(self, e, scope) -> str:
        """A function of its own, the closure's loop written out: the local saved, the pool
        charged, the variable bound in `c.v` for each value, the local put back. In a formula
        written as a function of its arguments, it takes them too (but the one it binds)."""
        name = self.sub_name()
        inner = set(scope) | {e.var}
        outer = self.args
        args = tuple(outer.values())
        var, at = repr(e.var), self.at(e.pos)
        saved, pool, out, x, src = (self.temp(), self.temp(), self.temp(), self.temp(),
                                    self.temp())
        # as compile._pool: a zone's list or a list itself (no copy), else the runtime's
        lines = [f"{saved} = c.v[{var}] if {var} in c.v else MISSING",
                 f"{pool} = (c.s['zones'][{src}.key] if type({src} := {self.x(e.source, scope)}) "
                 f"is ZoneRef else {src} if type({src}) is list else pool(c, {src}, {at}))",
                 f"charge(c, len({pool}), {at})"]
        self.args = {p: a for p, a in outer.items() if p != e.var}
        elem = self.x(e.elem, inner)
        test = [self.x(e.cond, inner)] if e.cond is not None else []
        self.args = outer
        if e.func in ("any", "all"):  # stop at the first value that decides
            want = e.func == "any"
            lines += [f"{out} = {not want!r}", f"for {x} in {pool}:", f"    c.v[{var}] = {x}",
                      f"    if {' and '.join(test + [elem if want else f'(not {elem})'])}:",
                      f"        {out} = {want!r}", "        break"]
        else:
            if isinstance(e.elem, A.Name) and e.elem.name == e.var:
                elem = x
            lines += [f"{out} = []", f"for {x} in {pool}:", f"    c.v[{var}] = {x}"]
            if test:
                lines += [f"    if {test[0]}:", f"        {out}.append({elem})"]
            else:
                lines.append(f"    {out}.append({elem})")
        lines += [*_put_back(var, saved), f"return {out}"]
        self.define(name, e.pos, lines, args)
        if e.func is None or e.func in ("any", "all"):
            return f"{name}({', '.join(('c',) + args)})"
        return f"aggregate(c, {e.func!r}, {name}, {at}{''.join(', ' + a for a in args)})"

    def x_Select(self, e, scope) -> str:
        key = self.lazy(self.x(e.key, set(scope) | {e.var}), e.key.pos)
        return (f"select(c, {e.func!r}, {e.var!r}, {self.x(e.source, scope)}, {key}, "
                f"{self.at(e.pos)})")

    def x_ListExpr(self, e, scope) -> str:
        return "[" + ", ".join(self.x(item, scope) for item in e.items) + "]"

    def x_BinOp(self, e, scope) -> str:
        at, op = self.at(e.pos), e.op
        if op in _DIVIDE_OPS:
            left = self.x(e.left, scope)
            what = repr("the left side of " + op)
            if _int_literal(e.right) and e.right.value:  # `coins // 5`: the common case
                t, r = self.temp(), repr(e.right.value)
                test = f"type({t} := {left}) is int" + (f" and not {t} % {r}" if op == "/" else "")
                return (f"({t} {'//' if op == '/' else op} {r} if {test} "
                        f"else divide(need_int({t}, {what}, {at}), {r}, {op!r}, {at}))")
            return (f"divide(need_int({left}, {what}, {at}), "
                    f"need_int({self.x(e.right, scope)}, {'the right side of ' + op!r}, {at}), "
                    f"{op!r}, {at})")
        a, b, test = self.both_ints(e.left, e.right, scope)
        n = self.temp()
        slow = f"plus(c, {a}, {b}, {at})" if op == "+" else f"arith({a}, {b}, {op!r}, {at})"
        return f"({n} if {test} and {-MAX_INT} <= ({n} := {a} {op} {b}) <= {MAX_INT} else {slow})"

    def x_Compare(self, e, scope) -> str:
        if e.op in ("in", "not in"):  # a zone's items, or the value itself (as the closure)
            a, b, at = self.temp(), self.temp(), self.at(e.pos)
            within = (f"(c.s['zones'][{b}.key] if type({b} := {self.x(e.right, scope)}) is ZoneRef "
                      f"else {b} if type({b}) is list else need_container({b}, {at}))")
            # a list's search charged, as the closure charges it (list_in)
            found = f"list_in(c, {a}, {within}, {at})"
            return (f"(({'not ' if e.op == 'not in' else ''}{found}) if type({a} := "
                    f"{self.x(e.left, scope)}) is list else {a} {e.op} {within})")
        if e.op in ("==", "!="):
            const = e.right if isinstance(e.right, (A.Num, A.Str, A.Const)) else None
            if const is not None:  # as the closure: a literal side is never a list
                return f"({self.x(e.left, scope)} {e.op} {self.x(e.right, scope)})"
            a, b = self.temp(), self.temp()
            # lists (which may share structure) compared with their values charged (equal_lists)
            return (f"({'not ' if e.op == '!=' else ''}equal_lists(c, {a}, {b}, {self.at(e.pos)}) "
                    f"if list in (type({a} := {self.x(e.left, scope)}), "
                    f"type({b} := {self.x(e.right, scope)})) else {a} {e.op} {b})")
        assert e.op in _ORDER_OPS
        at = self.at(e.pos)
        if self.clean(e.left, "T") and self.clean(e.right, "T"):
            a, b, test = self.both_ints(e.left, e.right, scope)
            return f"({a} {e.op} {b} if {test} else compare_values(c, {a}, {b}, {e.op!r}, {at}))"
        sides = self.lazy(f"({self.x(e.left, scope)}, {self.x(e.right, scope)})", e.pos)
        return f"compare(c, {sides}, {e.op!r}, {at})"

    def x_BoolOp(self, e, scope) -> str:
        op = "and" if e.op == "and" else "or"
        return f"({self.x(e.left, scope)} {op} {self.x(e.right, scope)})"

    def x_Not(self, e, scope) -> str:
        return f"(not {self.x(e.operand, scope)})"

    def x_Neg(self, e, scope) -> str:
        t = self.temp()
        return (f"(-{t} if type({t} := {self.x(e.operand, scope)}) is int "
                f"else -need_int({t}, 'what is negated', {self.at(e.pos)}))")

    def x_Otherwise(self, e, scope) -> str:
        then = self.lazy(self.x(e.then, scope), e.then.pos)
        return f"otherwise(c, {self.x(e.first, scope)}, {then})"

    def x_CondExpr(self, e, scope) -> str:
        return (f"({self.x(e.then, scope)} if {self.x(e.cond, scope)} "
                f"else {self.x(e.other, scope)})")
