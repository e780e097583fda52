"""Rule text -> AST. One cached LALR parser, two start symbols (`block`, `expression`).

Rule strings live inside YAML scalars; `parse_block`/`parse_expression` take the scalar (a YStr
that knows where it stands in the file) so every node and every syntax error carries the file
position, not the position inside the string.
"""
from __future__ import annotations

import functools
import textwrap

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError, Indenter

from . import ast as A
from .errors import Pos, RuleSyntaxError
from .grammar import grammar_path
from .limits import MAX_INT
from .yamlpos import YStr

MAX_RULE_CHARS = 20_000


class _MeepIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.cache
def parser() -> Lark:
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        start=["block", "expression", "param"],
        postlex=_MeepIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,  # a pickled parser in the temp folder, keyed by the grammar's hash
    )


class _Origin:
    """Maps (line, col) in the parsed text to a position in the game file."""

    def __init__(self, source: str | YStr, path: str, shift: int):
        self.source, self.path, self.shift = source, path, shift

    def __call__(self, line: int, col: int) -> Pos:
        if isinstance(self.source, YStr):
            return self.source.pos_at(line, col + self.shift)
        return Pos(self.path, line, col + self.shift)


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, origin: _Origin):
        super().__init__()
        self.origin = origin

    def _p(self, meta) -> Pos:
        return self.origin(meta.line, meta.column)

    def _tp(self, token: Token) -> Pos:
        return self.origin(token.line, token.column)

    # -- start symbols
    def block(self, meta, stmts):
        return A.Block(tuple(s for s in stmts if s is not None), pos=self._p(meta) if not meta.empty
                       else self.origin(1, 1))

    def expression(self, meta, items):
        return items[0]

    def param_in(self, meta, c):
        return A.ChooseStmt(str(c[0]), c[1], c[2], False, pos=self._p(meta))

    def param_range(self, meta, c):
        return A.ChooseStmt(str(c[0]), (c[1], c[2]), c[3], True, pos=self._p(meta))

    def param_subsets(self, meta, c):
        return A.ChooseStmt(str(c[0]), c[1], c[2], False, subsets=True, pos=self._p(meta))

    # -- statements
    def set_stmt(self, meta, c):
        return A.SetStmt(c[0], c[1], pos=self._p(meta))

    def add_stmt(self, meta, c):
        return A.AddStmt(1, c[0], c[1], pos=self._p(meta))

    def subtract_stmt(self, meta, c):
        return A.AddStmt(-1, c[0], c[1], pos=self._p(meta))

    def _gain(verb):
        def rule(self, meta, c):
            return A.GainStmt(verb, None, c[0], str(c[1]), pos=self._p(meta))
        return rule

    def _gain_of(verb):
        def rule(self, meta, c):
            return A.GainStmt(verb, c[0], c[1], str(c[2]), pos=self._p(meta))
        return rule

    gain_stmt, lose_stmt, pay_stmt = _gain("gain"), _gain("lose"), _gain("pay")
    gain_of_stmt, lose_of_stmt, pay_of_stmt = _gain_of("gain"), _gain_of("lose"), _gain_of("pay")

    def _gain_member(verb):
        def rule(self, meta, c):
            return A.GainStmt(verb, None, c[0], str(c[1]), c[2], pos=self._p(meta))
        return rule

    def _gain_of_member(verb):
        def rule(self, meta, c):
            return A.GainStmt(verb, c[0], c[1], str(c[2]), c[3], pos=self._p(meta))
        return rule

    gain_member_stmt, lose_member_stmt = _gain_member("gain"), _gain_member("lose")
    pay_member_stmt = _gain_member("pay")
    gain_of_member_stmt, lose_of_member_stmt = _gain_of_member("gain"), _gain_of_member("lose")

    def _from(self, verb, meta, amount, source, to):
        """`pay N from COUNTER [to PAYEE]`, `transfer N from MEMBER to MEMBER`."""
        target = A.counter_target(source)
        if target is None:
            raise RuleSyntaxError(f"`{verb} ... from` needs a counter (`coins`, `p.coins`, "
                                  f"`accounts[a]`), not {A.expr_source(source)}", source.pos)
        who, name, key = target
        return A.GainStmt(verb, who, amount, name, key, to, pos=self._p(meta))

    def pay_from_stmt(self, meta, c):
        return self._from("pay", meta, *c)

    def transfer_stmt(self, meta, c):
        return self._from("transfer", meta, *c)

    def let_stmt(self, meta, c):
        return A.LetStmt(str(c[0]), c[1], pos=self._p(meta))

    def placement(self, meta, c):
        return str(c[0])

    def position_placement(self, meta, c):
        return ("position", c[0], self._p(meta))

    def where(self, meta, c):
        return c[0]

    def do_for(self, meta, c):
        return c[0]

    def do_times(self, meta, c):
        return c[0]

    def move_stmt(self, meta, c):
        if isinstance(c[2], tuple):  # `at position N`
            return A.MoveStmt(c[0], c[1], None, gravity=not c[3], position=c[2][1],
                              pos=self._p(meta))
        return A.MoveStmt(c[0], c[1], c[2], gravity=not c[3], pos=self._p(meta))

    def deal_stmt(self, meta, c):
        if isinstance(c[3], tuple):
            raise RuleSyntaxError("deal puts items at the top or the bottom; to put one item at a "
                                  "position, `move` it `at position N`", c[3][2])
        return A.DealStmt(c[0], c[1], c[2], c[3], pos=self._p(meta))

    def peek_stmt(self, meta, c):
        return A.PeekStmt(c[0], c[1], pos=self._p(meta))

    def one_pile(self, meta, c):
        return (c[0], False)

    def any_pile(self, meta, c):
        return (c[0], True)

    def draw_stmt(self, meta, c):
        count, (source, any_of), dest, keep, name, cond, rest = c
        if cond is not None and name is None:
            raise RuleSyntaxError("`keep ... where` needs a name for the drawn item it tests: "
                                  "`keep 1 as card where ...`", cond.pos)
        return A.DrawStmt(count, source, any_of, dest, keep, str(name) if name else None, cond,
                          str(rest), pos=self._p(meta))

    def search_stmt(self, meta, c):
        return A.SearchStmt(c[0], str(c[1]), c[2], c[3], c[4], c[5][1] if c[5] else None,
                            pos=self._p(meta))

    def shuffle_stmt(self, meta, c):
        return A.ShuffleStmt(c[0], pos=self._p(meta))

    def roll_stmt(self, meta, c):
        return A.RollStmt(self._whole(str(c[0])[1:], self._tp(c[0])), str(c[1]),
                          pos=self._p(meta))

    def random_choose_stmt(self, meta, c):
        return A.RandomChooseStmt(str(c[0]), c[1], pos=self._p(meta))

    def chooser(self, meta, c):
        return c[0]

    def choose_stmt(self, meta, c):
        return A.ChooseStmt(str(c[0]), c[1], c[2], False, chooser=c[3], pos=self._p(meta))

    def choose_range_stmt(self, meta, c):
        return A.ChooseStmt(str(c[0]), (c[1], c[2]), c[3], True, chooser=c[4], pos=self._p(meta))

    def choose_subset_stmt(self, meta, c):
        return A.ChooseStmt(str(c[0]), c[1], c[2], False, subsets=True, chooser=c[3],
                            pos=self._p(meta))

    def every_player(self, meta, c):
        return (None, None)

    def some_players(self, meta, c):
        return (str(c[0]), c[1])

    def secret_choose_stmt(self, meta, c):
        (var, among), c = c[0], c[1:]
        return A.SecretChooseStmt(str(c[0]), c[1], c[2], var=var, among=among, pos=self._p(meta))

    def secret_range_stmt(self, meta, c):
        (var, among), c = c[0], c[1:]
        return A.SecretChooseStmt(str(c[0]), (c[1], c[2]), c[3], is_range=True, var=var,
                                  among=among, pos=self._p(meta))

    def secret_subset_stmt(self, meta, c):
        (var, among), c = c[0], c[1:]
        return A.SecretChooseStmt(str(c[0]), c[1], c[2], subsets=True, var=var, among=among,
                                  pos=self._p(meta))

    def auction_stmt(self, meta, c):
        return A.AuctionStmt(c[0], str(c[1]), str(c[4]), str(c[5]), ties=c[7],
                             beyond_means=bool(c[3]), opener_bids=c[8], member=c[2],
                             history=str(c[6]) if c[6] is not None else None, pos=self._p(meta))

    def beyond_means(self, meta, c):
        return True

    def opener_bids(self, meta, c):
        """`opener must bid [if COND]`: the condition, `true` when none is given."""
        return c[0] if c[0] is not None else A.Const(True, pos=self._p(meta))

    def place_stmt(self, meta, c):
        return A.PlaceStmt(c[0], c[1], c[2], c[3], pos=self._p(meta))

    def select_call(self, meta, c):
        return A.Select(str(c[0]), str(c[1]), c[2], c[3], pos=self._p(meta))

    def do_stmt(self, meta, c):
        action, value, mode = c[0]
        return A.DoStmt(action, c[1], c[3], args=tuple(c[2] or ()), value=value, mode=mode,
                        pos=self._p(meta))

    def may_do_stmt(self, meta, c):
        action, value, mode = c[0]
        return A.DoStmt(action, c[1], c[3], optional=True, args=tuple(c[2] or ()), value=value,
                        mode=mode, otherwise=c[4], pos=self._p(meta))

    def do_one(self, meta, c):
        """A bare name stays a name (an action, or a variable holding one: the checker tells);
        anything else is an expression giving the action."""
        if isinstance(c[0], A.Name):
            return (c[0].name, None, "")
        return ("", c[0], "")

    def do_one_of(self, meta, c):
        return ("", c[0], "one of")

    def do_any_of(self, meta, c):
        return ("", c[0], "any of")

    def do_else(self, meta, c):
        return c[0]

    def do_with(self, meta, c):
        return tuple(c)

    def arg_binding(self, meta, c):
        return (str(c[0]), c[1])

    def no_gravity(self, meta, c):
        return True

    def can_expr(self, meta, c):
        if isinstance(c[0], A.Name):
            return A.CanExpr(c[0].name, tuple(c[1] or ()), pos=self._p(meta))
        return A.CanExpr("", tuple(c[1] or ()), value=c[0], pos=self._p(meta))

    def end_turn_stmt(self, meta, c):
        return A.ControlStmt("end turn", pos=self._p(meta))

    def end_game_stmt(self, meta, c):
        return A.ControlStmt("end game", pos=self._p(meta))

    def pass_stmt(self, meta, c):
        return A.ControlStmt("pass", pos=self._p(meta))

    def log_stmt(self, meta, c):
        return A.LogStmt(_unquote(c[0]), pos=self._p(meta))

    def suite(self, meta, stmts):
        stmts = tuple(s for s in stmts if s is not None)
        return A.Block(stmts, pos=stmts[0].pos)

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        other = None
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append(extra[1:])
            else:
                other = extra[1]
        return A.IfStmt(tuple(branches), other, pos=self._p(meta))

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return A.ForEachStmt(str(c[0]), c[1], c[2], pos=self._p(meta))

    def repeat_stmt(self, meta, c):
        return A.RepeatStmt(c[0], c[1], pos=self._p(meta))

    def while_stmt(self, meta, c):
        return A.WhileStmt(c[0], c[1], pos=self._p(meta))

    # -- expressions
    def cond_expr(self, meta, c):
        return A.CondExpr(c[0], c[1], c[2], pos=self._p(meta))

    def otherwise_expr(self, meta, c):
        return A.Otherwise(c[0], c[1], pos=self._p(meta))

    def or_expr(self, meta, c):
        return A.BoolOp("or", c[0], c[1], pos=self._p(meta))

    def and_expr(self, meta, c):
        return A.BoolOp("and", c[0], c[1], pos=self._p(meta))

    def not_expr(self, meta, c):
        return A.Not(c[0], pos=self._p(meta))

    def compare(self, meta, c):
        return A.Compare(str(c[1]), c[0], c[2], pos=self._tp(c[1]))

    def in_expr(self, meta, c):
        return A.Compare("in", c[0], c[1], pos=self._p(meta))

    def not_in_expr(self, meta, c):
        return A.Compare("not in", c[0], c[1], pos=self._p(meta))

    def _bin(op):
        def rule(self, meta, c):
            return A.BinOp(op, c[0], c[1], pos=self._p(meta))
        return rule

    add, sub, mul, floordiv, div, mod = (_bin("+"), _bin("-"), _bin("*"), _bin("//"), _bin("/"),
                                         _bin("%"))

    def neg(self, meta, c):
        if isinstance(c[0], A.Num):
            return A.Num(-c[0].value, pos=self._p(meta))
        return A.Neg(c[0], pos=self._p(meta))

    def attr(self, meta, c):
        return A.Attr(c[0], str(c[1]), pos=self._tp(c[1]))

    def index(self, meta, c):
        return A.Index(c[0], c[1], pos=self._p(meta))

    def slice(self, meta, c):
        return A.Slice(c[0], c[1], c[2], pos=self._p(meta))

    def number(self, meta, c):
        return A.Num(self._whole(str(c[0]), self._p(meta)), pos=self._p(meta))

    @staticmethod
    def _whole(digits: str, pos: Pos) -> int:
        """A number written in a rule, within ±MAX_INT (read only if it can be: 5,000 digits
        would be slow to convert, and Python refuses them)."""
        value = int(digits) if len(digits.lstrip("0")) <= 19 else MAX_INT + 1
        if value > MAX_INT:
            raise RuleSyntaxError(f"the number {digits[:20]}{'...' if len(digits) > 20 else ''} "
                                  f"is beyond the limit of {MAX_INT:,} (10**18)", pos)
        return value

    def string(self, meta, c):
        return A.Str(_unquote(c[0]), pos=self._p(meta))

    def true(self, meta, c):
        return A.Const(True, pos=self._p(meta))

    def false(self, meta, c):
        return A.Const(False, pos=self._p(meta))

    def none(self, meta, c):
        return A.Const(None, pos=self._p(meta))

    def name(self, meta, c):
        return A.Name(str(c[0]), pos=self._p(meta))

    def call(self, meta, c):
        return A.Call(str(c[0]), tuple(c[1] or ()), pos=self._p(meta))

    def args(self, meta, c):
        return c

    def gen_call(self, meta, c):
        return A.Comprehension(str(c[0]), c[1], str(c[2]), c[3], c[4], pos=self._p(meta))

    def list_expr(self, meta, c):
        return A.ListExpr(tuple(c[0] or ()), pos=self._p(meta))

    def list_comp(self, meta, c):
        return A.Comprehension(None, c[0], str(c[1]), c[2], c[3], pos=self._p(meta))


