"""Whatever is in game.yaml, load_game either returns a Game or raises a MeeplangError that has a
position in a file: random bytes, random YAML documents, and mutations of the bundled games."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from meeplang.dsl.errors import MeeplangError
from meeplang.dsl.model import Game
from meeplang.dsl.resolve import load_game

GAMES = Path(__file__).resolve().parents[2] / "games"
BUNDLED = {p.parent.name: p.read_text(encoding="utf-8") for p in sorted(GAMES.glob("*/game.yaml"))}
ROOT = Path(tempfile.mkdtemp(prefix="meeplang-fuzz-"))
FOLDER = ROOT / "g"
FOLDER.mkdir()
# One folder per bundled game with its other files (includes, not variants), for the mutations
GAME_FOLDERS = {}
for _name in BUNDLED:
    GAME_FOLDERS[_name] = ROOT / _name
    shutil.copytree(GAMES / _name, GAME_FOLDERS[_name], ignore=shutil.ignore_patterns("variants"))

# The default run is derandomized, so CI gives the same verdict every time; the slow run explores
# new inputs on every run (and remembers failures in .hypothesis/).
FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
# Loading a whole game file costs ~50 ms (pure-Python YAML): fewer examples for those by default,
# many more in the slow run.
WHOLE = settings(FUZZ, max_examples=50)
WHOLE_SLOW = settings(FUZZ, max_examples=400, derandomize=False)


def load_bytes(data: bytes, folder: Path = FOLDER):
    (folder / "game.yaml").write_bytes(data)
    try:
        game = load_game(str(folder))
    except MeeplangError as exc:
        assert exc.pos.path.endswith(".yaml"), (exc.pos, str(exc))
        assert exc.pos.line >= 1 and exc.pos.col >= 1, (exc.pos, str(exc))
        assert str(exc).startswith(f"{exc.pos.path}:{exc.pos.line}:{exc.pos.col}: error: ")
        return exc
    assert isinstance(game, Game)
    return game


# ---------------------------------------------------------------- random bytes
@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data):
    load_bytes(data)


@FUZZ
@given(st.text(alphabet=st.sampled_from(list("game:pl yrs2-[]{},\n\t'\"&*!#|>%@`\\x01é")),
               max_size=200))
def test_random_yaml_punctuation(text):
    load_bytes(("game: g\n" + text).encode("utf-8", "surrogatepass"))


# ---------------------------------------------------------------- random documents
KEYS = ["game", "players", "title", "options", "counters", "zones", "items", "actions",
        "triggers", "flow", "scoring", "setup", "tables", "terms", "include", "per", "initial",
        "min", "max", "overflow", "visibility", "capacity", "count", "zone", "fields", "effect",
        "requires", "choose", "when", "if", "score", "tie_break", "winners", "turns", "do",
        "repeat", "steps", "phase", "while", "until", "actions", "first", "order", "per_turn",
        "as", "else", "default", "value", "n", "x", "deck", "hand"]
RULES = ["add 1 to x", "set x to n", "x + 1", "count(deck)", "players", "deal 1 from deck to hand",
         "if x: end turn", "roll d6 as r", "never", "one_round", "player", "clamp", "owner",
         "hidden", "public", "card in deck", "n from 1 to 3", "after any action", "start of p",
         "[p for p in players]", "true", "", "1 // 0", "g"]

SCALARS = st.one_of(st.sampled_from(RULES), st.integers(-5, 20), st.booleans(), st.none(),
                    st.text(max_size=8))
DOCS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)),
    max_leaves=25)


RANDOM_DOC = (st.dictionaries(st.sampled_from(KEYS), DOCS, max_size=8),
              st.sampled_from(["block", "flow", "default"]))


def random_yaml_document(doc, style):
    text = yaml.safe_dump(doc, default_flow_style={"block": False, "flow": True,
                                                   "default": None}[style], allow_unicode=True)
    load_bytes(text.encode("utf-8"))


SECTION = (st.sampled_from(sorted(BUNDLED)), st.sampled_from(["scoring", "flow", "actions",
                                                             "counters", "zones", "items",
                                                             "setup", "players"]), DOCS)


def section_replaced(name, section, value):
    doc = yaml.safe_load(BUNDLED[name])
    doc[section] = value
    load_bytes(yaml.safe_dump(doc, allow_unicode=True).encode("utf-8"), GAME_FOLDERS[name])


# ---------------------------------------------------------------- mutations of the bundled games
MUTATIONS = st.lists(
    st.tuples(st.sampled_from(["delete", "insert", "duplicate_line", "swap_lines", "replace"]),
              st.integers(0, 10_000), st.integers(0, 40),
              st.text(alphabet=st.sampled_from(list(" :-[]{}\n#|'\"xyz019_.+*/()")), max_size=6)),
    min_size=1, max_size=4)


def mutate(text: str, mutations) -> str:
    for kind, at, size, extra in mutations:
        lines = text.split("\n")
        if kind == "delete":
            i = at % (len(text) + 1)
            text = text[:i] + text[i + size:]
        elif kind == "insert":
            i = at % (len(text) + 1)
            text = text[:i] + extra + text[i:]
        elif kind == "replace":
            i = at % (len(text) + 1)
            text = text[:i] + extra + text[i + len(extra):]
        elif kind == "duplicate_line":
            i = at % len(lines)
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        else:
            i, j = at % len(lines), (at + size) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def mutated(name, mutations):
    text = mutate(BUNDLED[name], mutations)
    assume(text != BUNDLED[name])
    load_bytes(text.encode("utf-8"), GAME_FOLDERS[name])


test_random_yaml_documents = WHOLE(given(*RANDOM_DOC)(random_yaml_document))
test_bundled_game_with_one_section_replaced = WHOLE(given(*SECTION)(section_replaced))
test_mutated_bundled_games = WHOLE(given(st.sampled_from(sorted(BUNDLED)), MUTATIONS)(mutated))
test_random_yaml_documents_many = pytest.mark.slow(
    WHOLE_SLOW(given(*RANDOM_DOC)(random_yaml_document)))
test_bundled_game_with_one_section_replaced_many = pytest.mark.slow(
    WHOLE_SLOW(given(*SECTION)(section_replaced)))
test_mutated_bundled_games_many = pytest.mark.slow(
    WHOLE_SLOW(given(st.sampled_from(sorted(BUNDLED)), MUTATIONS)(mutated)))


def test_the_unmutated_games_load():
    for name, text in BUNDLED.items():
        assert isinstance(load_bytes(text.encode("utf-8"), GAME_FOLDERS[name]), Game), name
