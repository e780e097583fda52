"""Rule text -> AST: every statement and expression form, precedence, printing back to source
(round trip), and syntax errors with exact messages and file positions."""
from __future__ import annotations

import pytest

from meeplang.dsl import ast as A
from meeplang.dsl.errors import Pos, RuleSyntaxError
from meeplang.dsl.parser import parse_block, parse_expression, parse_param
from meeplang.dsl.resolve import load_game


def N(name):
    return A.Name(name, pos=None)


def num(v):
    return A.Num(v, pos=None)


def one(text):
    """Parse a one-statement block and return the statement."""
    block = parse_block(text)
    assert len(block.stmts) == 1, block
    return block.stmts[0]


# ---------------------------------------------------------------- statements
STATEMENTS = [
    ("set x to 1", A.SetStmt(N("x"), num(1), pos=None)),
    ("add 2 to p.coins", A.AddStmt(1, num(2), A.Attr(N("p"), "coins", pos=None), pos=None)),
    ("subtract 1 from coins", A.AddStmt(-1, num(1), N("coins"), pos=None)),
    ("gain 3 coins", A.GainStmt("gain", None, num(3), "coins", pos=None)),
    ("lose turn_total points", A.GainStmt("lose", None, N("turn_total"), "points", pos=None)),
    ("pay 2 coins", A.GainStmt("pay", None, num(2), "coins", pos=None)),
    ("first(best) gains 3 points",
     A.GainStmt("gain", A.Call("first", (N("best"),), pos=None), num(3), "points", pos=None)),
    ("p loses 1 vp", A.GainStmt("lose", N("p"), num(1), "vp", pos=None)),
    ("p pays x coins", A.GainStmt("pay", N("p"), N("x"), "coins", pos=None)),
    ("let y = 3", A.LetStmt("y", num(3), pos=None)),
    ("move card to hand", A.MoveStmt(N("card"), N("hand"), None, pos=None)),
    ("move card to hand at top", A.MoveStmt(N("card"), N("hand"), "top", pos=None)),
    ("move card to p.won at bottom",
     A.MoveStmt(N("card"), A.Attr(N("p"), "won", pos=None), "bottom", pos=None)),
    ("deal 2 from deck to hand", A.DealStmt(num(2), N("deck"), N("hand"), None, pos=None)),
    ("deal n from deck to hand at top", A.DealStmt(N("n"), N("deck"), N("hand"), "top", pos=None)),
    ("shuffle deck", A.ShuffleStmt(N("deck"), pos=None)),
    ("roll d6 as die", A.RollStmt(6, "die", pos=None)),
    ("roll d20 as big", A.RollStmt(20, "big", pos=None)),
    ("log \"hi \\\"you\\\"\"", A.LogStmt('hi "you"', pos=None)),
    ("choose c in hand", A.ChooseStmt("c", N("hand"), None, False, pos=None)),
    ("choose c in hand where c.value > 2",
     A.ChooseStmt("c", N("hand"), A.Compare(">", A.Attr(N("c"), "value", pos=None), num(2),
                                            pos=None), False, pos=None)),
    ("choose n from 1 to coins", A.ChooseStmt("n", (num(1), N("coins")), None, True, pos=None)),
    ("choose n from 0 to 3 where n != 2",
     A.ChooseStmt("n", (num(0), num(3)), A.Compare("!=", N("n"), num(2), pos=None), True,
                  pos=None)),
    ("secretly each player chooses card in hand",
     A.SecretChooseStmt("card", N("hand"), None, pos=None)),
    ("secretly each player chooses card in hand where card.value > 1",
     A.SecretChooseStmt("card", N("hand"), A.Compare(">", A.Attr(N("card"), "value", pos=None),
                                                     num(1), pos=None), pos=None)),
    ("do buy", A.DoStmt("buy", None, None, pos=None)),
    ("do buy for left(you)",
     A.DoStmt("buy", A.Call("left", (N("you"),), pos=None), None, pos=None)),
    ("do buy 3 times", A.DoStmt("buy", None, num(3), pos=None)),
    ("do buy for p 2 times", A.DoStmt("buy", N("p"), num(2), pos=None)),
    ("end turn", A.ControlStmt("end turn", pos=None)),
    ("end game", A.ControlStmt("end game", pos=None)),
    ("pass", A.ControlStmt("pass", pos=None)),
]


