"""The Meeplang syntax tree: small frozen attrs classes that carry their file position.

Positions are excluded from equality, so a tree printed back to source (`to_source`) and parsed
again compares equal to the original: the round-trip property the tests check on every game file.
"""
from __future__ import annotations

import attrs

from .errors import Pos

_pos = attrs.field(eq=False, repr=False, kw_only=True)


def node(cls):
    return attrs.frozen(slots=True)(cls)


# ---------------------------------------------------------------- expressions
@node
class Num:
    value: int
    pos: Pos = _pos


@node
class Str:
    value: str
    pos: Pos = _pos


@node
class Const:
    """true, false or none."""

    value: object
    pos: Pos = _pos


@node
class Name:
    name: str
    pos: Pos = _pos


@node
class Attr:
    obj: object
    name: str
    pos: Pos = _pos


@node
class Index:
    obj: object
    key: object
    pos: Pos = _pos


@node
class Slice:
    """`L[a:b]`: the items from index a (default 0) up to b excluded (default: the end);
    negative indexes count from the end, as in Python."""

    obj: object
    lo: object
    hi: object
    pos: Pos = _pos


@node
class Call:
    func: str
    args: tuple
    pos: Pos = _pos


@node
class Comprehension:
    """`f(elem for var in source if cond)` (func set) or `[elem for var in source if cond]`."""

    func: str | None
    elem: object
    var: str
    source: object
    cond: object
    pos: Pos = _pos


@node
class ListExpr:
    items: tuple
    pos: Pos = _pos


@node
class BinOp:
    op: str  # + - * / // %
    left: object
    right: object
    pos: Pos = _pos


@node
class Compare:
    """`a == b`, `!=`, `<`, `<=`, `>`, `>=`; `x in L`, `x not in L`: through a zone's items, a
    list or a map's keys."""

    op: str  # == != < <= > >= in "not in"
    left: object
    right: object
    pos: Pos = _pos


@node
class BoolOp:
    """`A and B`, `A or B`: B is computed only when A does not decide, as in Python."""

    op: str  # and / or
    left: object
    right: object
    pos: Pos = _pos


@node
class Not:
    """`not A`: true when A is false."""

    operand: object
    pos: Pos = _pos


@node
class Neg:
    operand: object
    pos: Pos = _pos


@node
class Otherwise:
    """`A otherwise B`: A, unless it is none or empty (a list or zone), then B (a declared
    fallback: "the levels the spec allows, otherwise the shallowest open one")."""

    first: object
    then: object
    pos: Pos = _pos


@node
class CondExpr:
    """`if C then A else B`: A when C holds, else B."""

    cond: object
    then: object
    other: object
    pos: Pos = _pos


# ---------------------------------------------------------------- statements
@node
class Block:
    stmts: tuple
    pos: Pos = _pos


@node
class SetStmt:
    """`set X to E`: a counter (`coins`, `p.coins`, `track[k]`) or an item's field (`card.face_up`)
    takes the value E."""

    target: object
    value: object
    pos: Pos = _pos


@node
class AddStmt:
    """add/subtract: `add 3 to score`, `subtract 1 from p.damage`."""

    sign: int
    amount: object
    target: object
    pos: Pos = _pos


@node
class GainStmt:
    """`gain 3 coins`, `lose 1 vp`, `pay 2 coins`, `p gains 5 coins`: a counter of a player."""

    verb: str  # gain / lose / pay / transfer
    player: object  # None for "you"
    amount: object
    counter: str
    key: object = None  # a member of a counter family: `gain 1 track[r]`
    to: object = None  # who is paid (`pay 3 from coins to card.owner`), where a transfer goes
    pos: Pos = _pos


def counter_expr(player, counter: str, key, pos):
    """The counter a gain/pay statement names, as an expression: `coins`, `p.coins`,
    `accounts[a]`, `p.accounts[a]` (the inverse of counter_target)."""
    e = Name(counter, pos=pos) if player is None else Attr(player, counter, pos=pos)
    return e if key is None else Index(e, key, pos=pos)


def choice_in(name: str, source, cond, pos):
    """`choose NAME in SOURCE where COND` as a statement, for constructs that offer such a choice
    (a search); built here, where the type checker of the compiled build sees attrs classes."""
    return ChooseStmt(name, source, cond, False, pos=pos)


