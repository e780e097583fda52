"""`meeplang check --deep` passes on every bundled game and variant (a few games each)."""
import json

import pytest

from meeplang.dsl.loader import bundled_games
from meeplang.cli import main


def _every_target() -> list[str]:
    from meeplang.interpreter.deep_check import targets_of
    return [t for game in bundled_games() for t in targets_of(game)]


@pytest.mark.parametrize("target", _every_target())
def test_deep_check_passes_on_every_bundled_game(target):
    """One game per variant and player count: every count of every variant is played, replayed
    and saved and loaded again (more seeds in the slow test below). One test per game or
    variant, so that the big games' share spreads over the test workers."""
    from meeplang.interpreter.deep_check import run_deep

    game = target.partition(":")[0]
    summary, broken = run_deep(game, 1, targets=[target])
    assert broken is None, broken
    played = sum(games for _, _, games in summary.runs)  # one per player count (then option bounds)
    assert summary.runs and summary.reloads == played and summary.games >= played


def test_deep_check_command_passes_and_says_what_it_did(capsys):
    assert main(["check", "--deep", "goofspiel", "-n", "1"]) == 0
    out = capsys.readouterr().out
    assert "save/load round trips" in out and "goofspiel:descending" in out


@pytest.mark.slow
@pytest.mark.parametrize("game", bundled_games())
def test_deep_check_passes_on_more_seeds(game, capsys):
    assert main(["check", "--deep", game, "-n", "4"]) == 0
    assert "save/load round trips" in capsys.readouterr().out


def test_deep_check_reports_a_broken_invariant_with_the_seed_to_reproduce(tmp_path, capsys):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "game.yaml").write_text("""
game: broken
players: [2, 2]
counters:
  points: {per: player, initial: 0}
flow:
  - turns: {first: 0, actions: [score], per_turn: 1, until: one_round}
actions:
  score: {effect: gain 2 points}
invariants:
  points_stay_small: all(p.points < 2 for p in players)
scoring: {score: points}
""")
    assert main(["check", "--deep", str(folder), "-n", "1"]) == 1
    err = capsys.readouterr().err
    assert "BROKEN:" in err and "invariant points_stay_small" in err and "is false" in err
    assert f"reproduce: meeplang play {folder} --players 2 --seed" in err


BOUND_GAME = """
game: bounded
players: [2, 3]
options:
  pick: {default: 1, min: 0, max: 5}     # the table has 3 entries: 3, 4 and 5 cannot play
counters:
  points: {per: player, initial: 0}
tables:
  values: [1, 2, 3]
flow:
  - turns: {first: 0, actions: [score], per_turn: 1, until: one_round}
actions:
  score: {effect: "gain values[pick] points"}
scoring: {score: points}
"""


def test_deep_check_plays_each_option_bound_and_reports_one_that_does_not_play(tmp_path, capsys):
    """An option's bounds are values the game says it can play: `check --deep` plays each one
    (here at 2 and 3 players) and reports the first that breaks a game as an error at the bound,
    with the game that broke and how to reproduce it."""
    folder = tmp_path / "bounded"
    folder.mkdir()
    (folder / "game.yaml").write_text(BOUND_GAME)
    assert main(["check", "--deep", str(folder), "-n", "1"]) == 1
    out, err = capsys.readouterr()
    assert f"ok: {folder} with pick at its min 0: 2 players, 3 players" in out
    first = err.splitlines()[0]
    assert first.startswith(f"{folder / 'game.yaml'}:5:35: error: option pick: the game does "
                            f"not play at its max 5 ({folder} with 2 players, seed ")
    assert "game.yaml:13:25: error: no entry 5" in err     # what broke, where
    assert "--option pick=5 --trace" in err and "Traceback" not in err
    assert main(["check", "--deep", str(folder), "-n", "1", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["at"] == {
        "path": str(folder / "game.yaml"), "line": 5, "col": 35}
    (folder / "game.yaml").write_text(BOUND_GAME.replace("max: 5", "max: 2"))
    assert main(["check", "--deep", str(folder), "-n", "1"]) == 0
    assert f"ok: {folder} with pick at its max 2: 2 players, 3 players" in capsys.readouterr().out


MANY_ITEMS = """
game: many
players: [2, 2]
zones:
  deck: {}
  hand: {per: player}
items:
  card: {count: 5000, zone: deck}
flow:
  - turns: {first: 0, actions: [draw], per_turn: 1, until: never}
actions:
  draw:
    effect: |
      move first(deck) to hand
      if count(hand) >= 3:
        end game
scoring: {score: count(hand)}
"""


def test_deep_check_keeps_one_copy_of_the_start_state(write_game, monkeypatch):
    """Each game's replay and save/load round trip used to load the game again: a new model,
    with a new program keeping its own copy of the start state (every item's place), so a
    100,000-item game grew the process by ~80 MB a game until memory ran out. The games deep
    check plays, replays and reloads all share the one program of the game it loaded."""
    from meeplang.interpreter import compile as closures, generated
    from meeplang.interpreter.deep_check import run_deep

    monkeypatch.setattr(closures, "_programs", closures.PerGame(closures.Compiled))
    monkeypatch.setattr(generated, "_programs", closures.PerGame(generated.generated_program))
    summary, broken = run_deep(write_game(MANY_ITEMS), games_per_count=3)
    assert broken is None and summary.replays == summary.reloads == 3
    kept = [len(state["loc"]) for cache in (closures._programs, generated._programs)
            for _, program, _ in cache.entries.values() for state in program.initial_states.values()]
    assert kept == [5000]