@pytest.mark.parametrize("text,expected", STATEMENTS, ids=[s for s, _ in STATEMENTS])
def test_simple_statement_forms(text, expected):
    assert one(text) == expected


def test_if_elif_else():
    s = one("if a:\n  set x to 1\nelif b:\n  set x to 2\nelif c: set x to 3\nelse:\n  pass\n")
    assert isinstance(s, A.IfStmt)
    assert [cond for cond, _ in s.branches] == [N("a"), N("b"), N("c")]
    assert [body.stmts for _, body in s.branches] == [
        (A.SetStmt(N("x"), num(1), pos=None),), (A.SetStmt(N("x"), num(2), pos=None),),
        (A.SetStmt(N("x"), num(3), pos=None),)]
    assert s.other.stmts == (A.ControlStmt("pass", pos=None),)


def test_if_without_else():
    s = one("if a: end turn")
    assert s == A.IfStmt(((N("a"), A.Block((A.ControlStmt("end turn", pos=None),), pos=None)),),
                         None, pos=None)


def test_loops_and_one_line_suites():
    f = one("for each p in players:\n  gain 1 coins\n  log \"x\"\n")
    assert isinstance(f, A.ForEachStmt) and f.var == "p" and f.source == N("players")
    assert len(f.body.stmts) == 2
    r = one("repeat 2 + 1 times: add 1 to x")
    assert r == A.RepeatStmt(A.BinOp("+", num(2), num(1), pos=None),
                             A.Block((A.AddStmt(1, num(1), N("x"), pos=None),), pos=None),
                             pos=None)
    w = one("while x < 3:\n  add 1 to x\n")
    assert isinstance(w, A.WhileStmt) and w.cond == A.Compare("<", N("x"), num(3), pos=None)


def test_nested_blocks_dedent_back_to_outer_level():
    b = parse_block("if a:\n  if b:\n    add 1 to x\n  add 2 to x\nadd 3 to x\n")
    assert len(b.stmts) == 2
    outer = b.stmts[0]
    inner_body = outer.branches[0][1]
    assert len(inner_body.stmts) == 2
    assert isinstance(inner_body.stmts[0], A.IfStmt)
    assert b.stmts[1] == A.AddStmt(1, num(3), N("x"), pos=None)


def test_comments_blank_lines_and_line_continuation():
    b = parse_block("# a comment\nadd 1 to x  # trailing\n\nadd 2 \\\n  to x\n")
    assert b.stmts == (A.AddStmt(1, num(1), N("x"), pos=None),
                       A.AddStmt(1, num(2), N("x"), pos=None))


def test_empty_block_and_brackets_span_lines():
    assert parse_block("").stmts == ()
    e = parse_expression("[1,\n   2,\n 3]")
    assert e == A.ListExpr((num(1), num(2), num(3)), pos=None)


def test_param_forms():
    p = parse_param("card in board where card.row <= 2")
    assert p == A.ChooseStmt("card", N("board"), A.Compare("<=", A.Attr(N("card"), "row", pos=None),
                                                           num(2), pos=None), False, pos=None)
    r = parse_param("amount from 1 to coins")
    assert r == A.ChooseStmt("amount", (num(1), N("coins")), None, True, pos=None)


