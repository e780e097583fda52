"""`meeplang view`: the data a replay page is built from (each viewer's states, options, events
and changes, where the flow stands), the command (errors, -o, --lang, --seat), escaping and
determinism, and the replays `simulate --report` links."""
from __future__ import annotations

import csv
import json
import re
import shutil

import pytest

from meeplang.cli import main
from meeplang.dsl.model import DoStep, PhaseStep, RepeatStep
from meeplang.interpreter.log import replay, write_log
from meeplang.interpreter.simulation import play_game
from meeplang.dsl.resolve import load_game
from meeplang.visualizer import viewer as V

needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed")


def make_log(folder, name: str, players: int, seed: int, options=None, game=None):
    game = game or load_game(name)
    engine = play_game(game, players, seed, "random", options)
    path = folder / f"{name.replace(':', '-')}-{seed}.jsonl"
    write_log(str(path), engine)
    return path


@pytest.fixture(scope="module")
def goof_log(tmp_path_factory):
    return make_log(tmp_path_factory.mktemp("logs"), "goofspiel", 2, 3, {"num_cards": 4})


@pytest.fixture(scope="module")
def goof(goof_log):
    return V.build_data(str(goof_log))


def states(viewer: dict) -> list:
    """Every step's state of a viewer, rebuilt from the first one and the diffs."""
    out = [viewer["first"]]
    for ops in viewer["diffs"]:
        out.append(V.patch(out[-1], ops))
    return out


def by_id(data, viewer_id):
    return next(v for v in data["viewers"] if v["id"] == viewer_id)


def author_states(log_path) -> list:
    """The author's state at each decision and at the end, read from a replay of our own."""
    seen = []
    engine = replay(str(log_path), lambda e, d, i: seen.append(V.shown_state(e.view(None))))
    return seen + [V.shown_state(engine.view(None))]


# ---------------------------------------------------------------- compact states
def test_diff_and_patch_rebuild_the_state():
    a = {"counters": {"x": 1, "y": 2}, "players": [{"c": 1}, {"c": 2}],
         "zones": {"hand@0": ["a", "b"], "deck": ["c"]}, "items": {"a": {"v": 1}}}
    b = {"counters": {"x": 1, "z": 0}, "players": [{"c": 1}, {"c": 5}],
         "zones": {"hand@0": ["b"], "deck": ["c", "a"]}, "items": {"a": {"v": None}}}
    ops = V.diff(a, b)
    assert V.patch(a, ops) == b
    assert [["counters", "y"]] in ops  # a deletion
    assert [["players", 1, "c"], 5] in ops  # a seat's counter, not the whole list
    assert [["zones", "hand@0"], ["b"]] in ops  # a zone's list replaced whole
    assert V.diff(a, a) == []
    assert V.patch(a, V.diff(a, [1])) == [1]  # the root replaced


def test_every_viewers_states_rebuild_from_the_diffs(goof_log, goof):
    _, _, data = goof
    truth = author_states(goof_log)
    assert states(by_id(data, V.AUTHOR)) == truth
    assert len(data["steps"]) == len(truth) == data["decisions"] + 1


# ---------------------------------------------------------------- what a seat sees
def test_the_other_seats_hand_is_not_in_seat_0s_data(goof_log, goof):
    """Seat 0's data holds the other hand as `?` only: no id, no label of a card in it, in the
    states, options, events or changes of any step, until the card has left the hand."""
    game, _, data = goof
    truth = author_states(goof_log)
    seat0 = by_id(data, 0)
    said = V._Say(game, "en")
    hidden_at_some_step = 0
    for k, (mine, all_) in enumerate(zip(states(seat0), truth)):
        hand = all_["zones"]["hand@1"]
        assert mine["zones"]["hand@1"] == ["?"] * len(hand)
        step_data = json.dumps([mine, seat0["options"][k], seat0["events"][k],
                                seat0["changes"][k]], ensure_ascii=False)
        for card in hand:
            assert card not in step_data, (k, card)
            assert said.item(card, None) not in step_data, (k, card)
            hidden_at_some_step += 1
    assert hidden_at_some_step > 4
    # and the author does see them
    assert by_id(data, V.AUTHOR)["first"]["zones"]["hand@1"] == truth[0]["zones"]["hand@1"]


def test_a_page_for_one_seat_holds_no_other_view(goof_log):
    _, _, data = V.build_data(str(goof_log), seat=0)
    assert [v["id"] for v in data["viewers"]] == [0]
    _, _, data = V.build_data(str(goof_log), seat="all")
    assert [v["id"] for v in data["viewers"]] == [V.AUTHOR]