def _unquote(token) -> str:
    s = str(token)[1:-1]
    return s.replace('\\"', '"').replace("\\\\", "\\")


_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "DIE": "a die such as d6",
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "COMP": "a comparison", "$END": "end of text", "TOP_OR_BOTTOM": '"top" or "bottom"',
}


def _describe(names) -> str:
    p = parser()
    out = set()
    for name in names:
        if name in _READABLE:
            out.add(_READABLE[name])
            continue
        try:
            term = p.get_terminal(name)
            out.add(f'"{term.pattern.value}"' if term.pattern.type == "str" else name.lower())
        except KeyError:
            out.add(name.lower())
    items = sorted(out)
    if len(items) > 12:
        items = items[:12] + ["..."]
    return ", ".join(items)


def _char_text(body: str, pos: int) -> str:
    """The unexpected text: a known operator or word whole, else the one character."""
    import re

    m = re.match(r"//|==|!=|<=|>=|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|.", body[pos:], re.S)
    return repr(m.group(0)) if m and len(m.group(0)) > 1 else f"character {body[pos]!r}"


def _check_dedents(body: str, origin) -> None:
    """Lark's indenter reports a bad dedent without a line; find the line ourselves."""
    stack = [0]
    depth = 0
    for number, line in enumerate(body.split("\n"), start=1):
        stripped = line.strip()
        depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
        if not stripped or stripped.startswith("#") or depth > 0:
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if indent > stack[-1]:
            stack.append(indent)
            continue
        while indent < stack[-1]:
            stack.pop()
        if indent != stack[-1]:
            raise RuleSyntaxError("this line's indentation does not match any outer block",
                                  origin(number, 1))


