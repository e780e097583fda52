"""`meeplang view` pages in a real browser: the system Chromium driven by Playwright (never
`playwright install`: it downloads a browser). Steps a goofspiel game forwards then backwards as
seat 0 (the other hand stays hidden; the highlighted step and the options follow the steps),
and a New Eden page in French."""
from __future__ import annotations

import pytest

from meeplang.dsl.resolve import load_game
from meeplang.interpreter.log import write_log
from meeplang.interpreter.simulation import play_game
from meeplang.visualizer import viewer as V


def open_page(browser, path):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"fetched {r.url}")
            if not r.url.startswith(("file:", "data:")) else None)
    page.goto(path.resolve().as_uri())
    return page, problems


def write(tmp_path, name, players, seed, lang="en", options=None):
    engine = play_game(load_game(name), players, seed, "random", options)
    log = tmp_path / f"{name}.jsonl"
    write_log(str(log), engine)
    out = tmp_path / f"{name}-{lang}.html"
    V.write_view(str(log), out, lang=lang)
    return log, out


def shown(page) -> dict:
    """What the page shows now: its step, options, the taken one, the highlighted nodes, and
    the chips of seat 1's hand."""
    return page.evaluate("""() => ({
        step: +document.body.getAttribute("data-step"),
        viewer: document.body.getAttribute("data-viewer"),
        options: [...document.querySelectorAll("#ml-options li:not(.ml-none)")]
                   .map(li => li.textContent),
        taken: [...document.querySelectorAll("#ml-options li.ml-taken")].map(li => li.textContent),
        current: [...document.querySelectorAll("#ml-diagram g.ml-current")].map(g => g.id),
        within: [...document.querySelectorAll("#ml-diagram g.ml-within")].map(g => g.id).sort(),
        hand1: [...document.querySelectorAll('[data-zone="hand@1"] .ml-chip')]
                 .map(c => [c.className, c.textContent]),
        state: document.getElementById("ml-state").innerText,
        changes: [...document.querySelectorAll("#ml-changes li")].map(li => li.textContent),
    })""")


def test_goofspiel_forwards_then_backwards_as_seat_0(tmp_path, browser):
    log, out = write(tmp_path, "goofspiel", 2, 4, options={"num_cards": 5})
    game, _, data = V.build_data(str(log))
    said = V._Say(game, "en")
    author = next(v for v in data["viewers"] if v["id"] == V.AUTHOR)
    seat0_index = next(i for i, v in enumerate(data["viewers"]) if v["id"] == 0)
    seat0 = data["viewers"][seat0_index]
    truth = [author["first"]]
    for ops in author["diffs"]:
        truth.append(V.patch(truth[-1], ops))
    last = len(data["steps"]) - 1
    page, problems = open_page(browser, out)
    page.select_option("#ml-viewer", str(seat0_index))

    def check(k):
        now = shown(page)
        step = data["steps"][k]
        assert now["step"] == k and now["viewer"] == "0"
        assert now["options"] == seat0["options"][k]
        taken = seat0["taken"][k]
        assert now["taken"] == ([] if taken is None else [seat0["options"][k][taken]])
        assert now["current"] == [step["node"]]
        assert now["within"] == sorted(step["within"])
        assert now["changes"] == (seat0["changes"][k] or
                                  ([] if k == 0 else ["(no change this view can see)"]))
        hand = truth[k]["zones"]["hand@1"]
        # the other hand: one grey chip saying how many cards are hidden, and not one name
        assert now["hand1"] == ([["ml-chip ml-hidden", f"{len(hand)} hidden"]] if hand else [])
        for card in hand:
            assert said.item(card, None) not in now["state"]
        return now

    seen = [check(0)]
    for k in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        seen.append(check(k))
    page.keyboard.press("ArrowRight")  # past the end: stays there
    assert shown(page)["step"] == last
    assert seen[-1]["current"] == [data["steps"][-1]["node"]]
    assert seen[0]["current"] != seen[-1]["current"]  # the highlight moved
    assert {tuple(s["options"]) for s in seen[:-1]} != {()}
    for k in range(last - 1, -1, -1):
        if k % 2:
            page.keyboard.press("ArrowLeft")
        else:
            page.click("#ml-prev")
        assert shown(page) == seen[k]
    assert page.is_disabled("#ml-prev") and page.is_disabled("#ml-first")
    page.click("#ml-last")
    assert shown(page) == seen[last]
    page.fill("#ml-slider", "3")  # the slider
    assert shown(page) == seen[3]
    assert problems == []


def test_new_eden_in_french(tmp_path, browser):
    log, out = write(tmp_path, "new-eden", 2, 1, lang="fr")
    game = load_game("new-eden")
    page, problems = open_page(browser, out)
    assert page.evaluate("document.documentElement.lang") == "fr"
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    text = page.inner_text("body")
    assert "Décision 7 sur" in text and "Depuis la décision précédente" in text
    assert "Decision" not in text and "Since the previous decision" not in text
    for term in ("coins", "damage", "development"):
        fr, en = game.term(term, "fr"), game.term(term, "en")
        assert fr != en
        assert fr in text, term
    assert game.term("development", "en") not in page.inner_text("#ml-where")
    page.keyboard.press("End")
    assert "Partie terminée" in page.inner_text("#ml-heading")
    assert page.evaluate("document.querySelectorAll('#ml-diagram g.ml-current').length") == 1
    assert problems == []
