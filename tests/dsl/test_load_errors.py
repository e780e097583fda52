"""Loader, schema and resolver errors: exact `file:line:col: error: message` texts, and the CLI
(`meeplang check DIR`) exits 1 with that text on stderr, no traceback, and writes nothing."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from meeplang.dsl.errors import (LoadError, MeeplangError, ResolveError, RuleSyntaxError, SchemaError,
                                  UsageError)
from meeplang.dsl.resolve import load_game
from meeplang.cli import main

BASE = """\
game: g
players: 2
counters:
  coins: {per: player, initial: 0, min: 0}
  x: {initial: 0}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
items:
  card: {count: 5, zone: deck, fields: {value: n}}
actions:
  buy:
    requires: coins >= 1
    effect: |
      pay 1 coins
      deal 1 from deck to hand
flow:
  - turns:
      actions: [buy]
      until: one_round
scoring:
  score: coins + count(hand) + x
"""


def variant(old: str, new: str) -> str:
    assert BASE.count(old) == 1, old
    return BASE.replace(old, new)


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, fs in os.walk(root) for f in fs)


def same_message(actual: str, expected: str) -> bool:
    """Exact equality; an expected text ending in "..." must be a prefix of the actual one."""
    if expected.endswith("..."):
        return actual.startswith(expected[:-3])
    return actual == expected


def check_cli_fails(capsys, tmp_path, folder: str, message: str, args=("check",)):
    """`meeplang check folder` exits 1, prints the message first on stderr, nothing else."""
    before = files_under(tmp_path)
    status = main([*args, folder])
    out, err = capsys.readouterr()
    assert status == 1
    assert out == ""
    assert same_message(err.splitlines()[0], message)
    assert "Traceback" not in err
    assert files_under(tmp_path) == before


def test_base_game_is_valid(write_game, capsys):
    game = load_game(write_game(BASE))
    assert game.warnings == ()
    assert main(["check", "g"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ok: g (g, 2 players, 1 actions, 0 triggers)")
    assert err == ""


# (name, yaml text, error class, exact message)
CASES = [
    ("yaml-syntax", variant("  x: {initial: 0}", "  x: {initial: 0"), LoadError,
     "g/game.yaml:6:6: error: YAML syntax: expected ',' or '}', but got ':' "
     "(while parsing a flow mapping)"),
    ("yaml-bad-indent", variant("players: 2", "players: 2\n  bad: indent"), LoadError,
     "g/game.yaml:3:6: error: YAML syntax: mapping values are not allowed here"),
    ("duplicate-key", variant("  x: {initial: 0}", "  x: {initial: 0}\n  x: {initial: 1}"),
     LoadError, "g/game.yaml:6:3: error: duplicate key 'x'"),
    ("not-a-mapping", "- a\n- b\n", LoadError,
     "g/game.yaml:1:1: error: a game file must be a YAML mapping (key: value lines)"),
    ("unknown-key", variant("  x: {initial: 0}", "  x: {initial: 0, maximum: 3}"), SchemaError,
     # the list of keys grows with the language: the start is checked, and the rest below
     "g/game.yaml:5:19: error: unknown key 'maximum' in counters.x; expected one of: ..."),
    ("wrong-type", variant("  x: {initial: 0}", "  x: {initial: 0, min: low}"), SchemaError,
     "g/game.yaml:5:24: error: counters.x.min must be an integer, not a string"),
    ("wrong-type-effect",
     variant("    effect: |\n      pay 1 coins\n      deal 1 from deck to hand", "    effect: 3"),
     SchemaError, "g/game.yaml:14:13: error: actions.buy.effect must be a string, not an integer"),
    ("bad-enum", variant("deck: {visibility: hidden}", "deck: {visibility: secret}"), SchemaError,
     "g/game.yaml:7:22: error: zones.deck.visibility must be one of: public, owner, hidden "
     "(got 'secret')"),
    ("missing-required", variant("    effect: |\n      pay 1 coins\n      deal 1 from deck to hand\n",
                                 ""), SchemaError,
     "g/game.yaml:13:5: error: actions.buy: 'effect' is a required property"),
    ("step-without-steps", variant("  - turns:\n      actions: [buy]\n      until: one_round",
                                   "  - repeat: 2"), SchemaError,
     "g/game.yaml:18:5: error: a `repeat` step needs `steps:`"),
    ("players-min-max", variant("players: 2", "players: [4, 2]"), SchemaError,
     "g/game.yaml:2:10: error: players: min 4 is larger than max 2"),
    ("no-game-name", variant("game: g\n", ""), SchemaError,
     "g/game.yaml:1:1: error: a game file needs a `game:` name"),
    ("no-scoring", BASE.split("scoring:")[0], SchemaError,
     "g/game.yaml:1:1: error: a game needs a `scoring:` section with at least `score:`"),
    ("unknown-counter", variant("pay 1 coins", "pay 1 coins\n      add 1 to xs"), ResolveError,
     "g/game.yaml:16:16: error: unknown counter 'xs'; did you mean 'x'?"),
    ("unknown-name", variant("count(hand) + x", "count(hnad) + x"), ResolveError,
     "g/game.yaml:22:24: error: unknown name 'hnad'; did you mean 'hand'?"),
    ("unknown-name-no-suggestion", variant("count(hand) + x", "count(hand) + zzzzzz"),
     ResolveError, "g/game.yaml:22:32: error: unknown name 'zzzzzz'"),
    ("unknown-player-counter", variant("pay 1 coins", "pay 1 coin"), ResolveError,
     "g/game.yaml:15:7: error: unknown player counter 'coin'; did you mean 'coins'? "
     "(gain/lose/pay work on counters declared with `per: player`)"),
    ("unknown-zone-of-items", variant("zone: deck, fields", "zone: dekc, fields"), ResolveError,
     "g/game.yaml:10:26: error: unknown zone 'dekc'; did you mean 'deck'?"),
    ("unknown-action-in-turns", variant("actions: [buy]", "actions: [buy, by]"), ResolveError,
     "g/game.yaml:19:22: error: unknown action 'by'; did you mean 'buy'?"),
    ("unknown-function", variant("count(hand) + x", "cnt(hand) + x"), ResolveError,
     "g/game.yaml:22:18: error: unknown function 'cnt'; did you mean 'count'?"),
    ("builtin-arity", variant("count(hand) + x", "count(hand, deck) + x"), ResolveError,
     "g/game.yaml:22:18: error: count() takes 1 argument, got 2"),
    ("builtin-arity-2", variant("count(hand) + x", "count(hand) + count(range(1))"),
     ResolveError, "g/game.yaml:22:38: error: range() takes 2 arguments, got 1"),
    ("move-to-a-number",
     variant("deal 1 from deck to hand", "deal 1 from deck to hand\n      move top(deck) to 3"),
     ResolveError,
     "g/game.yaml:17:25: error: the destination of move must be a zone, but this is a number"),
    ("add-to-a-zone", variant("pay 1 coins", "pay 1 coins\n      add 1 to hand"), ResolveError,
     "g/game.yaml:16:16: error: only a counter can be set or added to (declare it under "
     "`counters:`)"),
    ("number-plus-zone", variant("score: coins + count(hand) + x", "score: coins + hand"),
     ResolveError, "g/game.yaml:22:18: error: the right side of + must be a number, but this is "
     "a zone"),
    ("counter-and-zone", variant("  deck: {visibility: hidden}",
                                 "  deck: {visibility: hidden}\n  x: {}"), ResolveError,
     "g/game.yaml:8:3: error: 'x' is declared both as a counter and as a zone"),
    ("unreachable-step", variant("      until: one_round", "      until: never\n  - do: set x to 1"),
     ResolveError, "g/game.yaml:21:5: error: unreachable: the step before this one (turns until "
     "never, at g/game.yaml:18:5) never finishes, so the flow cannot get here"),
    ("trigger-unknown-action",
     variant("flow:", "triggers:\n  t: {when: after buys, effect: set x to 1}\nflow:"),
     ResolveError, "g/game.yaml:18:13: error: unknown action 'buys'; did you mean 'buy'?"),
    ("trigger-not-an-event",
     variant("flow:", "triggers:\n  t: {when: whenever, effect: set x to 1}\nflow:"),
     ResolveError, "g/game.yaml:18:13: error: when: 'whenever' is not an event; expected `before "
     "turn`, `after turn`, `before ACTION`, `after ACTION`, `after any action`, `start of PHASE`"
     "..."),  # the list of events grows with the language: the start is checked
    ("trigger-unknown-phase",
     variant("flow:", "triggers:\n  t: {when: start of setup, effect: set x to 1}\nflow:"),
     ResolveError, "g/game.yaml:18:13: error: unknown phase 'setup'"),
    ("syntax-in-rule", variant("deal 1 from deck to hand", "deal 1 from deck hand"),
     RuleSyntaxError, "g/game.yaml:16:24: error: unexpected 'hand'; expected \"to\""),
    ("syntax-in-expression", variant("requires: coins >= 1", "requires: coins >="),
     RuleSyntaxError, 'g/game.yaml:13:23: error: unexpected end of line; expected "(", "-", "[", '
     '"can", "false", "none", "true", a name, a number, a string'),
    ("include-outside", variant("players: 2", "players: 2\ninclude: [../other.yaml]"), LoadError,
     "g/game.yaml:3:11: error: include '../other.yaml' leaves the game folder"),
    ("include-absolute", variant("players: 2", "players: 2\ninclude: [/etc/hostname]"), LoadError,
     "g/game.yaml:3:11: error: include '/etc/hostname' leaves the game folder"),
    ("include-missing", variant("players: 2", "players: 2\ninclude: [more.yaml]"), LoadError,
     "g/game.yaml:3:11: error: include 'more.yaml': no such file in the game folder"),
    ("python-object-tag",
     variant("game: g", 'game: g\ntitle: !!python/object/apply:os.system ["echo hi"]'),
     LoadError, "g/game.yaml:2:8: error: YAML tag 'tag:yaml.org,2002:python/object/apply:os.system'"
     " is not allowed in game files (plain data only)"),
    ("python-name-tag", variant("game: g", "game: g\ntitle: !!python/name:os.system"),
     LoadError, "g/game.yaml:2:8: error: YAML tag 'tag:yaml.org,2002:python/name:os.system' is not "
     "allowed in game files (plain data only)"),
    ("empty-action", variant("actions:\n", "actions:\n  sell:\n"), SchemaError,
     "g/game.yaml:12:3: error: actions.sell is empty: an action needs at least `effect:`"),
    ("empty-action-offered", variant("actions:\n", "actions:\n  sell:\n").replace(
        "actions: [buy]", "actions: [buy, sell]"), SchemaError,
     "g/game.yaml:12:3: error: actions.sell is empty: an action needs at least `effect:`"),
    ("empty-item", variant("  card: {count", "  token:\n  card: {count"), SchemaError,
     "g/game.yaml:10:3: error: items.token is empty: items need `count:` (or `from:` a table) "
     "and `zone:`"),
    ("empty-trigger", variant("flow:", "triggers:\n  t:\nflow:"), SchemaError,
     "g/game.yaml:18:3: error: triggers.t is empty: a trigger needs `when:` and `effect:`"),
    ("format-version", variant("players: 2", "meeplang: 2\nplayers: 2"), SchemaError,
     # a file written for another version of the format is refused, not read as this one
     "g/game.yaml:2:11: error: meeplang: 1 was expected"),
    ("alias", variant("  x: {initial: 0}", "  x: &c {initial: 0}\n  y: *c"), LoadError,
     "g/game.yaml:6:6: error: YAML anchors and aliases are not allowed in game files (write the "
     "value out, or use include:)"),
]


@pytest.mark.parametrize("name,text,cls,message", CASES, ids=[c[0] for c in CASES])
def test_load_error_message(write_game, name, text, cls, message):
    folder = write_game(text)
    with pytest.raises(cls) as info:
        load_game(folder)
    assert same_message(str(info.value), message)


@pytest.mark.parametrize("name,text,cls,message", CASES, ids=[c[0] for c in CASES])
def test_check_cli_reports_load_error(write_game, capsys, tmp_path, name, text, cls, message):
    check_cli_fails(capsys, tmp_path, write_game(text), message)


def test_unknown_top_level_key(write_game):
    folder = write_game(variant("players: 2", "players: 2\nplayers_count: 3"))
    with pytest.raises(SchemaError) as info:
        load_game(folder)
    text = str(info.value)
    assert text.startswith("g/game.yaml:3:1: error: unknown key 'players_count' in the file; "
                           "expected one of: ")
    allowed = text.split("expected one of: ")[1].split(", ")
    assert {"game", "players", "counters", "flow", "scoring"} <= set(allowed)
    assert allowed == sorted(allowed)


def test_unknown_key_lists_the_allowed_keys(write_game):
    folder = write_game(variant("  x: {initial: 0}", "  x: {initial: 0, maximum: 3}"))
    with pytest.raises(SchemaError) as info:
        load_game(folder)
    allowed = str(info.value).split("expected one of: ")[1].split(", ")
    assert {"doc", "initial", "max", "min", "overflow", "per"} <= set(allowed)
    assert allowed == sorted(allowed) and "maximum" not in allowed


def test_render_quotes_the_line_with_a_caret(write_game):
    folder = write_game(variant("count(hand) + x", "count(hnad) + x"))
    with pytest.raises(ResolveError) as info:
        load_game(folder)
    assert info.value.render().splitlines() == [
        "g/game.yaml:22:24: error: unknown name 'hnad'; did you mean 'hand'?",
        "      score: coins + count(hnad) + x",
        "    " + " " * 23 + "^",
    ]


def test_unused_counter_is_a_warning_and_strict_check_fails(write_game, capsys):
    folder = write_game(variant("  x: {initial: 0}", "  x: {initial: 0}\n  spare: {initial: 0}"))
    game = load_game(folder)
    assert [str(w) for w in game.warnings] == [
        "g/game.yaml:6:3: warning: counter 'spare' is never used"]
    assert main(["check", folder]) == 0
    out, err = capsys.readouterr()
    assert err == "g/game.yaml:6:3: warning: counter 'spare' is never used\n"
    assert out.startswith("ok: g (") and "1 warnings" in out
    assert main(["check", "--strict", folder]) == 1
    out, err = capsys.readouterr()
    assert err == "g/game.yaml:6:3: warning: counter 'spare' is never used\n"
    assert "Traceback" not in err


def test_unused_zone_table_and_option_warn(write_game):
    folder = write_game(variant("zones:", "options:\n  o: 3\ntables:\n  t: [1]\nzones:\n  pile: {}"))
    assert [str(w) for w in load_game(folder).warnings] == [
        "g/game.yaml:11:3: warning: zone 'pile' is never used",
        "g/game.yaml:9:3: warning: table 't' is never used",
        "g/game.yaml:7:3: warning: option 'o' is never used",
    ]


def test_arity_message_of_variadic_builtin(write_game):
    folder = write_game(variant("count(hand) + x", "count(hand) + max()"))
    with pytest.raises(ResolveError) as info:
        load_game(folder)
    assert str(info.value) == "g/game.yaml:22:32: error: max() takes at least 1 argument, got 0"


def test_unreachable_after_while_true(write_game):
    folder = write_game(variant("  - turns:\n      actions: [buy]\n      until: one_round",
                                "  - while: true\n    steps:\n      - do: set x to 1\n"
                                "  - do: set x to 2\n  - turns:\n      actions: [buy]"))
    with pytest.raises(ResolveError) as info:
        load_game(folder)
    assert str(info.value) == ("g/game.yaml:21:5: error: unreachable: the step before this one "
                               "(while true, at g/game.yaml:18:5) never finishes, so the flow "
                               "cannot get here")


ACTIONS = """\
actions:
  buy:
    requires: coins >= 1
    effect: |
      pay 1 coins
      deal 1 from deck to hand
