"""`play --trace` shows what each rule changed, under its line, in the file that defines it."""
from meeplang.cli import main

BONUS = """variant: bonus
extends: pig
actions:
  stop:
    effect: |
      gain turn_total + 1 points
      set turn_total to 0
      if points >= target:
        end game
      end turn
"""


def test_trace_shows_counters_changing_under_the_variant_s_own_rule_line(tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bonus.yaml").write_text(BONUS)
    assert main(["play", "bonus.yaml", "--players", "2", "--seed", "3", "--trace",
                 "--log", "traced.jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("  bonus.yaml:6  | gain turn_total + 1 points")
    gained = lines[at + 1].strip()
    assert gained.startswith("points of player ") and " → " in gained
    before, after = (int(x) for x in gained.split(": ")[1].split(" → "))
    assert after > before
    assert any(line.startswith("  games/pig/game.yaml:50  | add die to turn_total")
               for line in lines)
    # the trace never reaches the log: the same game untraced writes the same bytes
    assert main(["play", "bonus.yaml", "--players", "2", "--seed", "3", "--log",
                 "plain.jsonl"]) == 0
    assert (tmp_path / "traced.jsonl").read_bytes() == (tmp_path / "plain.jsonl").read_bytes()


def test_trace_shows_items_moving(capsys):
    assert main(["play", "goofspiel", "--seed", "1", "--trace"]) == 0
    out = capsys.readouterr().out
    assert " → " in out and "prize#" in out
