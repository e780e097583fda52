"""`meeplang playtest`: the session without a server (choices, undo and redo at every decision,
agents, the refused actions with the engine's reason, save and load, an edit of the rules
reloading the game), and the Starlette app through its test client (the token and the Host
header are required; bad input is a JSON error with HTTP 400)."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from meeplang.dsl.errors import LoadError
from meeplang.dsl.loader import games_dir
from meeplang.interpreter.state import state_hash
from meeplang.visualizer import playtest as P
from meeplang.visualizer.viewer import WORDS


def session(name="pig", **kw):
    kw.setdefault("players", 2)
    kw.setdefault("seed", 1)
    return P.PlaytestSession(name, **kw)


def fingerprint(s):
    return (list(s.engine.choices), state_hash(s.engine.state), len(s.engine.events))


def test_words_have_the_same_keys_in_every_language():
    assert set(P.PLAY_WORDS["en"]) == set(P.PLAY_WORDS["fr"])
    assert not set(P.PLAY_WORDS["en"]) & set(WORDS["en"])  # no viewer word is redefined


def test_choose_undo_redo_and_a_new_choice_clears_redo():
    s = session()
    marks = [fingerprint(s)]
    for _ in range(4):
        s.choose(0)  # roll
        if s.engine.decision is None:
            break
        marks.append(fingerprint(s))
    s.undo()
    s.undo()
    assert fingerprint(s) == marks[-3]
    assert s.state()["can_redo"]
    s.redo()
    s.redo()
    assert fingerprint(s) == marks[-1]
    s.undo()
    s.choose(len(s.engine.decision.options) - 1)
    assert s.redo_stack == [] and not s.state()["can_redo"]
    with pytest.raises(P.PlaytestError, match="there is no choice to redo"):
        s.redo()
    with pytest.raises(P.PlaytestError, match=r"option 7 is not one of this decision's options"):
        s.choose(7)
    with pytest.raises(P.PlaytestError, match="not one of this decision's options"):
        s.choose("0")
    fresh = session()
    with pytest.raises(P.PlaytestError, match="there is no choice to undo"):
        fresh.undo()


def test_undo_and_redo_inside_an_action():
    """New Eden's inner decisions (a deeple to move, its destination) are undone and redone as
    exactly as the choice of an action."""
    s = session("new-eden")
    for _ in range(200):
        if s.engine.decision.kind != "action":
            break
        s.choose(0)
    d = s.engine.decision
    assert d.kind != "action"
    inner = fingerprint(s)
    s.choose(0)
    after = fingerprint(s)
    s.undo()
    assert fingerprint(s) == inner and s.engine.decision.kind == d.kind
    s.undo()  # back to the action that asked
    assert s.engine.decision.kind == "action"
    s.redo()
    assert fingerprint(s) == inner
    s.redo()
    assert fingerprint(s) == after


def test_same_seed_and_choices_give_the_same_game():
    a, b = session("new-eden", seed=3), session("new-eden", seed=3)
    for _ in range(30):
        a.choose(0)
        b.choose(0)
    assert fingerprint(a) == fingerprint(b)
    assert a.state() == b.state()


def test_agents_play_their_seats_and_auto_stops_at_a_human():
    s = session(agents="human,random")
    with pytest.raises(P.PlaytestError, match="player 0 is played by a person here"):
        s.agent_step()
    for _ in range(300):  # player 0 stops at once: player 1's agent is then to move
        d = s.engine.decision
        if d is None or d.player == 1:
            break
        s.choose(d.labels.index("stop"))
    assert s.state()["decision"]["human"] is False
    s.agent_step()
    s.auto()
    d = s.engine.decision
    assert d is None or s.is_human(d.player)
    everyone = session(agents="random", seed=4)
    moves = everyone.auto()  # nobody is human: the agents play the game to its end
    assert everyone.engine.decision is None and moves == len(everyone.engine.choices)
    assert everyone.state()["over"] and everyone.state()["scores"]


def test_a_refused_action_says_the_rule_and_condition():
    """Pig to 2 points: once the turn total reaches the target, `roll` is refused by its
    `requires:`, which the page shows with its position."""
    s = session(options={"target": "2"}, seed=2)
    for _ in range(100):
        d = s.state()["decision"]
        if d["refused"]:
            break
        labels = [o["label"] for o in d["options"]]
        s.choose(labels.index("roll"))
    refused = s.state()["decision"]["refused"]
    assert [r["action"] for r in refused] == ["roll"]
    reason = refused[0]["reason"]
    assert refused[0]["specific"]
    assert reason.startswith("roll is not allowed now: it requires points + turn_total < target")
    assert "games/pig/game.yaml:" in reason and "legal:" not in reason


def test_the_viewer_sees_what_the_engine_shows_a_seat():
    s = session("goofspiel", seed=1)
    s.set_viewer(0)
    zones = s.state()["state"]["zones"]
    hidden = [k for k, v in zones.items() if "?" in v]
    s.set_viewer("all")
    assert all("?" not in v for v in s.state()["state"]["zones"].values())
    assert hidden, "seat 0 does not see seat 1's hand"
    with pytest.raises(P.PlaytestError, match=r"seat 5 is not one of this game's seats"):
        s.set_viewer(5)


def test_a_secret_choice_is_not_said_to_the_other_seat():
    s = session("goofspiel", seed=1)
    assert s.engine.decision.secret
    s.choose(0)
    s.set_viewer(1)
    texts = [t for t, _ in s.state()["events"]]
    assert any(WORDS["en"]["secret_taken"] in t for t in texts)
    s.set_viewer(0)
    assert not any(WORDS["en"]["secret_taken"] in t for t, _ in s.state()["events"])


def test_save_and_load(tmp_path):
    s = session("new-eden", seed=5)
    for _ in range(12):
        s.choose(0)
    path = tmp_path / "game.jsonl"
    s.save(str(path))
    before = fingerprint(s)
    other = session("new-eden", seed=9)
    other.load(str(path))
    assert fingerprint(other) == before and other.seed == 5
    other.undo()  # undo goes on past the loaded point
    assert len(other.engine.choices) == 11
    assert "Saved to" in s.state()["notice"]
    with pytest.raises(P.PlaytestError, match="no such file"):
        other.load(str(tmp_path / "none.jsonl"))
    with pytest.raises(P.PlaytestError, match="this is a folder"):
        s.save(str(tmp_path))
    pig = session("pig")
    with pytest.raises(P.PlaytestError, match="is a save of new-eden, not of the game"):
        pig.load(str(path))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n")
    with pytest.raises(LoadError, match="bad.jsonl:1:1: error: not a Meeplang file of format "
                                        "meeplang-save/2"):
        pig.load(str(bad))


def _copy_pig(tmp_path):
    folder = tmp_path / "pig"
    shutil.copytree(games_dir() / "pig", folder)
    return folder


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    st = path.stat()  # a new mtime even within the clock's resolution
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


def test_an_edit_with_an_error_keeps_the_game_and_a_clean_one_restarts_it(tmp_path):
    folder = _copy_pig(tmp_path)
    s = P.PlaytestSession(str(folder), "short", players=2, seed=3)
    for _ in range(6):
        s.choose(0)
    before = fingerprint(s)
    assert s.check_files() is False  # nothing changed
    variant = folder / "variants" / "short.yaml"
    _edit(variant, "players: {min: 2, max: 4}", "players: {min: 2, max: 4, most: 3}")
    assert s.check_files() is False
    state = s.state()
    assert state["error"] and "short.yaml:" in state["error"] and ": error: " in state["error"]
    assert fingerprint(s) == before  # the game goes on with the old rules
    s.choose(0)
    s.undo()
    version = s.version
    _edit(variant, "players: {min: 2, max: 4, most: 3}", "players: {min: 2, max: 3}")
    assert s.check_files() is True
    state = s.state()
    assert state["error"] is None and state["version"] == version + 1
    assert fingerprint(s)[0] == before[0]  # the same choices, replayed from the same seed
    assert "6 of 6 choices" in state["notice"]
    _edit(variant, "default: 50, min: 1", "default: fifty, min: 1")
    s.check_files()  # loads, but fails as it runs: the game goes on too
    assert fingerprint(s)[0] == before[0] and "cannot compare" in s.state()["error"]


def test_an_edit_that_makes_a_choice_illegal_replays_up_to_it(tmp_path):
    folder = _copy_pig(tmp_path)
    s = P.PlaytestSession(str(folder), players=2, seed=3)
    s.choose(s.engine.decision.labels.index("stop"))
    s.choose(0)
    _edit(folder / "game.yaml", "  stop:\n    effect:", "  stop:\n    requires: false\n    effect:")
    assert s.check_files() is True
    assert s.engine.choices == [] and "0 of 2 choices" in s.state()["notice"]
    refused = s.state()["decision"]["refused"]
    assert refused[0]["action"] == "stop" and "requires false" in refused[0]["reason"]


# ---------------------------------------------------------------- the app
starlette_testclient = pytest.importorskip("starlette.testclient",
                                           reason="starlette is not installed")
PORT = 8799
TOKEN = "a-test-token"


@pytest.fixture()
def client():
    s = session(agents="human,random")
    app = P.make_app(s, TOKEN, PORT)
    with starlette_testclient.TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as c:
        yield c


def test_the_token_is_required(client):
    r = client.get("/state")
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert client.get("/state?token=wrong").status_code == 403
    assert client.post("/choose", json={"index": 0}).status_code == 403
    assert client.get("/", params={"token": "x"}).status_code == 403
    ok = client.get("/state", params={"token": TOKEN})
    assert ok.status_code == 200 and ok.json()["choices"] == 0
    ok = client.get("/state", headers={"X-Meeplang-Token": TOKEN})
    assert ok.status_code == 200


def test_another_host_is_refused(client):
    for host in ("evil.example:8799", f"127.0.0.1:{PORT + 1}", "localhost", "127.0.0.1"):
        r = client.get("/state", params={"token": TOKEN}, headers={"Host": host})
        assert r.status_code == 403, host
        assert "127.0.0.1 or localhost" in r.json()["error"]
    r = client.get("/state", params={"token": TOKEN}, headers={"Host": f"localhost:{PORT}"})
    assert r.status_code == 200


def test_bad_input_is_a_json_error(client):
    h = {"X-Meeplang-Token": TOKEN}
    r = client.post("/choose", content=b"{not json", headers=h)
    assert r.status_code == 400
    assert r.json()["error"].startswith("the request's body is not JSON")
    r = client.post("/choose", json=[1], headers=h)
    assert r.status_code == 400 and r.json()["error"] == "the request's body must be a JSON object"
    r = client.post("/choose", json={}, headers=h)
    assert r.status_code == 400 and r.json()["error"] == "the request needs 'index'"
    r = client.post("/choose", json={"index": 99}, headers=h)
    assert r.status_code == 400 and "option 99 is not one of" in r.json()["error"]
    r = client.post("/undo", headers=h)
    assert r.status_code == 400 and r.json()["error"] == "there is no choice to undo"
    r = client.post("/seat", json={"seat": "x"}, headers=h)
    assert r.status_code == 400 and "seat 'x' is not one of" in r.json()["error"]
    r = client.post("/load", json={"path": ""}, headers=h)
    assert r.status_code == 400 and r.json()["error"] == "give a file name"


def test_the_api_plays(client, tmp_path):
    h = {"X-Meeplang-Token": TOKEN}
    page = client.get("/", params={"token": TOKEN})
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert TOKEN in page.text and "default-src 'none'" in page.headers["content-security-policy"]
    r = client.post("/choose", json={"index": 1}, headers=h)  # stop: player 1's agent is next
    assert r.status_code == 200 and r.json()["choices"] == 1
    assert client.post("/agent-step", headers=h).json()["choices"] == 2
    state = client.post("/auto", headers=h).json()
    assert state["decision"] is None or state["decision"]["human"]
    state = client.post("/undo", headers=h).json()
    assert state["can_redo"]
    state = client.post("/redo", headers=h).json()
    assert not state["can_redo"]
    state = client.post("/seat", json={"seat": 1}, headers=h).json()
    assert state["viewer"] == 1
    save = tmp_path / "s.jsonl"
    state = client.post("/save", json={"path": str(save)}, headers=h).json()
    assert save.is_file() and state["notice"] == f"Saved to {save}"
    choices = state["choices"]
    client.post("/undo", headers=h)
    state = client.post("/load", json={"path": str(save)}, headers=h).json()
    assert state["choices"] == choices
    json.dumps(state)  # plain JSON all through


def test_a_game_text_is_never_markup_in_the_page(tmp_path):
    """The game's words reach the page as JSON for text nodes: a term with markup in it is
    escaped where the page's own markup says it (the title), and is data in /state."""
    folder = _copy_pig(tmp_path)
    _edit(folder / "game.yaml", "roll: {en: Roll, fr: Lancer}",
          "roll: {en: '<img src=x onerror=alert(1)>', fr: Lancer}")
    s = P.PlaytestSession(str(folder), players=2, seed=1)
    text = P.page(s, TOKEN)
    assert "<img src=x" not in text
    assert any(o["text"] == "<img src=x onerror=alert(1)>"
               for o in s.state()["decision"]["options"])


