"""A variant changes only what the game has; new entries are said with `add:`."""
import pytest

from meeplang.dsl.errors import LoadError
from meeplang.dsl.resolve import load_game


def _variant(tmp_path, text: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text("variant: house\nextends: pig\n" + text)
    return str(path)


def _error(tmp_path, text: str) -> str:
    with pytest.raises(LoadError) as info:
        load_game(_variant(tmp_path, text))
    return str(info.value)


def test_changing_an_action_the_game_lacks_is_an_error_with_did_you_mean(tmp_path):
    err = _error(tmp_path, "actions:\n  stopp:\n    requires: turn_total >= 5\n")
    assert err.endswith("house.yaml:4:3: error: the game has no actions.stopp to change; did you "
                        "mean 'stop'? (a new entry goes under `add:`)")


def test_a_misspelled_table_option_or_counter_is_an_error(tmp_path):
    assert "the game has no options.targt to change; did you mean 'target'?" in _error(
        tmp_path, "options:\n  targt: {default: 30}\n")
    assert "the game has no counters.point to change; did you mean 'points'?" in _error(
        tmp_path, "counters:\n  point: {initial: 3}\n")


def test_a_key_a_table_lacks_is_an_error(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("game: g\nplayers: 2\ntables:\n  prices: {1: 10, 2: 6}\n"
                    "counters:\n  c: {initial: 0}\nsetup: set c to prices[1]\nscoring:\n  score: c\n")
    (tmp_path / "v.yaml").write_text("variant: v\nextends: g.yaml\ntables:\n  prices: {3: 1}\n")
    with pytest.raises(LoadError, match=r"v.yaml:4:12: error: the game has no tables.prices.3"):
        load_game(str(tmp_path / "v.yaml"))
    (tmp_path / "v.yaml").write_text("variant: v\nextends: g.yaml\ntables:\n  prices: {1: 12}\n")
    assert load_game(str(tmp_path / "v.yaml")).tables["prices"] == {1: 12, 2: 6}


def test_add_makes_new_entries_and_refuses_existing_ones(tmp_path):
    game = load_game(_variant(tmp_path, "add:\n  counters:\n    bonus: {per: player, initial: 2}\n"))
    assert game.counters["bonus"].per_player
    err = _error(tmp_path, "add:\n  actions:\n    stop:\n      effect: pass\n")
    assert err.endswith("house.yaml:5:5: error: add.actions.stop: the game already has "
                        "actions.stop; change it outside `add:`")
    assert "add: 'flow' is not a section of named entries" in _error(
        tmp_path, "add:\n  flow: []\n")


def test_a_partial_override_of_an_existing_entry_merges(tmp_path):
    game = load_game(_variant(tmp_path, "actions:\n  stop:\n    requires: turn_total >= 5\n"))
    assert game.actions["stop"].requires is not None
    assert game.actions["stop"].effect == load_game("pig").actions["stop"].effect


RACE = """game: race
players: 2
counters:
  position: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [roll], per_turn: 1, until: one_round}
actions:
  roll:
    effect: add 1 to position
scoring:
  score: position
"""


def test_a_game_file_not_named_game_yaml_is_checked_as_itself(tmp_path):
    (tmp_path / "game.yaml").write_text(RACE.replace("game: race", "game: other"))
    (tmp_path / "race.yaml").write_text(RACE)
    assert load_game(str(tmp_path / "race.yaml")).name == "race"
    assert load_game(str(tmp_path)).name == "other"


def test_variant_given_as_a_file_must_extend_that_game(tmp_path):
    from meeplang.dsl.errors import UsageError

    path = _variant(tmp_path, "options:\n  target: {default: 30}\n")
    assert load_game("pig", path).options["target"].default == 30
    with pytest.raises(UsageError, match="not a variant of goofspiel"):
        load_game("goofspiel", path)


def test_a_table_of_one_number_is_read_as_that_number_and_overridden_in_one_line(tmp_path):
    from meeplang.interpreter.engine import Engine

    race = RACE.replace("counters:", "tables:\n  step: 3\ncounters:").replace(
        "add 1 to position", "add step to position")
    (tmp_path / "race.yaml").write_text(race)
    (tmp_path / "long.yaml").write_text("variant: long\nextends: race.yaml\ntables:\n  step: 5\n")
    for path, step in (("race.yaml", 3), ("long.yaml", 5)):
        e = Engine(load_game(str(tmp_path / path)), 2, 0)
        d = e.start()
        while d is not None:
            d = e.choose(0)
        assert e.result["scores"] == [step, step]
    (tmp_path / "race.yaml").write_text(race.replace("score: position", "score: step[1]"))
    with pytest.raises(Exception, match="an int cannot be indexed"):
        load_game(str(tmp_path / "race.yaml"))
