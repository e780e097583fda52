"""`meeplang check --deep` passes on every bundled game and variant (a few games each)."""
import pytest

from meeplang.dsl.loader import bundled_games
from meeplang.cli import main


@pytest.mark.parametrize("game", bundled_games())
def test_deep_check_passes_on_every_bundled_game(game, capsys):
    """One game per variant and player count: every count of every variant is played, replayed
    and saved and loaded again (more seeds in the slow test below)."""
    assert main(["check", "--deep", game, "-n", "1"]) == 0
    out = capsys.readouterr().out
    assert "save/load round trips" in out


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