# ---------------------------------------------------------------- the command
def test_the_command_refuses_bad_arguments(capsys):
    from meeplang.cli import main

    assert main(["playtest", "no-such-game", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("meeplang: error: ") and "no-such-game" in err
    assert main(["playtest", "pig", "--players", "1", "--no-browser"]) == 2
    assert capsys.readouterr().err == "meeplang: error: pig is for 2-10 players, not 1\n"
    assert main(["playtest", "pig", "--agents", "human,wizard", "--no-browser"]) == 2
    assert "unknown agent 'wizard'" in capsys.readouterr().err
    assert main(["playtest", "pig", "--port", "70000", "--no-browser"]) == 2
    assert capsys.readouterr().err == ("meeplang: error: --port 70000: a port is a number from 0 "
                                       "to 65535\n")


def test_the_command_serves_on_127_0_0_1_with_a_token():
    """The real command, run as a user does: it prints the page's address (a free port, the
    token) and serves the page and the API there; without the token it refuses."""
    import signal
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "meeplang", "playtest", "pig", "--port", "0",
                             "--no-browser", "--seed", "4"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("playtest of pig at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].strip()
        base, token = url.split("/?token=")
        with urllib.request.urlopen(f"{base}/state?token={token}", timeout=20) as r:
            state = json.loads(r.read())
        assert state["seed"] == 4 and state["decision"]["options"][0]["label"] == "roll"
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"{base}/state", timeout=20)
        assert info.value.code == 403
        proc.send_signal(signal.SIGINT)  # Ctrl-C: how a playtest ends
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 0 and out.endswith("playtest stopped\n") and err == ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(20)


def test_without_the_extra_the_command_says_what_to_install(monkeypatch, capsys):
    import importlib.util

    from meeplang.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["playtest", "pig", "--no-browser"]) == 2
    assert capsys.readouterr().err == ("meeplang: error: meeplang playtest needs starlette and "
                                       "uvicorn: pip install 'meeplang[playtest]'\n")