def _token_text(token) -> str:
    if token.type == "$END":
        return "end of text"
    if token.type == "_NL":
        return "end of line"
    if token.type in ("_INDENT", "_DEDENT"):
        return "a change of indentation"
    return repr(str(token))


_MEMO: dict = {}
_MEMO_MAX = 20_000


def _parse(source, start: str, path: str):
    """Parse once per (text, start symbol, place in the file): a game and its variants load the
    same rule strings, and AST nodes are immutable, so the tree is shared."""
    if isinstance(source, YStr):
        key = (start, path, str(source), source.pos, source.style, source.indent)
    else:
        key = (start, path, str(source))
    hit = _MEMO.get(key)
    if hit is None:
        hit = _parse_text(source, start, path)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = hit
    return hit


def _parse_text(source, start: str, path: str):
    text = str(source)
    if len(text) > MAX_RULE_CHARS:
        raise RuleSyntaxError(f"rule text longer than {MAX_RULE_CHARS} characters",
                              _Origin(source, path, 0)(1, 1))
    dedented = textwrap.dedent(text)
    shift = 0
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if dedented != text and first:
        shift = len(first) - len(first.lstrip())
    origin = _Origin(source, path, shift)
    body = dedented.rstrip("\n") + "\n"
    _check_dedents(body, origin)
    try:
        tree = parser().parse(body, start=start)
    except UnexpectedEOF as e:
        raise RuleSyntaxError(f"unexpected end of rule; expected {_describe(e.expected)}",
                              origin(max(body.count("\n"), 1), 1)) from None
    except UnexpectedToken as e:
        tok = e.token
        line = tok.line if tok.line is not None else max(body.count("\n"), 1)
        col = tok.column if tok.column is not None else 1
        if tok.type == "$END":
            lines = body.rstrip("\n").split("\n")
            line, col = len(lines), len(lines[-1]) + 1
        expected = getattr(e, "accepts", None) or e.expected  # the parser's view, not the lexer's
        raise RuleSyntaxError(
            f"unexpected {_token_text(tok)}; expected {_describe(expected)}",
            origin(line, col)) from None
    except UnexpectedCharacters as e:
        expected = e.allowed
        raise RuleSyntaxError(
            f"unexpected {_char_text(body, e.pos_in_stream)}"
            + (f"; expected {_describe(expected)}" if expected else ""),
            origin(e.line, e.column)) from None
    except DedentError as e:
        raise RuleSyntaxError(f"indentation does not match any outer block ({e})",
                              origin(1, 1)) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark input errors
        raise RuleSyntaxError(f"syntax error: {e}", origin(getattr(e, "line", 1) or 1,
                                                           getattr(e, "column", 1) or 1)) from None
    except RecursionError:
        raise RuleSyntaxError("rule nested too deeply", origin(1, 1)) from None
    try:
        result = _ToAst(origin).transform(tree)
    except RecursionError:
        raise RuleSyntaxError("rule nested too deeply", origin(1, 1)) from None
    except VisitError as e:  # a rule the grammar accepts but the language refuses
        if isinstance(e.orig_exc, RuleSyntaxError):
            raise e.orig_exc from None
        raise
    _check_depth(result)
    return result


MAX_DEPTH = 150


def _check_depth(root) -> None:
    """Refuse trees deeper than MAX_DEPTH: the compiler and evaluator recurse over them."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RuleSyntaxError(f"rule nested too deeply (more than {MAX_DEPTH} levels); split "
                                  "it with `let`", node.pos)
        stack.extend((child, depth + 1) for child in A.children(node))


def parse_block(source: str | YStr, path: str = "<rule>") -> A.Block:
    """Parse an effect (one or more statements)."""
    return _parse(source, "block", path)


def parse_param(source: str | YStr, path: str = "<rule>") -> A.ChooseStmt:
    """Parse an action's choice: `card in hand where ...` or `n from 1 to 3`."""
    return _parse(source, "param", path)


def parse_expression(source: str | YStr | int | bool, path: str = "<rule>"):
    """Parse a condition or formula. YAML numbers and booleans are accepted as literals."""
    if isinstance(source, bool):
        return A.Const(source, pos=Pos(path, 0, 0))
    if isinstance(source, int):
        return A.Num(source, pos=Pos(path, 0, 0))
    return _parse(source, "expression", path)
