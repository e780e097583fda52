"""`meeplang playtest` in a real browser: the system Chromium driven by Playwright (never
`playwright install`) against a uvicorn server in a thread on a free port of 127.0.0.1. Pig is
played to its end by clicking; a New Eden inner decision is undone and redone; a refused action
shows its reason; an edit of a variant file shows its error in the page, and its fix restarts
the game."""
from __future__ import annotations

import os
import shutil
import threading
import time

import pytest

from meeplang.dsl.loader import games_dir
from meeplang.visualizer import playtest as P

uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed")
pytest.importorskip("starlette", reason="starlette is not installed")


@pytest.fixture()
def serve():
    """serve(session) -> the page's URL; the server stops at the end of the test."""
    from meeplang.playtest_cli import _listen

    servers = []

    def start(session):
        sock = _listen(0)
        port = sock.getsockname()[1]
        token = P.new_token()
        config = uvicorn.Config(P.make_app(session, token, port), log_level="warning",
                                access_log=False, lifespan="off")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        servers.append((server, thread, sock))
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started
        return f"http://127.0.0.1:{port}/?token={token}"

    yield start
    for server, thread, sock in servers:
        server.should_exit = True
        thread.join(10)
        sock.close()


def open_page(browser, url):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("body[data-choices]")
    return page, problems


def click(page, selector):
    """Click and wait for the page to show the answer."""
    before = page.evaluate("document.body.getAttribute('data-choices') + '|' + "
                           "document.body.getAttribute('data-viewer')")
    page.click(selector)
    page.wait_for_function(
        "b => !document.body.hasAttribute('data-busy') && document.body.getAttribute("
        "'data-choices') + '|' + document.body.getAttribute('data-viewer') !== b", arg=before)


def options(page) -> list[str]:
    return page.eval_on_selector_all("#ml-choices button", "bs => bs.map(b => b.textContent)")


def body(page, name):
    return page.evaluate(f"document.body.getAttribute('data-{name}')")


def test_pig_to_the_end_by_clicking(browser, serve):
    session = P.PlaytestSession("pig", players=2, seed=7, agents="human",
                                options={"target": "12"})
    page, problems = open_page(browser, serve(session))
    assert page.locator("#ml-diagram svg").count() == 1
    assert page.locator("#ml-diagram g.ml-current").count() == 1
    assert options(page) == ["Roll", "stop"]
    rolls = 0
    for _ in range(400):
        if body(page, "over") == "1":
            break
        player = body(page, "player")
        if rolls < 2 and page.locator('#ml-choices button[data-label="roll"]').count():
            click(page, '#ml-choices button[data-label="roll"]')
            rolls += 1
        else:
            click(page, '#ml-choices button[data-label="stop"]')
            rolls = 0
        if body(page, "player") != player:
            rolls = 0
    assert body(page, "over") == "1"
    heading = page.text_content("#ml-heading")
    assert heading.startswith("Game over · Scores: Player 0 ")
    assert options(page) == []
    assert session.engine.decision is None  # the page drove the session
    # the seat switcher: as seat 1
    page.select_option("#ml-viewer", "1")
    page.wait_for_function("() => document.body.getAttribute('data-viewer') === '1'")
    assert "(you)" in page.text_content("#ml-card-1 h3")
    assert problems == []


def test_a_whole_game_against_an_agent_in_the_page(browser, serve):
    """Seat 0 a person clicking, seat 1 the random agent moved by the page's buttons ("Agent
    move" once, then "Auto-play until a human decides"): the game ends, and the agent's moves
    are the session's."""
    session = P.PlaytestSession("pig", players=2, seed=11, agents="human,random",
                                options={"target": "12"})
    page, problems = open_page(browser, serve(session))
    agent_moves = 0
    for _ in range(400):
        if body(page, "over") == "1":
            break
        if body(page, "player") == "1":  # the agent's seat: the page's buttons move it
            button = "#ml-agent" if agent_moves == 0 else "#ml-auto"
            assert page.is_enabled(button)
            click(page, button)
            agent_moves += 1
        else:
            assert page.is_disabled("#ml-agent")  # a person's decision: no agent move
            label = "roll" if page.locator('#ml-choices button[data-label="roll"]').count() and \
                int(body(page, "choices")) % 3 else "stop"
            click(page, f'#ml-choices button[data-label="{label}"]')
    assert body(page, "over") == "1" and session.engine.decision is None
    assert agent_moves >= 2 and 1 in session.engine.choosers  # the agent played
    assert problems == []