# ---------------------------------------------------------------- expressions
EXPRESSIONS = [
    ("42", num(42)),
    ("-7", num(-7)),
    ('"text"', A.Str("text", pos=None)),
    ('"a \\"q\\" \\\\ b"', A.Str('a "q" \\ b', pos=None)),
    ("true", A.Const(True, pos=None)),
    ("false", A.Const(False, pos=None)),
    ("none", A.Const(None, pos=None)),
    ("coins", N("coins")),
    ("p.coins", A.Attr(N("p"), "coins", pos=None)),
    ("best[0]", A.Index(N("best"), num(0), pos=None)),
    ("prices[card.row]", A.Index(N("prices"), A.Attr(N("card"), "row", pos=None), pos=None)),
    ("count(hand)", A.Call("count", (N("hand"),), pos=None)),
    ("range(1, 3)", A.Call("range", (num(1), num(3)), pos=None)),
    ("f()", A.Call("f", (), pos=None)),
    ("[]", A.ListExpr((), pos=None)),
    ("[1, x]", A.ListExpr((num(1), N("x")), pos=None)),
    ("[p for p in players]", A.Comprehension(None, N("p"), "p", N("players"), None, pos=None)),
    ("[p.x for p in players if p.x > 1]",
     A.Comprehension(None, A.Attr(N("p"), "x", pos=None), "p", N("players"),
                     A.Compare(">", A.Attr(N("p"), "x", pos=None), num(1), pos=None), pos=None)),
    ("max(c.value for c in hand)",
     A.Comprehension("max", A.Attr(N("c"), "value", pos=None), "c", N("hand"), None, pos=None)),
    ("-x", A.Neg(N("x"), pos=None)),
    ("not x", A.Not(N("x"), pos=None)),
    ("a in L", A.Compare("in", N("a"), N("L"), pos=None)),
    ("a not in L", A.Compare("not in", N("a"), N("L"), pos=None)),
    ("if a then 1 else 2", A.CondExpr(N("a"), num(1), num(2), pos=None)),
    ("(x)", N("x")),
]


@pytest.mark.parametrize("text,expected", EXPRESSIONS, ids=[s for s, _ in EXPRESSIONS])
def test_expression_forms(text, expected):
    assert parse_expression(text) == expected


@pytest.mark.parametrize("op", ["+", "-", "*", "//", "/", "%"])
def test_binary_operators(op):
    assert parse_expression(f"a {op} b") == A.BinOp(op, N("a"), N("b"), pos=None)


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_comparison_operators(op):
    assert parse_expression(f"a {op} b") == A.Compare(op, N("a"), N("b"), pos=None)


@pytest.mark.parametrize("op", ["and", "or"])
def test_boolean_operators(op):
    assert parse_expression(f"a {op} b") == A.BoolOp(op, N("a"), N("b"), pos=None)


def B(op, l, r):
    return A.BinOp(op, l, r, pos=None)


PRECEDENCE = [
    ("1 + 2 * 3", B("+", num(1), B("*", num(2), num(3)))),
    ("1 * 2 + 3", B("+", B("*", num(1), num(2)), num(3))),
    ("a - b - c", B("-", B("-", N("a"), N("b")), N("c"))),
    ("a // b * c", B("*", B("//", N("a"), N("b")), N("c"))),
    ("a - b * c % d", B("-", N("a"), B("%", B("*", N("b"), N("c")), N("d")))),
    ("(1 + 2) * 3", B("*", B("+", num(1), num(2)), num(3))),
    ("-a * b", B("*", A.Neg(N("a"), pos=None), N("b"))),
    ("-a.b", A.Neg(A.Attr(N("a"), "b", pos=None), pos=None)),
    ("x.y[2].z", A.Attr(A.Index(A.Attr(N("x"), "y", pos=None), num(2), pos=None), "z", pos=None)),
    ("a + b < c * d", A.Compare("<", B("+", N("a"), N("b")), B("*", N("c"), N("d")), pos=None)),
    ("a + 1 in L", A.Compare("in", B("+", N("a"), num(1)), N("L"), pos=None)),
    ("not a == b", A.Not(A.Compare("==", N("a"), N("b"), pos=None), pos=None)),
    ("not a and b", A.BoolOp("and", A.Not(N("a"), pos=None), N("b"), pos=None)),
    ("a or b and c", A.BoolOp("or", N("a"), A.BoolOp("and", N("b"), N("c"), pos=None), pos=None)),
    ("a and b or c", A.BoolOp("or", A.BoolOp("and", N("a"), N("b"), pos=None), N("c"), pos=None)),
    ("a or b or c", A.BoolOp("or", A.BoolOp("or", N("a"), N("b"), pos=None), N("c"), pos=None)),
    ("x < 1 and y > 2", A.BoolOp("and", A.Compare("<", N("x"), num(1), pos=None),
                                 A.Compare(">", N("y"), num(2), pos=None), pos=None)),
    ("if a or b then 1 else 2 + 3",
     A.CondExpr(A.BoolOp("or", N("a"), N("b"), pos=None), num(1), B("+", num(2), num(3)),
                pos=None)),
    ("if a then 1 else if b then 2 else 3",
     A.CondExpr(N("a"), num(1), A.CondExpr(N("b"), num(2), num(3), pos=None), pos=None)),
]


