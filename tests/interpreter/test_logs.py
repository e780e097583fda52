"""Determinism, logs and replay, save and load."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from meeplang.dsl.errors import LoadError, Pos
from meeplang.dsl.loader import bundled_games
from meeplang.dsl.resolve import load_game
from meeplang.interpreter import log as L
from meeplang.interpreter.agents import make_agents
from meeplang.interpreter.engine import Engine
from meeplang.interpreter.simulation import play_game
from meeplang.cli import main

GAMES = Path(__file__).resolve().parents[2] / "games"


@pytest.fixture(scope="module")
def pig():
    return load_game("pig")


@pytest.fixture(scope="module")
def goofspiel():
    return load_game("goofspiel")


# ---------------------------------------------------------------- determinism
@pytest.mark.parametrize("name,players", [("pig", 2), ("pig", 3), ("goofspiel", 2)])
@pytest.mark.parametrize("agents", ["random", "first", "random,greedy"])
def test_same_inputs_give_byte_identical_logs(name, players, agents):
    game = load_game(name)
    a = L.log_lines(play_game(game, players, 7, agents))
    b = L.log_lines(play_game(load_game(name), players, 7, agents))
    assert a == b
    assert json.loads(a[0]) == {"format": "meeplang-log/1", "meeplang": json.loads(a[0])["meeplang"],
                                "game": name, "variant": None, "players": players, "seed": 7,
                                "options": {}, "rules": game.rules_hash}
    assert json.loads(a[-1])["event"] == "end"


@pytest.mark.parametrize("name", ["pig", "goofspiel"])
def test_different_seeds_give_different_games(name):
    game = load_game(name)
    logs = {tuple(L.log_lines(play_game(game, 2, seed, "random"))[1:]) for seed in range(5)}
    assert len(logs) == 5


def test_agents_do_not_use_the_game_rng(goofspiel):
    """The prize order depends on the seed only, whatever the agents choose."""
    def prize_order(agents):
        e = Engine(goofspiel, 2, seed=11)
        seats = make_agents(agents, 2, 11)
        d = e.start()
        order = []
        while d is not None:
            order.append(e.state["zones"]["prize_shown"][-1])
            d = e.choose(seats[d.player].choose(e, d, None))
        return order

    assert len(prize_order("random")) == 26
    assert prize_order("random") == prize_order("first")


# ---------------------------------------------------------------- replay
def write(tmp_path, engine, name="game.jsonl"):
    path = tmp_path / name
    L.write_log(str(path), engine)
    return path


@pytest.mark.parametrize("name,players", [("pig", 2), ("pig", 4), ("goofspiel", 2)])
def test_a_written_log_replays(tmp_path, name, players):
    e = play_game(load_game(name), players, 5, "random")
    path = write(tmp_path, e)
    again = L.replay(str(path))
    assert again.result == e.result
    assert again.state == e.state
    assert L.log_lines(again) == L.log_lines(e)
    assert path.read_text().splitlines() == L.log_lines(e)


def _lines(path):
    return path.read_text().splitlines()


def test_a_tampered_die_roll_is_refused(tmp_path, pig):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    lines = _lines(path)
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "roll")
    original = json.loads(lines[n])
    forged = dict(original, value=original["value"] % 6 + 1)
    lines[n] = L.dumps_line(forged)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == (f"{path}:{n + 1}:1: error: replay differs from the log here: log "
                               f"says {L.dumps_line(forged)}, replay gives "
                               f"{L.dumps_line(original)}")


def _tamper_first_roll_decision(path):
    """Turn the first `roll` decision into a `stop` (choice 0 -> 1); -> its index in the lines."""
    lines = _lines(path)
    # pig offers [roll, stop] while rolling is allowed, so choice 1 is a legal `stop`
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "decision"
             and json.loads(line).get("option") == "roll")
    lines[n] = L.dumps_line(dict(json.loads(lines[n]), choice=1))
    path.write_text("\n".join(lines) + "\n")
    return n


def test_a_tampered_choice_is_refused(tmp_path, pig, capsys):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    _tamper_first_roll_decision(path)
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert info.value.pos.path == str(path)
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}:") and "Traceback" not in err


def test_a_tampered_choice_is_reported_where_the_log_differs(tmp_path, pig):
    """Found by this suite: the error used to be 'the log ends before the game does'."""
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    n = _tamper_first_roll_decision(path)
    forged = json.loads(_lines(path)[n])
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    replayed = dict(forged, option="stop")  # choice 1 of [roll, stop]
    assert str(info.value) == (f"{path}:{n + 1}:1: error: replay differs from the log here: log "
                               f"says {L.dumps_line(forged)}, replay gives "
                               f"{L.dumps_line(replayed)}")


def test_a_log_with_a_line_removed_is_refused(tmp_path, pig):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    lines = _lines(path)
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "roll")
    del lines[n]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert info.value.pos.path == str(path) and info.value.pos.line == n + 1


def test_a_truncated_log_is_refused(tmp_path, pig):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    lines = _lines(path)
    decisions = [i for i, line in enumerate(lines) if json.loads(line).get("event") == "decision"]
    path.write_text("\n".join(lines[: decisions[-1]]) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == (f"{path}:{decisions[-1]}:1: error: the log ends before the game "
                               "does")


def test_a_log_recorded_with_other_rules_is_refused(tmp_path, pig):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    lines = _lines(path)
    header = json.loads(lines[0])
    lines[0] = L.dumps_line(dict(header, rules="0123456789abcdef"))
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == (f"{path}:1:1: error: this was recorded with other rules for pig "
                               f"(rules 0123456789abcdef, now {pig.rules_hash}): the game files "
                               "changed since")


def test_editing_the_game_invalidates_its_logs(tmp_path):
    folder = tmp_path / "mypig"
    shutil.copytree(GAMES / "pig", folder)
    game = load_game(str(folder))
    path = write(tmp_path, play_game(game, 2, 1, "random"))
    assert L.replay(str(path)).result is not None
    # a comment is not a rule: the hash is taken over the data, so the log still replays
    # (added at the end, so that the rule positions recorded in the log stay the same)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text + "# a new comment\n")
    assert L.replay(str(path)).result is not None
    (folder / "game.yaml").write_text(text.replace("roll d6 as die", "roll d5 as die"))
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert info.value.message.startswith(f"this was recorded with other rules for {folder.resolve()}"
                                         f" (rules {game.rules_hash}, now ")


@pytest.mark.parametrize("content,message", [
    ("", "not a Meeplang file of format meeplang-log/1"),
    ('{"format": "meeplang-save/1"}\n', "not a Meeplang file of format meeplang-log/1"),
    ("[1, 2]\n", "each line must be a JSON object"),
])
def test_files_that_are_not_logs_are_refused(tmp_path, content, message):
    path = tmp_path / "x.jsonl"
    path.write_text(content)
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == f"{path}:1:1: error: {message}"


def test_a_line_that_is_not_json_is_refused_with_its_position(tmp_path, pig):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    lines = _lines(path)
    lines[2] = '{"event": oops}'
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == f"{path}:3:11: error: not JSON: Expecting value"


@pytest.mark.parametrize("choice", [7, -1, "0", None])
def test_an_illegal_choice_in_a_log_is_a_load_error(tmp_path, pig, capsys, choice):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    lines = _lines(path)
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "decision")
    record = json.loads(lines[n])
    if choice is None:
        del record["choice"]
    else:
        record["choice"] = choice
    lines[n] = L.dumps_line(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert info.value.pos.path == str(path)
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}:") and "Traceback" not in err


# ---------------------------------------------------------------- save and load
@pytest.mark.parametrize("name,players,seed", [("pig", 2, 1), ("pig", 3, 2), ("goofspiel", 2, 3),
                                                ("goofspiel", 2, 4)])
def test_save_load_continue_gives_identical_games(name, players, seed):
    game = load_game(name)
    rng = random.Random(seed)
    full = play_game(game, players, seed, "random")
    stop_at = rng.randrange(1, len(full.choices))

    e = Engine(game, players, seed)
    d = e.start()
    for _ in range(stop_at):
        d = e.choose(rng.randrange(len(d.options)))
    saved = L.save(e)
    assert saved[0]["format"] == "meeplang-save/2" and saved[-1]["choices"] == stop_at
    f = L.load(json.loads(json.dumps(saved)))
    assert f.state == e.state and f.choices == e.choices
    assert f.decision.labels == d.labels and f.decision.player == d.player
    while d is not None:
        i = rng.randrange(len(d.options))
        d = e.choose(i)
        d2 = f.choose(i)
        assert (d is None) == (d2 is None)
    assert e.result == f.result
    assert e.state == f.state
    assert L.log_lines(e) == L.log_lines(f)


def test_save_file_and_load_file(tmp_path, pig):
    e = Engine(pig, 2, seed=9)
    d = e.start()
    for _ in range(10):
        d = e.choose(0 if len(d.options) == 1 else 1 - (len(e.choices) % 2))
    path = tmp_path / "s.json"
    L.save_file(str(path), e)
    f = L.load_file(str(path))
    assert f.state == e.state and f.decision.labels == d.labels


def test_a_save_whose_state_does_not_match_is_refused(pig):
    e = Engine(pig, 2, seed=9)
    e.start()
    for _ in range(6):
        e.choose(0)
    saved = L.save(e)
    with pytest.raises(LoadError) as info:
        L.load(saved[:-1] + [dict(saved[-1], state="0" * 16)])
    assert str(info.value) == (f"<save>:{len(saved)}:1: error: the saved state does not match "
                               "the replayed game")
    with pytest.raises(LoadError) as info:
        L.load([dict(saved[0], format="meeplang-log/1")] + saved[1:], "s.json")
    assert str(info.value) == "s.json:1:1: error: not a Meeplang save"


# ---------------------------------------------------------------- a save is data checked like a log
@pytest.fixture
def saved_pig(tmp_path, pig):
    """A pig game saved after 8 decisions: (path, its lines, the engine)."""
    e = Engine(pig, 2, seed=9)
    d = e.start()
    for k in range(8):
        d = e.choose(1 if k == 3 and "stop" in d.labels else 0)
    path = tmp_path / "s.jsonl"
    L.save_file(str(path), e)
    return path, path.read_text().splitlines(), e


def _load_refused(path, lines: list[str], monkeypatch) -> tuple[str, int]:
    """Load a tampered save: (the error, how many choices were made before it was refused)."""
    path.write_text("\n".join(lines) + "\n")
    made = []
    real = Engine.choose
    monkeypatch.setattr(Engine, "choose", lambda self, i: made.append(i) or real(self, i))
    with pytest.raises(LoadError) as info:
        L.load_file(str(path))
    return str(info.value), len(made)


def _decision_lines(lines: list[str]) -> list[int]:
    return [n for n, line in enumerate(lines) if '"event":"decision"' in line]


def test_a_saved_game_loads_as_it_was(saved_pig):
    path, _, e = saved_pig
    f = L.load_file(str(path))
    assert f.state == e.state and f.events == e.events and f.decision.labels == e.decision.labels


def test_a_save_with_a_changed_action_name_is_refused_before_it_runs(saved_pig, monkeypatch):
    path, lines, _ = saved_pig
    stops = [n for n in _decision_lines(lines) if '"option":"stop"' in lines[n]]
    k = stops[0]
    lines[k] = lines[k].replace('"option":"stop"', '"option":"roll"')
    error, made = _load_refused(path, lines, monkeypatch)
    assert error.startswith(f"{path}:{k + 1}:1: error: the save's choice is not the game's here")
    # the decisions before it were made; the tampered one never was
    assert made == _decision_lines(lines).index(k)


def test_a_save_with_a_changed_option_index_is_refused_before_it_runs(saved_pig, monkeypatch):
    path, lines, _ = saved_pig
    k = _decision_lines(lines)[2]
    lines[k] = lines[k].replace('"choice":0', '"choice":1')  # `stop` now, still labelled `roll`
    error, made = _load_refused(path, lines, monkeypatch)
    assert error.startswith(f"{path}:{k + 1}:1: error: the save's choice is not the game's here")
    assert made == 2
    lines[k] = lines[k].replace('"choice":1', '"choice":7')  # no such option
    error, made = _load_refused(path, lines, monkeypatch)
    assert error.startswith(f"{path}:{k + 1}:1: error: choice 7 is not one of the options here")


def test_a_save_with_a_changed_die_is_refused_at_it(saved_pig, monkeypatch):
    path, lines, _ = saved_pig
    k = next(n for n, line in enumerate(lines) if '"event":"roll"' in line)
    value = json.loads(lines[k])["value"]
    lines[k] = lines[k].replace(f'"value":{value}', f'"value":{value % 6 + 1}')
    error, made = _load_refused(path, lines, monkeypatch)
    assert error.startswith(f"{path}:{k + 1}:1: error: the save differs from the game here")
    assert made == 1


def test_a_save_that_is_not_json_is_refused_at_the_character(saved_pig, monkeypatch):
    path, lines, _ = saved_pig
    lines[5] = lines[5].replace('"event":', '"event" ', 1)
    error, made = _load_refused(path, lines, monkeypatch)
    assert error.startswith(f"{path}:6:") and "error: not JSON: Expecting ':' delimiter" in error
    assert made == 0  # nothing runs before the whole file is read


@pytest.mark.parametrize("cut", ["line", "middle"])
def test_a_truncated_save_is_refused_at_its_end(saved_pig, monkeypatch, cut):
    path, lines, _ = saved_pig
    if cut == "line":  # whole lines kept, the last one lost
        kept = lines[:-3]
        error, _ = _load_refused(path, kept, monkeypatch)
        assert error == (f"{path}:{len(kept)}:1: error: the save is cut short: its last line must "
                         'be the saved state ({"event": "saved", ...})')
    else:  # cut in the middle of a line
        kept = lines[:-3] + [lines[-3][:20]]
        error, made = _load_refused(path, kept, monkeypatch)
        assert error.startswith(f"{path}:{len(kept)}:") and "not JSON" in error
        assert made == 0


def test_a_save_of_the_older_format_is_refused(saved_pig, monkeypatch):
    path, lines, e = saved_pig
    old = {**json.loads(lines[0]), "format": "meeplang-save/1", "choices": e.choices,
           "state": "0" * 16}
    error, _ = _load_refused(path, [json.dumps(old)], monkeypatch)
    assert error == f"{path}:1:1: error: not a Meeplang file of format meeplang-save/2"


# ---------------------------------------------------------------- logs tell the game
def test_pig_log_explains_the_scores(pig):
    """Rebuild every pig score from the logged decisions and dice alone."""
    for seed in range(30):
        e = play_game(pig, 3, seed, "random")
        points, turn_total = [0, 0, 0], 0
        for ev in e.events:
            if ev["event"] == "roll":
                turn_total = 0 if ev["value"] == 1 else turn_total + ev["value"]
            elif ev["event"] == "decision" and ev["option"] == "stop":
                points[ev["player"]] += turn_total
                turn_total = 0
        assert e.result["scores"] == points
        assert e.result["winners"] == [p for p in range(3) if points[p] >= 100]


# ---------------------------------------------------------------- hostile logs
def _pig_log(tmp_path, pig):
    path = write(tmp_path, play_game(pig, 2, 3, "random"))
    return path, _lines(path)


@pytest.mark.parametrize("field, value, message", [
    ("players", "abc", "the header's 'players' must be a whole number, not \"abc\""),
    ("players", True, "the header's 'players' must be a whole number, not true"),
    ("players", 10000000, "the header does not fit the game: pig is for 2-10 players, not "
                          "10000000"),
    ("seed", None, "the header's 'seed' must be a whole number, not null"),
    ("options", [1], "the header's 'options' must be a mapping, not [1]"),
    ("options", {"target": [1]}, "the header's option 'target' must be a number, text or "
                                 "true/false, not [1]"),
    ("options", {"speed": 1}, "the header does not fit the game: game 'pig' has no option "
                              "'speed' (options: horizon, target)"),
    ("game", 5, "the header's 'game' must be a text, not 5"),
    ("variant", 5, "the header's 'variant' must be a text, not 5"),
    ("variant", "nosuch", "this log's game is not here: game 'pig' has no variant 'nosuch' "
                          "(variants: short)"),
    ("game", "nosuch", "this log's game is not here: no game named 'nosuch' (bundled games: "
                       f"{', '.join(bundled_games())}; or give a folder or a .yaml file)"),
    # found by the fuzzer: a name longer than the system takes was an OSError from the disk probe
    ("variant", "x" * 5000, "this log's game is not here: game 'pig' has no variant "
                            f"{'x' * 5000!r} (variants: short)"),
])
def test_a_header_with_wrong_types_is_refused_at_the_header(tmp_path, pig, capsys, field, value,
                                                            message):
    path, lines = _pig_log(tmp_path, pig)
    lines[0] = L.dumps_line(dict(json.loads(lines[0]), **{field: value}))
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == f"{path}:1:1: error: {message}"
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:1:1: error: ")


@pytest.mark.parametrize("line, message", [
    ('{"event": "roll", "value": 1' + "0" * 5000 + "}",
     "not a value a log holds: a number of 5001 digits"),
    ('{"event": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "not a value a log holds: nested too deeply"),
])
def test_absurd_values_in_a_log_line_are_refused_at_the_line(tmp_path, pig, line, message):
    path, lines = _pig_log(tmp_path, pig)
    lines[2] = line
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == f"{path}:3:1: error: {message}"


@pytest.mark.parametrize("choice", [7, -1, "0", 1.5])
def test_an_illegal_choice_is_reported_at_its_line(tmp_path, pig, choice):
    path, lines = _pig_log(tmp_path, pig)
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("event") == "decision")
    lines[n] = L.dumps_line(dict(json.loads(lines[n]), choice=choice))
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == (f"{path}:{n + 1}:1: error: choice {json.dumps(choice)} is not one "
                               "of the options here (0 to 1: roll, stop)")


def test_an_extra_event_after_the_end_is_reported_at_its_line(tmp_path, pig):
    path, lines = _pig_log(tmp_path, pig)
    lines.append('{"event":"roll","value":3}')
    path.write_text("\n\n".join(lines) + "\n")  # blank lines do not shift the reported line
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == (f"{path}:{2 * len(lines) - 1}:1: error: the game is over, but the "
                               "log goes on for 1 more line")


def test_a_log_that_is_a_fifo_is_refused_without_waiting(tmp_path):
    import os

    os.mkfifo(tmp_path / "pipe.jsonl")
    with pytest.raises(LoadError, match="not a regular file"):
        L.replay(str(tmp_path / "pipe.jsonl"))


def test_numbers_in_a_log_are_read_up_to_thirty_digits(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"format": "meeplang-log/1", "seed": %s}\n' % ("9" * L.MAX_JSON_DIGITS))
    assert L._read_records(str(path), L.FORMAT)[0][1]["seed"] == int("9" * L.MAX_JSON_DIGITS)
    path.write_text('{"format": "meeplang-log/1", "seed": -%s}\n' % ("9" * (L.MAX_JSON_DIGITS + 1)))
    with pytest.raises(LoadError, match="a number of 31 digits"):
        L._read_records(str(path), L.FORMAT)


def test_a_log_over_the_size_limit_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as f:
        f.truncate(L.MAX_LOG_BYTES + 1)  # sparse: reading it would cost 64 MB
    with pytest.raises(LoadError) as info:
        L.replay(str(path))
    assert str(info.value) == f"{path}:1:1: error: file is larger than 64 MB"


def test_a_game_given_to_replay_is_used_only_for_the_log_that_names_it(pig, goofspiel):
    """check --deep hands replay the game it holds, so as not to load it again; a log of
    another game (or variant) loads its own, and the rules hash is checked either way."""
    records = [json.loads(line) for line in L.log_lines(play_game(pig, 2, 3))]
    assert L.replay_records(records, game=pig).game is pig
    assert L.replay_records(records, game=goofspiel).game.name == "pig"
    short = load_game("pig", "short")
    assert L.replay_records(records, game=short).game.variant is None
    records[0]["rules"] = "0" * 64
    with pytest.raises(LoadError, match="recorded with other rules"):
        L.replay_records(records, game=pig)