def counter_target(e):
    """`coins`, `p.coins`, `accounts[a]`, `p.accounts[a]` -> (player or None, name, key or None);
    None for anything else."""
    key = None
    if isinstance(e, Index) and isinstance(e.obj, (Name, Attr)):
        e, key = e.obj, e.key
    if isinstance(e, Name):
        return None, e.name, key
    if isinstance(e, Attr):
        return e.obj, e.name, key
    return None


@node
class LetStmt:
    """`let name = E`: names a value for the rest of the rule."""

    name: str
    value: object
    pos: Pos = _pos


@node
class MoveStmt:
    """`move ITEM to ZONE [at top|at bottom|at position N] [without gravity]`: the item leaves its
    zone for ZONE (at the bottom, the end, unless `at top`)."""

    item: object
    dest: object
    place: str | None  # "top", "bottom" or None (= bottom)
    gravity: bool = True  # `without gravity`: the cell left does not make the grid settle
    position: object = None  # `at position N`: the item's place in the zone afterwards (1 = top)
    pos: Pos = _pos


@node
class DealStmt:
    """`deal N from ZONE to ZONE [at top]`: the top N items of the first zone, one at a time."""

    count: object
    source: object
    dest: object
    place: str | None
    pos: Pos = _pos


@node
class ShuffleStmt:
    """`shuffle ZONE`: the zone's items in a random order (what was peeked at is forgotten)."""

    zone: object
    pos: Pos = _pos


@node
class RollStmt:
    """`roll d6 as name`: a die of that many sides, from the game's seeded random source."""

    sides: int
    name: str
    pos: Pos = _pos


@node
class RandomChooseStmt:
    """`choose first in players at random`: chance picks one value of a list, no player does."""

    name: str
    source: object
    pos: Pos = _pos


@node
class ChooseStmt:
    """A decision: `choose card in hand where card.value > 3`, `choose n from 1 to 3`,
    `choose kept from subsets of hand where count(kept) <= 2`, optionally `by PLAYER`."""

    name: str
    source: object  # an expression giving the options, or a (lo, hi) tuple for ranges
    cond: object
    is_range: bool
    subsets: bool = False
    chooser: object = None  # who chooses (None: you)
    pos: Pos = _pos


@node
class SecretChooseStmt:
    """Every player (or each `var` in `among`) chooses at once and in secret; the result is a
    list indexed by seat (none for a seat not asked)."""

    name: str
    source: object
    cond: object
    is_range: bool = False
    subsets: bool = False
    var: str | None = None  # `secretly each p in posted chooses ...`: p is each asked seat
    among: object = None  # the seats asked (every player if None)
    pos: Pos = _pos


@node
class PeekStmt:
    """`peek ITEMS [by PLAYER]`: the player sees those items until their zone is shuffled."""

    items: object
    player: object = None
    pos: Pos = _pos


@node
class DrawStmt:
    """`draw N from PILE to ZONE, keep K [as NAME] [where COND], return the rest to the bottom`:
    the top N items of the pile (with `any of LIST`, each from a pile the drawer picks) go to
    ZONE, seen by the drawer; the drawer keeps K of them there and the others go back to the top
    or bottom of the pile each came from."""

    count: object
    source: object
    any_of: bool
    dest: object
    keep: object
    name: str | None  # names each drawn item in `where`, then what was kept
    cond: object
    rest: str  # "top" or "bottom"
    pos: Pos = _pos


@node
class SearchStmt:
    """`search ZONE for NAME [where COND] [by PLAYER]: BODY [else: OTHER]`: the searcher looks
    through the zone and picks one item that fits (the others keep their order), then BODY runs
    with NAME bound; OTHER runs when no item fits."""

    zone: object
    name: str
    cond: object
    searcher: object
    body: object  # Block
    other: object  # Block or None
    pos: Pos = _pos


@node
class AuctionStmt:
    """An open ascending auction: bidders in order raise strictly or drop out for good; the
    `ties` player (if any) may also bid the standing high bid and take the lead with it; when
    `opener_bids` holds, the first bidder may not drop out at its opening (0 is a bid then)."""

    bidders: object
    currency: str
    winner: str
    price: str
    ties: object = None
    beyond_means: bool = False  # bids need not be covered (up to the most any bidder holds)
    history: str | None = None  # bound to the bids made, in order: [[player, bid], ...]
    opener_bids: object = None  # when (a condition) the opener must bid; None: it may drop out
    member: object = None  # the key of a counter family's member paid from (`accounts["sf"]`)
    pos: Pos = _pos