@pytest.mark.parametrize("text,expected", PRECEDENCE, ids=[s for s, _ in PRECEDENCE])
def test_precedence_and_associativity(text, expected):
    assert parse_expression(text) == expected


def test_comparisons_do_not_chain():
    with pytest.raises(RuleSyntaxError):
        parse_expression("a < b < c")


def test_yaml_numbers_and_booleans_are_literals():
    assert parse_expression(3) == num(3)
    assert parse_expression(True) == A.Const(True, pos=None)


# ---------------------------------------------------------------- positions in files
def test_positions_inside_a_literal_block(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        setup: |
          add 1 to x
          if x > 0:
            set x to 2 + x
        scoring:
          score: x
        """)
    add, if_ = game.setup.stmts
    assert add.pos == Pos("g/game.yaml", 6, 3)
    assert add.target.pos == Pos("g/game.yaml", 6, 12)
    assert if_.pos == Pos("g/game.yaml", 7, 3)
    cond = if_.branches[0][0]
    assert cond.pos == Pos("g/game.yaml", 7, 8)  # a comparison stands at its operator
    set_ = if_.branches[0][1].stmts[0]
    assert set_.pos == Pos("g/game.yaml", 8, 5)
    assert set_.value.right.pos == Pos("g/game.yaml", 8, 18)


def test_positions_in_plain_and_quoted_scalars(load):
    game = load("""
        game: g
        players: 2
        counters:
          x: {initial: 0}
        setup: add 1 to x
        scoring:
          score: "x + 1"
          tie_break: [x]
        """)
    assert game.setup.stmts[0].amount.pos == Pos("g/game.yaml", 5, 12)
    assert game.scoring.score.pos == Pos("g/game.yaml", 7, 11)
    assert game.scoring.score.right.pos == Pos("g/game.yaml", 7, 15)


# ---------------------------------------------------------------- syntax errors
# What may start an operand, and an expression (`can(ACTION)` is an atom of its own).
ATOMS = '"(", "-", "[", "can", "false", "none", "true", a name, a number, a string'
EXPR_START = ('"(", "-", "[", "can", "false", "if", "none", "not", "true", a name, a number, '
              'a string')

SYNTAX_ERRORS = [
    (parse_expression, "1 +", f"<rule>:1:4: error: unexpected end of line; expected {ATOMS}"),
    (parse_expression, "", f"<rule>:1:1: error: unexpected end of text; expected {EXPR_START}"),
    (parse_expression, "(1", '<rule>:1:3: error: unexpected end of text; expected ")"'),
    (parse_expression, "x.1", "<rule>:1:3: error: unexpected '1'; expected a name"),
    (parse_block, "set x 3", "<rule>:1:7: error: unexpected '3'; expected \"to\""),
    (parse_block, "add 1 x", "<rule>:1:7: error: unexpected 'x'; expected \"to\""),
    (parse_block, "repeat 3: pass", "<rule>:1:9: error: unexpected ':'; expected \"times\""),
    (parse_block, "if x\n  y", '<rule>:1:5: error: unexpected end of line; expected ":"'),
    (parse_block, "roll six as d",
     "<rule>:1:6: error: unexpected 'six'; expected a die such as d6"),
    (parse_block, "move c to d at middle",
     "<rule>:1:16: error: unexpected 'middle'; expected \"position\", \"top\" or \"bottom\""),
    (parse_block, "for x in L: pass",
     "<rule>:1:5: error: unexpected 'x'; expected \"each\""),
    (parse_block, "if a:",
     "<rule>:1:6: error: unexpected end of text; expected an indented block"),
    (parse_block, "if x: pass\nelse pass",
     "<rule>:2:6: error: unexpected 'pass'; expected \":\""),
    (parse_param, "c hand",
     "<rule>:1:3: error: unexpected 'hand'; expected \"from\", \"in\""),
]


@pytest.mark.parametrize("fn,text,message", SYNTAX_ERRORS, ids=[t for _, t, _ in SYNTAX_ERRORS])
def test_syntax_error_messages(fn, text, message):
    with pytest.raises(RuleSyntaxError) as info:
        fn(text)
    assert str(info.value) == message


def test_unexpected_character_lists_what_was_allowed():
    with pytest.raises(RuleSyntaxError) as info:
        parse_expression("x + $")
    assert str(info.value) == ("<rule>:1:5: error: unexpected character '$'; expected "
                               '"(", "-", "[", a name, a number, a string, end of line')


def test_expected_alternatives_after_operator_are_the_operands():
    with pytest.raises(RuleSyntaxError) as info:
        parse_expression("1 + * 2")
    assert str(info.value) == f"<rule>:1:5: error: unexpected '*'; expected {ATOMS}"


def test_overlong_rule_is_refused():
    with pytest.raises(RuleSyntaxError) as info:
        parse_expression("1" + " + 1" * 6000)
    assert str(info.value) == "<rule>:1:1: error: rule text longer than 20000 characters"


def test_deeply_nested_rule_is_a_syntax_error_not_a_crash():
    with pytest.raises(RuleSyntaxError) as info:
        parse_expression("-" * 9000 + "x")
    assert str(info.value) == "<rule>:1:1: error: rule nested too deeply"


def test_many_parentheses_parse():
    assert parse_expression("(" * 3000 + "1" + ")" * 3000) == num(1)


GAME_WITH = """
game: g
players: 2
counters:
  x: {initial: 0}
setup: |
  add 1 to x
  if x > 0:
    set x to
scoring:
  score: x
"""


def test_syntax_error_in_literal_block_points_into_the_file(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game(GAME_WITH))
    assert str(info.value) == (f"g/game.yaml:8:13: error: unexpected end of line; expected "
                               f"{EXPR_START}")
    rendered = info.value.render().splitlines()
    assert rendered[1] == "        set x to"
    assert rendered[2] == "    " + " " * 12 + "^"


def test_syntax_error_in_plain_one_line_scalar(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game("""
            game: g
            players: 2
            counters:
              x: {initial: 0}
            setup: add 2 to x x
            scoring:
              score: x
            """))
    assert str(info.value) == "g/game.yaml:5:19: error: unexpected 'x'; expected end of line"


def test_syntax_error_in_double_quoted_scalar_counts_the_quote(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game("""
            game: g
            players: 2
            counters:
              x: {initial: 0}
            setup: "add 2 to x x"
            scoring:
              score: x
            """))
    assert str(info.value) == "g/game.yaml:5:20: error: unexpected 'x'; expected end of line"


def test_syntax_error_in_an_expression_field(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game("""
            game: g
            players: 2
            counters:
              x: {initial: 0}
            scoring:
              score: x + $
            """))
    assert str(info.value) == ("g/game.yaml:6:14: error: unexpected character '$'; expected "
                               '"(", "-", "[", a name, a number, a string, end of line')


def test_syntax_error_line_after_leading_blank_line_in_block(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game("""
            game: g
            players: 2
            counters:
              x: {initial: 0}
            setup: |

              add 1 to x
              add 2 to
            scoring:
              score: x
            """))
    assert str(info.value) == (f"g/game.yaml:8:11: error: unexpected end of line; expected "
                               f"{EXPR_START}")


def test_bad_dedent_points_at_the_bad_line(write_game):
    with pytest.raises(RuleSyntaxError) as info:
        load_game(write_game("""
            game: g
            players: 2
            counters:
              x: {initial: 0}
            setup: |
              if x == 0:
                add 1 to x
               add 2 to x
            scoring:
              score: x
            """))
    assert str(info.value) == ("g/game.yaml:8:3: error: this line's indentation does not match "
                               "any outer block")