def test_undo_and_redo_inside_a_new_eden_action(browser, serve):
    session = P.PlaytestSession("new-eden", players=2, seed=1, agents="human", lang="fr")
    page, problems = open_page(browser, serve(session))
    action_kind = body(page, "kind")
    assert action_kind == "une action"
    for _ in range(60):  # the first option each time, until an action asks inside itself
        if body(page, "kind") != action_kind:
            break
        click(page, "#ml-choices button >> nth=0")
    inner_kind, inner_options = body(page, "kind"), options(page)
    assert inner_kind != action_kind
    n = int(body(page, "choices"))
    click(page, "#ml-choices button >> nth=0")
    after = options(page)
    click(page, "#ml-undo")
    assert body(page, "kind") == inner_kind and options(page) == inner_options
    assert int(body(page, "choices")) == n
    assert page.is_enabled("#ml-redo")
    click(page, "#ml-redo")
    assert int(body(page, "choices")) == n + 1 and options(page) == after
    assert not page.is_enabled("#ml-redo")
    assert page.text_content("#ml-undo").endswith("Annuler")
    assert problems == []


def test_a_refused_action_shows_its_reason(browser, serve):
    session = P.PlaytestSession("pig", players=2, seed=2, agents="human,random",
                                options={"target": "2"})
    page, problems = open_page(browser, serve(session))
    for _ in range(100):  # player 0 rolls; player 1's agent is stepped until its turn ends
        if page.locator('#ml-refused li[data-action="roll"]').count():
            break
        if body(page, "player") == "1":
            click(page, "#ml-agent")
        else:
            click(page, '#ml-choices button[data-label="roll"]')
        assert body(page, "over") == "0", "player 1's agent won: take another seed"
    reason = page.text_content('#ml-refused li[data-action="roll"] .ml-reason')
    assert reason.startswith("roll is not allowed now: it requires points + turn_total < target")
    assert "games/pig/game.yaml:" in reason
    assert page.is_visible("#ml-refused-heading")
    assert options(page) == ["stop"]
    assert problems == []


def test_an_edit_shows_its_error_and_its_fix_restarts_the_game(browser, serve, tmp_path):
    folder = tmp_path / "pig"
    shutil.copytree(games_dir() / "pig", folder)
    variant = folder / "variants" / "short.yaml"
    session = P.PlaytestSession(str(folder), "short", players=2, seed=3, agents="human")
    page, problems = open_page(browser, serve(session))
    for _ in range(3):
        click(page, "#ml-choices button >> nth=0")
    choices = body(page, "choices")

    def edit(old, new):
        text = variant.read_text(encoding="utf-8")
        variant.write_text(text.replace(old, new), encoding="utf-8")
        st = variant.stat()
        os.utime(variant, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))

    edit("players: {min: 2, max: 4}", "players: {min: 2, max: 4, most: 3}")
    page.wait_for_selector("#ml-error:not([hidden])", timeout=10_000)
    error = page.text_content("#ml-error")
    assert "short.yaml:" in error and ": error: " in error
    assert "the game goes on with the rules it had" in error
    assert body(page, "choices") == choices and len(options(page)) == 2  # still playing
    edit("players: {min: 2, max: 4, most: 3}", "players: {min: 2, max: 3}")
    page.wait_for_selector("#ml-notice:not([hidden])", timeout=10_000)
    assert page.is_hidden("#ml-error")
    assert f"{choices} of {choices} choices were replayed" in page.text_content("#ml-notice")
    assert body(page, "choices") == choices
    assert problems == []


def test_a_refused_request_says_why_and_save_load_round_trip(browser, serve, tmp_path):
    session = P.PlaytestSession("pig", players=2, seed=5, agents="human")
    page, problems = open_page(browser, serve(session))
    page.fill("#ml-file", str(tmp_path / "missing.jsonl"))
    page.click("#ml-load")
    page.wait_for_selector("#ml-problem:not([hidden])")
    assert page.text_content("#ml-problem") == f"Error: {tmp_path / 'missing.jsonl'}: no such file"
    click(page, '#ml-choices button[data-label="roll"]')
    assert page.is_hidden("#ml-problem")
    save = tmp_path / "pig-save.jsonl"
    page.fill("#ml-file", str(save))
    page.click("#ml-save")
    page.wait_for_selector("#ml-notice:not([hidden])")
    assert save.is_file() and page.text_content("#ml-notice") == f"Saved to {save}"
    click(page, '#ml-choices button >> nth=0')
    click(page, "#ml-load")
    assert body(page, "choices") == "1" and page.text_content("#ml-notice") == f"Loaded {save}"
    # the one refused request, which the browser notes in its console
    assert problems == ["Failed to load resource: the server responded with a status of 400 "
                        "(Bad Request)"]