@node
class PlaceStmt:
    """Put an item on a grid zone's cell: `place card on board at row, column`."""

    item: object
    zone: object
    row: object
    column: object
    pos: Pos = _pos


@node
class Select:
    """`lowest(each c in board by [column(c), row(c)])`: an item picked or ordered by a key."""

    func: str  # lowest / highest / sorted
    var: str
    source: object
    key: object
    pos: Pos = _pos


@node
class DoStmt:
    """`do ACTION [for P] [N times]`; with `may`, each time the player may skip instead.

    The action may be a value: `do card.effect` (an action's name or a rule text held in data),
    `do one of LIST` (the player picks one) or `do any of LIST` (any of them, each at most once,
    in the order the player picks). `may do X else STATEMENT` runs the statement when X was not
    done at all (the price of declining)."""

    action: str  # the action's name, or a local variable holding one; "" when `value` is set
    player: object
    times: object
    optional: bool = False
    args: tuple = ()  # ((name, expression), ...) from `with name = value, ...`
    value: object = None  # an expression giving the action (or, with `mode`, a list of them)
    mode: str = ""  # "", "one of" or "any of"
    otherwise: object = None  # the statement of `may do ... else STATEMENT`
    pos: Pos = _pos


@node
class CanExpr:
    """`can(ACTION [with name = value, ...])`: would `do ACTION` do something now? The action
    may be a value (`can(card.effect)`)."""

    action: str
    args: tuple = ()
    value: object = None  # an expression giving the action, when it is not a name
    pos: Pos = _pos


def do_target_source(action: str, value, mode: str = "") -> str:
    """The action of a `do` or `can()` as written: `build`, `card.effect`, `one of s.actions`."""
    text = action or expr_source(value, 8)
    return f"{mode} {text}" if mode else text


@node
class ControlStmt:
    """`end turn` (the turn ends now), `pass` (you take no more turns in this turns step),
    `end game` (the game ends now and is scored)."""

    what: str
    pos: Pos = _pos


@node
class LogStmt:
    """`log "text"`: a line in the game's log and trace; the rules do not read it."""

    text: str
    pos: Pos = _pos


@node
class IfStmt:
    """`if COND: ... elif COND: ... else: ...`: the block of the first condition that holds."""

    branches: tuple  # ((cond, Block), ...)
    other: object  # Block or None
    pos: Pos = _pos


@node
class ForEachStmt:
    """`for each x in LIST: ...`: the block once per value, in order, with x bound to it."""

    var: str
    source: object
    body: Block
    pos: Pos = _pos


@node
class RepeatStmt:
    """`repeat N times: ...`: the block N times."""

    count: object
    body: Block
    pos: Pos = _pos


@node
class WhileStmt:
    """`while COND: ...`: the block again and again while the condition holds."""

    cond: object
    body: Block
    pos: Pos = _pos


# ---------------------------------------------------------------- traversal
def children(n):
    """The direct sub-nodes of a node (expressions and statements), in source order."""
    out = []
    for field in attrs.fields(type(n)):
        if field.name == "pos":
            continue
        value = getattr(n, field.name)
        _collect(value, out)
    return out


def _collect(value, out):
    if isinstance(value, tuple):
        for v in value:
            _collect(v, out)
    elif attrs.has(type(value)):
        out.append(value)


def walk(n):
    """Every node of a tree, parents before children."""
    stack = [n]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(children(cur)))


# ---------------------------------------------------------------- printing back to source
_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6,
         "neg": 7, "post": 8}


def expr_source(e, parent_prec: int = 0) -> str:
    """Canonical source text of an expression (adds parentheses only where needed)."""
    prec, text = _expr(e)
    return f"({text})" if prec < parent_prec else text