"""


def test_include_merges_files_of_the_folder(write_game):
    main_file = variant(ACTIONS, "include: [more/actions.yaml]\n")
    folder = write_game(main_file, files={"more/actions.yaml": ACTIONS})
    game = load_game(folder)
    assert set(game.actions) == {"buy"}
    assert game.actions["buy"].requires.pos.path == "g/more/actions.yaml"
    assert game.actions["buy"].requires.pos.line == 3


def test_error_inside_an_included_file_points_into_it(write_game):
    main_file = variant(ACTIONS, "include: [actions.yaml]\n")
    folder = write_game(main_file, files={"actions.yaml": ACTIONS.replace("coins >= 1", "coins >= ")})
    with pytest.raises(RuleSyntaxError) as info:
        load_game(folder)
    assert str(info.value).startswith("g/actions.yaml:3:23: error: unexpected end of line")


def test_include_through_a_symlink_out_of_the_folder_is_refused(write_game, tmp_path, capsys):
    (tmp_path / "outside.yaml").write_text("tables: {t: [1]}\n")
    folder = write_game(variant("players: 2", "players: 2\ninclude: [link.yaml]"))
    (tmp_path / folder / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value) == "g/game.yaml:3:11: error: include 'link.yaml' leaves the game folder"
    check_cli_fails(capsys, tmp_path, folder, str(info.value))


def test_an_include_name_with_a_nul_byte_is_refused_at_the_name(write_game):
    # found by the fuzzer: a NUL cannot be in a file name, and Python refused it with a traceback
    folder = write_game(variant("players: 2", 'players: 2\ninclude: ["cards\\0.yaml"]'))
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value) == "g/game.yaml:3:11: error: include: each entry must be a file name"


def test_yaml_tag_never_runs_code(write_game, tmp_path, capsys):
    marker = tmp_path / "pwned"
    folder = write_game(variant(
        "game: g", f'game: g\ntitle: !!python/object/apply:os.system ["touch {marker}"]'))
    with pytest.raises(LoadError) as info:
        load_game(folder)
    check_cli_fails(capsys, tmp_path, folder, str(info.value))
    assert not marker.exists()


def test_billion_laughs_is_refused(write_game, capsys, tmp_path):
    lines = ["game: g", 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]")
    folder = write_game("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value) == ("g/game.yaml:3:10: error: YAML anchors and aliases are not allowed "
                               "in game files (write the value out, or use include:)")
    check_cli_fails(capsys, tmp_path, folder, str(info.value))


def test_file_over_two_megabytes_is_refused(write_game, capsys, tmp_path):
    folder = write_game(BASE.encode() + b"# " + b"x" * (2 * 1024 * 1024) + b"\n")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value) == "g/game.yaml:1:1: error: file is larger than 2 MB"
    check_cli_fails(capsys, tmp_path, folder, str(info.value))


def test_non_utf8_bytes_are_refused_with_their_position(write_game, capsys, tmp_path):
    folder = write_game(b"game: g\nplayers: 2\ntitle: caf\xe9 au lait\n")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value) == "g/game.yaml:3:11: error: file is not valid UTF-8"
    check_cli_fails(capsys, tmp_path, folder, "g/game.yaml:3:11: error: file is not valid UTF-8")


def test_control_character_is_a_load_error(write_game, capsys, tmp_path):
    """Found by this suite: PyYAML's reader error escaped before the loader's error handling."""
    folder = write_game(b"game: g\nplayers: 2\ntitle: a\x01b\n")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value).startswith("g/game.yaml:3:9: error: YAML cannot contain the character")
    check_cli_fails(capsys, tmp_path, folder, str(info.value))


def test_mapping_with_number_and_text_keys_loads_or_is_refused_cleanly(write_game):
    folder = write_game("game: g\nplayers: 2\ntables:\n  t: {1: a, x: b}\nscoring:\n  score: 0\n")
    try:
        game = load_game(folder)
    except MeeplangError as exc:
        assert exc.pos.path == "g/game.yaml" and exc.pos.line == 4
        return
    assert game.tables["t"] == {1: "a", "x": "b"}


def test_nul_byte_is_refused(write_game, capsys, tmp_path):
    folder = write_game(b"game: g\ntitle: a\x00b\n")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert str(info.value) == "g/game.yaml:2:9: error: file contains a NUL byte"
    check_cli_fails(capsys, tmp_path, folder, str(info.value))


def test_deep_nesting_is_refused(write_game):
    folder = write_game("game: g\ntables:\n  t: " + "[" * 100 + "]" * 100 + "\n")
    with pytest.raises(LoadError) as info:
        load_game(folder)
    assert "YAML nesting deeper than 64 levels" in str(info.value)
    assert info.value.pos.path == "g/game.yaml" and info.value.pos.line == 3


def test_errors_are_meeplang_errors_with_a_position(write_game):
    for _, text, cls, _ in CASES:
        folder = write_game(text)
        with pytest.raises(MeeplangError) as info:
            load_game(folder)
        assert isinstance(info.value, cls)
        assert info.value.pos.path == "g/game.yaml" and info.value.pos.line >= 1


# ---------------------------------------------------------------- the real command
def test_meeplang_check_subprocess_exit_1_without_traceback(write_game, tmp_path):
    folder = write_game(variant("count(hand) + x", "count(hnad) + x"))
    before = files_under(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "meeplang.cli", "check", folder],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.splitlines()[0] == ("g/game.yaml:22:24: error: unknown name 'hnad'; did "
                                           "you mean 'hand'?")
    assert "Traceback" not in proc.stderr
    assert files_under(tmp_path) == before


def test_check_unknown_game_is_usage_error_exit_2(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "no_such_game"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("meeplang: error: no game named 'no_such_game' (bundled games: ")
    assert "goofspiel" in err and "pig" in err


def test_actions_without_a_flow_warn_and_strict_check_fails(write_game, capsys):
    flow = BASE[BASE.index("flow:"):BASE.index("scoring:")]
    folder = write_game(variant(flow, ""))
    assert [str(w) for w in load_game(folder).warnings] == [
        "g/game.yaml:1:1: warning: the game has actions but no `flow:`: no one is ever asked to "
        "take one (the game ends at once)"]
    assert main(["check", "--strict", folder]) == 1
    assert "no `flow:`" in capsys.readouterr().err


@pytest.mark.parametrize("extends, ok", [("g", True), ("../../g", True), ("nosuchgame", False),
                                         ("pig", False)])
def test_a_variant_in_the_variants_folder_extends_its_own_game(write_game, capsys, extends, ok):
    folder = write_game(BASE, files={"variants/v.yaml": f"extends: {extends}\nplayers: 2\n"})
    if ok:
        assert load_game(f"{folder}:v").variant == "v"
        return
    with pytest.raises(LoadError) as info:
        load_game(f"{folder}:v")
    assert str(info.value) == (f"g/variants/v.yaml:1:10: error: extends: {extends!r} is not this "
                               "game: a variant in the variants/ folder of 'g' extends 'g'")
    assert main(["check", f"{folder}:v"]) == 1
    assert capsys.readouterr().err.startswith("g/variants/v.yaml:1:10: error: extends:")


@pytest.mark.parametrize("target", ["x" * 5000, "x" * 5000 + ".yaml", "pig:" + "x" * 5000,
                                    "x" * 300 + "/" + "y" * 300])
def test_a_name_longer_than_the_system_takes_names_no_game(target, capsys):
    # found by the fuzzer: the disk probe of such a name was an OSError (File name too long)
    with pytest.raises(UsageError) as info:
        load_game(target)
    assert "no game named" in info.value.message or "has no variant" in info.value.message
    assert main(["check", target]) == 2
    assert "error:" in capsys.readouterr().err