def test_options_as_each_viewer_sees_them(goof_log, goof):
    _, _, data = goof
    records = [json.loads(line) for line in goof_log.read_text().splitlines()]
    decisions = [r for r in records if r.get("event") == "decision"]
    author, seat0, seat1 = by_id(data, V.AUTHOR), by_id(data, 0), by_id(data, 1)
    for k, d in enumerate(decisions):
        assert data["steps"][k]["player"] == d["player"]
        assert author["taken"][k] == d["choice"]
        n = len(author["options"][k])
        if d["player"] == 1:  # seat 1's secret pick: seat 0 sees places in a hand, no choice
            assert seat0["options"][k] == [f"Hand (Player 1), place {i + 1}" for i in range(n)]
            assert seat0["taken"][k] is None
            assert seat1["taken"][k] == d["choice"]
        else:
            assert seat0["taken"][k] == d["choice"]
            assert seat0["options"][k] == author["options"][k]
            assert all(o.startswith("Bid card #0.") for o in seat0["options"][k])
    assert author["options"][-1] == [] and author["taken"][-1] is None  # the end


# ---------------------------------------------------------------- events and changes
def test_each_steps_changes_and_events(goof_log, goof):
    game, _, data = goof
    truth = author_states(goof_log)
    author = by_id(data, V.AUTHOR)
    said = V._Say(game, "en")
    # step 2 opens round 2: both cards went from hand to the played cards
    for seat in (0, 1):
        played = [x for x in truth[2]["zones"][f"played@{seat}"]]
        assert len(played) == 1
        line = (f"{said.item(played[0], truth[2]['items'][played[0]])}: Hand (Player {seat}) → "
                f"Cards played (Player {seat})")
        assert line in author["changes"][2]
    for k in range(1, len(truth)):
        assert author["changes"][k] == V.changes_text(said, truth[k - 1], truth[k])
    points = [p["points"] for p in truth[2]["players"]]
    if points != [0, 0]:
        winner = points.index(max(points))
        assert f"Points (Player {winner}): 0 → {max(points)}" in author["changes"][2]
    assert author["changes"][0] == []
    # events since the previous decision, each with its rule line
    first = [text for text, _ in author["events"][0]]
    assert first[0] == "Start: 2 players, seed 3"
    assert "Shuffle: Prize deck" in first and "Phase: Bidding" in first
    texts = [text for text, _ in author["events"][2]]
    assert texts[0].startswith("Player 1 chose: Bid card #1.")
    assert any(t.startswith("Revealed (Card): Bid card #0.") for t in texts)
    ats = dict((t, at) for t, at in author["events"][2])
    assert ats[texts[0]] == "games/goofspiel/game.yaml:61"
    assert data["rules"]["games/goofspiel/game.yaml:61"] == \
        "secretly each player chooses card in hand"
    # seat 0 does not learn seat 1's pick when it is made, only at the reveal
    assert by_id(data, 0)["events"][2][0][0] == "Player 1 chose: (a secret choice)"
    end = [t for t, _ in author["events"][-1]]
    assert end[-1].startswith("Final scores: Player 0 ")


# ---------------------------------------------------------------- where the game stands
def test_the_running_step_is_highlighted(goof):
    game, diagram, data = goof
    ids = {id(s): i for s, i in diagram.step_ids}
    loop = game.flow[0]
    phase = loop.steps[0]
    assert isinstance(loop, RepeatStep) and isinstance(phase, PhaseStep)
    do = phase.steps[0]
    assert isinstance(do, DoStep)
    for k, s in enumerate(data["steps"][:-1]):
        assert s["node"] == ids[id(do)]
        assert s["within"] == [ids[id(loop)], ids[id(phase)]]
        assert s["where"] == [f"Round {k // 2 + 1}/4", "Bidding"]
        assert s["at"] == "games/goofspiel/game.yaml:61"
    assert data["steps"][-1]["node"] == diagram.final_id
    assert data["steps"][-1]["where"] == ["Game over"]


def test_a_turns_step_and_the_action_taken_are_highlighted(tmp_path):
    log = make_log(tmp_path, "pig", 2, 5, {"target": 12})
    _, diagram, data = V.build_data(str(log), detail="actions")
    (step, turns_node, actions), = diagram.turns
    records = [json.loads(line) for line in log.read_text().splitlines()]
    taken = [r["option"] for r in records if r.get("event") == "decision"]
    assert {"roll", "stop"} <= set(taken)
    for s, option in zip(data["steps"], taken):
        assert s["node"] == turns_node and s["turns"]
        assert s["action"] == actions[option]
    _, _, data = V.build_data(str(log), detail="phases")  # no action nodes at this detail
    assert {s["action"] for s in data["steps"]} == {None}