def _expr(e):
    match e:
        case Num(value=v):
            return (7 if v < 0 else 9), str(v)
        case Str(value=v):
            return 9, '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        case Const(value=v):
            return 9, {True: "true", False: "false", None: "none"}[v]
        case Name(name=n):
            return 9, n
        case Attr(obj=o, name=n):
            return 8, f"{expr_source(o, 8)}.{n}"
        case Index(obj=o, key=k):
            return 8, f"{expr_source(o, 8)}[{expr_source(k)}]"
        case Slice(obj=o, lo=lo, hi=hi):
            lo_text = expr_source(lo) if lo is not None else ""
            hi_text = expr_source(hi) if hi is not None else ""
            return 8, f"{expr_source(o, 8)}[{lo_text}:{hi_text}]"
        case Call(func=f, args=a):
            return 9, f"{f}({', '.join(expr_source(x) for x in a)})"
        case Comprehension(func=f, elem=el, var=v, source=s, cond=c):
            inner = f"{expr_source(el)} for {v} in {expr_source(s, 1)}"
            if c is not None:
                inner += f" if {expr_source(c, 1)}"
            return 9, f"{f}({inner})" if f else f"[{inner}]"
        case ListExpr(items=items):
            return 9, "[" + ", ".join(expr_source(x) for x in items) + "]"
        case CanExpr(action=a, args=args, value=v):
            return 9, f"can({do_target_source(a, v)}{_with(args)})"
        case Select(func=f, var=v, source=src, key=k):
            return 9, f"{f}(each {v} in {expr_source(src, 1)} by {expr_source(k)})"
        case BinOp(op=op, left=l, right=r):
            p = _PREC[op]
            return p, f"{expr_source(l, p)} {op} {expr_source(r, p + 1)}"
        case Compare(op=op, left=l, right=r):
            return 4, f"{expr_source(l, 5)} {op} {expr_source(r, 5)}"
        case BoolOp(op=op, left=l, right=r):
            p = _PREC[op]
            return p, f"{expr_source(l, p)} {op} {expr_source(r, p + 1)}"
        case Not(operand=o):
            return 3, f"not {expr_source(o, 3)}"
        case Neg(operand=o):
            return 7, f"-{expr_source(o, 7)}"
        case Otherwise(first=f, then=t):
            return 0, f"{expr_source(f, 1)} otherwise {expr_source(t)}"
        case CondExpr(cond=c, then=t, other=o):
            return 0, f"if {expr_source(c, 1)} then {expr_source(t)} else {expr_source(o)}"
    raise TypeError(f"not an expression: {e!r}")


def block_source(block: Block, indent: str = "") -> str:
    """Canonical source text of a statement block, one statement per line."""
    return "".join(_stmt(s, indent) for s in block.stmts)


def _suite(block: Block, indent: str) -> str:
    return ":\n" + block_source(block, indent + "  ")


def _where(cond) -> str:
    return f" where {expr_source(cond)}" if cond is not None else ""


def _with(args) -> str:
    return (" with " + ", ".join(f"{n} = {expr_source(e)}" for n, e in args)) if args else ""


def _opener_bids(cond) -> str:
    if cond is None:
        return ""
    always = isinstance(cond, Const) and cond.value is True
    return " opener must bid" + ("" if always else f" if {expr_source(cond)}")


def _options(s, x=None) -> str:
    x = x or expr_source
    if s.is_range:
        return f"from {x(s.source[0])} to {x(s.source[1])}"
    if getattr(s, "subsets", False):
        return f"from subsets of {x(s.source)}"
    return f"in {x(s.source)}"


def sets_a_field(target, counters: dict) -> bool:
    """Does `set`/`add` on this target change an item's field (`x.side`), rather than a counter
    (`coins`, or `p.coins` for a per-player counter)? The checker and the compiler both ask."""
    return isinstance(target, Attr) and not (target.name in counters and
                                             counters[target.name].per_player)


def choice_source(p, x=None) -> str:
    """A choice as written: `card in hand where ...`, `n from 1 to 3`, `kept from subsets of
    hand`; `x` renders the expressions (the diagrams pass their own)."""
    x = x or expr_source
    return f"{p.name} {_options(p, x)}" + (f" where {x(p.cond)}" if p.cond is not None else "")


def _stmt(s, ind: str) -> str:
    x = expr_source
    match s:
        case SetStmt(target=t, value=v):
            line = f"set {x(t)} to {x(v)}"
        case AddStmt(sign=1, amount=a, target=t):
            line = f"add {x(a)} to {x(t)}"
        case AddStmt(amount=a, target=t):
            line = f"subtract {x(a)} from {x(t)}"
        case GainStmt(verb=verb, player=p, amount=a, counter=c, key=k, to=to) if (
                to is not None or verb == "transfer" or (verb == "pay" and k is not None)):
            owner = f"{x(p, 8)}." if p is not None else ""
            member = f"[{x(k)}]" if k is not None else ""
            line = f"{verb} {x(a)} from {owner}{c}{member}" + (f" to {x(to)}" if to is not None
                                                               else "")
        case GainStmt(verb=verb, player=None, amount=a, counter=c, key=k):
            line = f"{verb} {x(a)} {c}" + (f"[{x(k)}]" if k is not None else "")
        case GainStmt(verb=verb, player=p, amount=a, counter=c, key=k):
            line = f"{x(p, 8)} {verb}s {x(a)} {c}" + (f"[{x(k)}]" if k is not None else "")
        case LetStmt(name=n, value=v):
            line = f"let {n} = {x(v)}"
        case MoveStmt(item=i, dest=d, place=p, gravity=grav, position=n):
            line = f"move {x(i)} to {x(d)}" + (f" at {p}" if p else "") + (
                f" at position {x(n)}" if n is not None else "") + (
                "" if grav else " without gravity")
        case DealStmt(count=c, source=s_, dest=d, place=p):
            line = f"deal {x(c)} from {x(s_)} to {x(d)}" + (f" at {p}" if p else "")
        case ShuffleStmt(zone=z):
            line = f"shuffle {x(z)}"
        case PeekStmt(items=i, player=who):
            line = f"peek {x(i)}" + (f" by {x(who)}" if who is not None else "")
        case RollStmt(sides=n, name=name):
            line = f"roll d{n} as {name}"
        case RandomChooseStmt(name=name, source=src):
            line = f"choose {name} in {x(src)} at random"
        case DrawStmt(count=n, source=src, any_of=many, dest=d, keep=k, name=name, cond=c):
            line = f"draw {x(n)} from {'any of ' if many else ''}{x(src)} to {x(d)}, keep " + (
                f"{x(k, 5)}" + (f" as {name}" if name else "") + _where(c) +
                f", return the rest to the {s.rest}")
        case ChooseStmt(name=n, cond=c, chooser=who):
            line = f"choose {n} {_options(s)}{_where(c)}" + (f" by {x(who)}" if who is not None
                                                             else "")
        case SecretChooseStmt(name=n, cond=c, var=v, among=among):
            who = "player" if among is None else f"{v} in {x(among)}"
            line = f"secretly each {who} chooses {n} {_options(s)}{_where(c)}"
        case AuctionStmt(bidders=b, currency=cur, winner=w, price=pr, ties=t):
            line = f"auction among {x(b)} paying {cur}" + (
                f"[{x(s.member)}]" if s.member is not None else "") + (
                " beyond means" if s.beyond_means else "") + f" as {w}, {pr}" + (
                f", {s.history}" if s.history else "") + (
                f" ties to {x(t)}" if t is not None else "") + _opener_bids(s.opener_bids)
        case PlaceStmt(item=i, zone=z, row=r, column=col):
            line = f"place {x(i)} on {x(z)} at {x(r)}, {x(col)}"
        case DoStmt(action=a, player=p, times=t, optional=opt, args=args, value=v, mode=m,
                    otherwise=other):
            line = ("may " if opt else "") + f"do {do_target_source(a, v, m)}" + (
                f" for {x(p)}" if p is not None else "") + _with(args) + (
                f" {x(t)} times" if t is not None else "") + (
                f" else {_stmt(other, '').strip()}" if other is not None else "")
        case ControlStmt(what=w):
            line = w
        case LogStmt(text=t):
            line = "log " + expr_source(Str(t, pos=s.pos))
        case IfStmt(branches=branches, other=other):
            out = ""
            for i, (cond, body) in enumerate(branches):
                out += f"{ind}{'if' if i == 0 else 'elif'} {x(cond)}{_suite(body, ind)}"
            if other is not None:
                out += f"{ind}else{_suite(other, ind)}"
            return out
        case ForEachStmt(var=v, source=src, body=b):
            return f"{ind}for each {v} in {x(src)}{_suite(b, ind)}"
        case RepeatStmt(count=c, body=b):
            return f"{ind}repeat {x(c)} times{_suite(b, ind)}"
        case WhileStmt(cond=c, body=b):
            return f"{ind}while {x(c)}{_suite(b, ind)}"
        case SearchStmt(zone=z, name=n, cond=c, searcher=who, body=b, other=other):
            out = f"{ind}search {x(z)} for {n}{_where(c)}" + (
                f" by {x(who)}" if who is not None else "") + _suite(b, ind)
            return out + (f"{ind}else{_suite(other, ind)}" if other is not None else "")
        case _:
            raise TypeError(f"not a statement: {s!r}")
    return f"{ind}{line}\n"