def test_french_words_and_terms(goof_log):
    game, _, data = V.build_data(str(goof_log), lang="fr")
    author = by_id(data, V.AUTHOR)
    assert data["steps"][0]["where"] == ["Manche 1/4", "Enchères"]
    assert "Phase : Enchères" in [t for t, _ in author["events"][0]]
    assert any(" : Main (Joueur 0) → Cartes jouées (Joueur 0)" in line
               for line in author["changes"][2])
    assert data["words"] == V.WORDS["fr"]
    assert data["names"]["zones"]["hand@1"][0] == "Main (Joueur 1)"


def test_both_languages_have_every_word():
    assert V.WORDS["en"].keys() == V.WORDS["fr"].keys()
    for lang, words in V.WORDS.items():
        for key, text in words.items():
            assert text.count("{}") == V.WORDS["en"][key].count("{}"), (lang, key)


# ---------------------------------------------------------------- the command
@needs_dot
def test_view_writes_the_page(goof_log, tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["view", str(goof_log), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="en">' in page
    assert "<svg" in page and 'id="ml-data"' in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)  # nothing fetched
    data = json.loads(re.search(r'<script type="application/json" id="ml-data">(.*?)</script>',
                                page, re.S).group(1))
    assert data["decisions"] == 8 and len(data["viewers"]) == 3
    first = out.read_bytes()
    assert main(["view", str(goof_log), "-o", str(out)]) == 0
    assert out.read_bytes() == first  # the same log, the same page, byte for byte


@needs_dot
def test_view_default_name_lang_and_seat(goof_log, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["view", str(goof_log), "--lang", "fr", "--seat", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    page = (tmp_path / f"{goof_log.stem}.html").read_text(encoding="utf-8")
    assert result == {"ok": True, "path": f"{goof_log.stem}.html"}
    assert '<html lang="fr">' in page and "Relecture" in page and "Vue de : Joueur 0" in page
    assert "Enchères" in page and 'id="ml-viewer"' not in page


def _refused(args, capsys, out):
    rc = main(args)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert not out.exists()
    return rc, err


def test_a_log_that_does_not_replay_is_refused(goof_log, tmp_path, capsys):
    lines = goof_log.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"event":"decision"' in line)
    record = json.loads(lines[n])
    record["choice"] = (record["choice"] + 1) % 2
    lines[n] = json.dumps(record)
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    out = tmp_path / "tampered.html"
    rc, err = _refused(["view", str(bad), "-o", str(out)], capsys, out)
    assert rc == 1
    assert err.startswith(f"{bad}:{n + 1}:1: error: replay differs from the log here")

    other = tmp_path / "other.jsonl"  # recorded with other rules
    header = json.loads(lines[0])
    header["rules"] = "0" * 16
    other.write_text("\n".join([json.dumps(header)] + goof_log.read_text().splitlines()[1:]))
    rc, err = _refused(["view", str(other), "-o", str(out)], capsys, out)
    assert rc == 1 and err.startswith(f"{other}:1:1: error: this was recorded with other rules")

    junk = tmp_path / "junk.jsonl"
    junk.write_text("{not json\n")
    rc, err = _refused(["view", str(junk), "-o", str(out)], capsys, out)
    assert rc == 1 and err.startswith(f"{junk}:1:2: error: not JSON")

    rc, err = _refused(["view", str(tmp_path / "nothing.jsonl"), "-o", str(out)], capsys, out)
    assert rc == 1 and ": error: cannot read" in err


def test_bad_usage_is_refused(goof_log, tmp_path, capsys):
    out = tmp_path / "page.html"
    rc, err = _refused(["view", str(goof_log), "--seat", "2", "-o", str(out)], capsys, out)
    assert rc == 2 and "--seat 2: this game" in err and "seats 0 to 1" in err
    rc, err = _refused(["view", str(goof_log), "--seat", "x", "-o", str(out)], capsys, out)
    assert rc == 2 and "--seat takes a seat number or `all`" in err
    missing = tmp_path / "no" / "page.html"
    rc, err = _refused(["view", str(goof_log), "-o", str(missing)], capsys, missing)
    assert rc == 2 and "no folder" in err


def test_a_log_longer_than_the_limit_is_refused(goof_log, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(V, "MAX_DECISIONS", 5)
    out = tmp_path / "page.html"
    rc, err = _refused(["view", str(goof_log), "-o", str(out)], capsys, out)
    assert rc == 1
    assert err.startswith(f"{goof_log}:1:1: error: this log has 8 decisions; meeplang view "
                          "shows games of at most 5")


HOSTILE = """\
game: hostile
title: {en: "<script>alert('title')</script>", fr: "<b>titre</b>"}
players: {min: 2, max: 2}
terms:
  coins: {en: "<img src=x onerror=alert(1)>", fr: "</script><script>alert(2)</script>"}
  hand: {en: "Hand & <i>co</i>", fr: "Main"}
counters:
  coins: {per: player, initial: 0}
zones:
  hand: {per: player, visibility: owner}
items:
  chip: {per: player, count: 2, zone: hand, fields: {label: '"</script><script>alert(3)</script>"'}}
flow:
  - turns:
      actions: [take]
      per_turn: 1
      until: never
actions:
  take:
    effect: |
      add 1 to coins
      log "<script>alert(4)</script>"
      if coins >= 2:
        end game
scoring:
  score: coins
"""


@needs_dot
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_texts_from_the_game_and_the_log_are_escaped(write_game, tmp_path, lang):
    game = load_game(write_game(HOSTILE, "hostile"))
    log = make_log(tmp_path, "hostile", 2, 1, game=game)
    out = tmp_path / "hostile.html"
    V.write_view(str(log), out, lang=lang)
    page = out.read_text(encoding="utf-8")
    assert page.count("<script") == 2  # the data and the page's own script, nothing else
    assert page.count("</script>") == 2
    assert "<img" not in page and "<i>co" not in page and "<b>titre" not in page
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;" in page or lang == "fr"
    data = json.loads(re.search(r'id="ml-data">(.*?)</script>', page, re.S).group(1))
    assert data["title"] == ("<script>alert('title')</script>" if lang == "en"
                             else "<b>titre</b>")
    log_lines = [t for v in data["viewers"] for step in v["events"] for t, _ in step]
    assert any("<script>alert(4)</script>" in t for t in log_lines)  # as text, in the data


# ---------------------------------------------------------------- simulate --report
@needs_dot
def test_simulate_report_links_replays_of_its_first_games(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "rep"
    assert main(["simulate", "goofspiel", "-n", "5", "--seed", "2", "--option", "num_cards=4",
                 "--report", str(folder)]) == 0
    rows = list(csv.DictReader((folder / "games.csv").open()))
    index = (folder / "index.html").read_text(encoding="utf-8")
    for i in range(V_REPLAYS):
        log, page = folder / "replays" / f"game-{i}.jsonl", folder / "replays" / f"game-{i}.html"
        engine = replay(str(log))  # a true log of game i: its seed, its scores
        assert engine.seed == int(rows[i]["seed"])
        assert [str(s) for s in engine.result["scores"]] == [rows[i]["score_0"],
                                                            rows[i]["score_1"]]
        assert 'id="ml-data"' in page.read_text(encoding="utf-8")
        assert f'href="replays/game-{i}.html"' in index
    assert not (folder / "replays" / f"game-{V_REPLAYS}.html").exists()


V_REPLAYS = 3


@pytest.mark.parametrize("target,players", [("new-eden", 2), ("new-eden:solo", 1)])
def test_a_seat_is_never_told_of_an_item_it_could_not_see(tmp_path, target, players):
    """Across a whole game: a seat's options, events and changes at a step name no item that
    its view (the engine's, at that step or the one before) does not show: not another seat's
    black-market offer it chooses from in secret, not the automa's cards, not a hidden deck."""
    log = make_log(tmp_path, target, players, 2, game=load_game(target))
    game, _, data = V.build_data(str(log))
    said = V._Say(game, "en")
    truth = states(by_id(data, V.AUTHOR))
    names = {item: re.compile("(" + re.escape(item) + "|" + re.escape(said.item(item, None))
                              + r")(?![\d.])") for item in truth[0]["items"]}
    checked = 0
    for seat in range(players):
        mine = states(by_id(data, seat))
        viewer = by_id(data, seat)
        for k, state in enumerate(mine):
            shown = json.dumps([state, mine[k - 1] if k else None])
            told = json.dumps([viewer["options"][k], viewer["events"][k], viewer["changes"][k]],
                              ensure_ascii=False)
            for item, name in names.items():
                if not name.search(shown):
                    checked += 1
                    assert not name.search(told), (seat, k, item, told)
    assert checked > 1000
