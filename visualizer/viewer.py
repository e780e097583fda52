"""`meeplang view LOG`: a game log as one static, self-contained HTML page to step through.

The log is replayed (interpreter/log.py: every event checked, as `meeplang replay` does); at each
decision the viewer reads, for every viewer of the page, the state as the engine shows it to
that seat (`Engine.view`, the view agents get: hidden zones as `?`, hidden items absent) or to
the author (everything), the options as that seat would see them (`Engine.hidden_labels`: an
item hidden from the seat is named by its place), where the flow stands (`Engine.frames`, mapped
to the flowchart's nodes), and the events since the previous decision with their rule lines.

A page holds only what its viewers saw: a page made for one seat (`seat=`) has no data of the
author's view or another seat's. States are stored compactly: each viewer's first state, then
per step the difference from the previous one (`diff`/`patch`: set or delete at a path, lists
replaced whole). Every text from the game or the log goes into the page as JSON read by the
script into text nodes (never as markup), and the page's own markup escapes it.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from meeplang.dsl.atomic import write_file
from meeplang.dsl.errors import LoadError, Pos, UsageError, remember_source, source_line
from meeplang.dsl.loader import games_dir
from meeplang.dsl.model import DoStep, IfStep, LoopStep, PhaseStep, RepeatStep, TurnsStep
from meeplang.interpreter import log as game_log
from meeplang.interpreter.decisions import ActionOption, label

from .dot import DETAILS, build_diagram, to_digraph
from .labels import LANGS, Words
from .render import INSTALL_HINT, have_dot, inline_svg, render_source

MAX_DECISIONS = 5_000  # a page shows at most this many decisions (docs/visualizer.md)
AUTHOR = "all"  # the viewer who sees everything

# The viewer's own words. Keys are the same in every language (a test checks).
WORDS = {
    "en": {
        "replay": "Replay", "step": "Step {} of {}", "first": "First", "previous": "Previous",
        "next": "Next", "last": "Last", "view_as": "View as", "author": "Everything (author)",
        "player": "Player {}", "you": "(you)", "decision": "Decision {} of {}",
        "setup_done": "After the setup", "game_over": "Game over", "asks": "{} to choose: {}",
        "options": "Options offered", "taken": "taken", "secret_taken": "(a secret choice)",
        "rule": "Rule", "events": "Since the previous decision", "changes": "What changed",
        "no_changes": "(no change this view can see)", "no_events": "(nothing)",
        "state": "State", "game": "Game", "shared": "Shared", "phase": "Phase",
        "turn": "Turn", "hidden": "{} hidden", "more": "+{} more", "empty": "empty",
        "flowchart": "Flowchart", "scores": "Scores", "winners": "Winners", "nobody": "nobody",
        "keys": "Keys: ← → step, Home / End: first / last.",
        "footer": "Made by meeplang view from {} (replayed and checked event by event); the "
                  "state is what the engine shows the chosen viewer.",
        "seed": "seed {}", "decisions": "{} decisions",
        # what a decision is
        "k_action": "an action", "k_secret": "{} (secret)", "k_choose": "{}",
        "k_may": "whether to {}", "k_do": "how to {}", "k_do_any_of": "what to do next",
        "k_bid": "a bid", "k_draw_pile": "a pile to draw from", "k_keep": "what to keep: {}",
        "k_search": "what to take: {}",
        # events
        "e_start": "Start: {} players, seed {}", "e_phase": "Phase: {}",
        "e_shuffle": "Shuffle: {}", "e_decision": "{} chose: {}", "e_automa": "{} took: {}",
        "e_roll": "{} rolled a d{}: {}", "e_random": "Drawn at random ({}): {}",
        "e_reveal": "Revealed ({}): {}", "e_trigger": "Trigger: {}",
        "e_cannot": "{} cannot {}", "e_auction": "Auction won by {} for {}",
        "e_transfer": "{}: {} from {} to {} (fee {})", "e_end_game": "End of the game",
        "e_end": "Final scores: {}", "e_log": "{}: {}", "e_no_legal_action": "{} cannot act",
        "yes": "yes", "no": "no", "skip": "skip", "stop": "stop", "end_turn": "end the turn",
        "out": "out", "place": "{}, place {}", "none": "(none)", "empty_zones": "Empty: {}",
        "colon": "{}: {}",
    },
    "fr": {
        "replay": "Relecture", "step": "Étape {} sur {}", "first": "Début",
        "previous": "Précédente", "next": "Suivante", "last": "Fin", "view_as": "Vue de",
        "author": "Tout (auteur)", "player": "Joueur {}", "you": "(vous)",
        "decision": "Décision {} sur {}", "setup_done": "Après la mise en place",
        "game_over": "Partie terminée", "asks": "{} doit choisir : {}",
        "options": "Options proposées", "taken": "choisie", "secret_taken": "(un choix secret)",
        "rule": "Règle", "events": "Depuis la décision précédente",
        "changes": "Ce qui a changé", "no_changes": "(aucun changement visible de cette vue)",
        "no_events": "(rien)", "state": "État", "game": "Partie", "shared": "Commun",
        "phase": "Phase", "turn": "Tour", "hidden": "{} cachés", "more": "+{} de plus",
        "empty": "vide", "flowchart": "Déroulement", "scores": "Scores",
        "winners": "Gagnants", "nobody": "personne",
        "keys": "Touches : ← → étape, Début / Fin : première / dernière.",
        "footer": "Fait par meeplang view à partir de {} (rejoué et vérifié événement par "
                  "événement) ; l'état est ce que le moteur montre à la vue choisie.",
        "seed": "graine {}", "decisions": "{} décisions",
        "k_action": "une action", "k_secret": "{} (secret)", "k_choose": "{}",
        "k_may": "s'il faut {}", "k_do": "comment {}", "k_do_any_of": "quoi faire ensuite",
        "k_bid": "une enchère", "k_draw_pile": "une pile où piocher",
        "k_keep": "quoi garder : {}", "k_search": "quoi prendre : {}",
        "e_start": "Début : {} joueurs, graine {}", "e_phase": "Phase : {}",
        "e_shuffle": "Mélange : {}", "e_decision": "{} a choisi : {}",
        "e_automa": "{} a pris : {}", "e_roll": "{} a lancé un d{} : {}",
        "e_random": "Tiré au hasard ({}) : {}", "e_reveal": "Révélé ({}) : {}",
        "e_trigger": "Déclencheur : {}", "e_cannot": "{} ne peut pas {}",
        "e_auction": "Enchère remportée par {} pour {}",
        "e_transfer": "{} : {} de {} vers {} (frais {})", "e_end_game": "Fin de la partie",
        "e_end": "Scores finaux : {}", "e_log": "{} : {}", "e_no_legal_action": "{} ne peut pas agir",
        "yes": "oui", "no": "non", "skip": "passer", "stop": "arrêter",
        "end_turn": "finir le tour", "out": "se retirer", "place": "{}, place {}",
        "none": "(aucun)", "empty_zones": "Vides : {}",
        "colon": "{} : {}",
    },
}


# ---------------------------------------------------------------- compact states
def diff(a, b, path: tuple = ()) -> list:
    """The operations that turn `a` into `b`: `[path, value]` sets, `[path]` deletes. Mappings
    are compared key by key, lists of mappings of the same length item by item; any other list
    or value is replaced whole."""
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        ops: list = [[[*path, k]] for k in a if k not in b]
        for k, v in b.items():
            if k not in a:
                ops.append([[*path, k], v])
            else:
                ops.extend(diff(a[k], v, (*path, k)))
        return ops
    if (isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and path
            and all(isinstance(x, dict) for x in a + b)):
        return [op for i, (x, y) in enumerate(zip(a, b)) for op in diff(x, y, (*path, i))]
    return [[list(path), b]]


def patch(state, ops):
    """`state` with the operations of `diff` applied (the page's script does the same)."""
    state = json.loads(json.dumps(state))
    for op in ops:
        path = op[0]
        if not path:
            state = json.loads(json.dumps(op[1]))
            continue
        target = state
        for key in path[:-1]:
            target = target[key]
        if len(op) == 1:
            del target[path[-1]]
        else:
            target[path[-1]] = json.loads(json.dumps(op[1]))
    return state


def shown_state(view: dict) -> dict:
    """What the page shows of a view (a state as Engine.view gives it): the counters, each
    seat's counters, the zones (`?` for an item hidden from the viewer), the items the viewer
    can see with their kind and fields, the current turn and phase."""
    items = {}
    for item, data in view["items"].items():
        items[item] = {k: v for k, v in data.items() if k != "owner"}
    return {"phase": view.get("phase"), "turn": view["turn"]["player"],
            "counters": dict(view["counters"]), "players": [dict(p) for p in view["players"]],
            "zones": {k: list(v) for k, v in view["zones"].items()}, "items": items}


# ---------------------------------------------------------------- words
class _Say:
    """The page's words in one language, with the game's terms."""

    def __init__(self, game, lang: str, humans: int | None = None):
        self.w = Words(game, lang)
        self.game, self.lang = game, lang
        self.words = WORDS[lang]
        self.humans = humans  # the seats agents play; the others are the automa's

    def __call__(self, key: str, *args) -> str:
        text = self.words[key]
        return text.format(*args) if args else text

    def term(self, key) -> str:
        return self.w.term(str(key))

    def seat(self, seat) -> str:
        if not isinstance(seat, int) or isinstance(seat, bool):
            return str(seat)
        automa, humans = self.game.automa, self.humans
        if automa and humans is not None and seat >= humans:
            return f"{self.term(automa[0])} ({self('player', seat)})"
        return self("player", seat)

    def counter(self, key: str) -> str:
        """`coins`, or a family's member `accounts[hr]` as `Accounts hr`, by the game's terms."""
        name, _, member = str(key).partition("[")
        return self.term(name) + (" " + self.term(member.rstrip("]")) if member else "")

    def zone(self, key: str) -> str:
        """`station[crab]@1` -> `Station crab (Player 1)`, by the game's terms."""
        base, _, owner = key.partition("@")
        name, _, member = base.partition("[")
        text = self.term(name)
        if member:
            text += " " + self.term(member.rstrip("]"))
        return text + (f" ({self.seat(int(owner))})" if owner.isdigit() else "")

    def item(self, item: str, data: dict | None) -> str:
        """`bid_card#0.3` -> `Bid card #0.3 (Value 3)`: the kind's term, the number, and the
        fields when there are one or two."""
        kind, _, number = item.partition("#")
        if data is not None:
            kind = data.get("kind", kind)
        text = f"{self.term(kind)} #{number}" if number else self.term(kind)
        fields = {k: v for k, v in (data or {}).items() if k != "kind"}
        if 0 < len(fields) <= 2 and all(_short(v) for v in fields.values()):
            text += " (" + ", ".join(f"{self.term(k)} {self.value(v)}"
                                     for k, v in fields.items()) + ")"
        return text

    def value(self, v) -> str:
        if v is None:
            return self("none")
        if isinstance(v, bool):
            return self("yes") if v else self("no")
        if isinstance(v, list):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        return str(v)


def _short(v) -> bool:
    """A field value said beside an item's name: a number, yes/no, or a word."""
    return v is None or isinstance(v, (int, bool)) or (isinstance(v, str) and len(v) <= 16)


# ---------------------------------------------------------------- reading the game
def flow_chain(flow, frames) -> list:
    """The flow steps that are running, outermost first, read from Engine.frames (the records
    the flow steps of interpreter/compile.py keep): [(step, (pass, of) or None)]."""
    chain: list = []
    k, steps = 0, list(flow)
    while steps:
        if len(steps) == 1:  # a list of one step keeps no record of its own
            step = steps[0]
        else:
            if k >= len(frames) or not frames[k] or not isinstance(frames[k][0], int):
                break
            i = frames[k][0]
            k += 1
            if not 0 <= i < len(steps):
                break
            step = steps[i]
        if isinstance(step, DoStep):
            chain.append((step, None))
            break
        if k >= len(frames):  # the step has not started (or has no record): not inside it
            chain.append((step, None))
            break
        frame = frames[k]
        k += 1
        if isinstance(step, TurnsStep):
            chain.append((step, None))
            break
        if isinstance(step, RepeatStep):
            chain.append((step, (frame[1], frame[0]) if len(frame) == 2 else None))
            steps = list(step.steps)
        elif isinstance(step, PhaseStep):
            chain.append((step, None))
            steps = list(step.steps)
        elif isinstance(step, LoopStep):
            chain.append((step, None))
            steps = list(step.steps)
        elif isinstance(step, IfStep):
            chain.append((step, None))
            steps = list(step.steps if frame and frame[0] else step.other)
        else:
            chain.append((step, None))
            break
    return chain


def _where(say: _Say, chain) -> list[str]:
    out = []
    for step, passes in chain:
        if isinstance(step, RepeatStep):
            name = step.name or step.var
            text = say.term(name) if name else say.w.ui("repeat")
            out.append(f"{text[:1].upper()}{text[1:]}" + (f" {passes[0]}/{passes[1]}"
                                                         if passes else ""))
        elif isinstance(step, PhaseStep):
            out.append(say.term(step.name))
        elif isinstance(step, LoopStep):
            out.append(say.term(step.name) if step.name else say.w.ui("loop"))
        elif isinstance(step, TurnsStep):
            out.append(say.w.ui("turns"))
    return out


def _kind_text(say: _Say, kind: str) -> str:
    word, _, rest = kind.partition(" ")
    if kind == "do any of":
        return say("k_do_any_of")
    if kind == "draw pile":
        return say("k_draw_pile")
    if word in ("secret", "choose", "may", "do", "keep", "search"):
        return say(f"k_{word}", say.term(rest))
    if word in ("action", "bid"):
        return say(f"k_{word}")
    return kind


def _rule_source(at: str) -> str:
    """The rule line a `file:line[:col]` position points at ('' when the file is not there)."""
    path, _, rest = at.partition(":")
    line = rest.split(":")[0]
    if not line.isdigit():
        return ""
    if source_line(path, int(line)) is None:
        for candidate in (Path(path), games_dir().parent / path):
            if candidate.is_file():
                try:
                    remember_source(path, candidate.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError):
                    return ""
                break
    src = source_line(path, int(line))
    return src.strip() if src else ""


def _file_line(at) -> str:
    if not isinstance(at, str):
        return ""
    path, _, rest = at.partition(":")
    return f"{path}:{rest.split(':')[0]}" if rest else at


class _Recorder:
    """Called by the replay at each decision, before its choice (and once at the end): what
    each viewer sees there, kept as the page's data at once (a state is kept only until the
    next one is compared with it)."""

    def __init__(self, game, viewers: list, say: _Say, diagram):
        self.game, self.viewers, self.say = game, viewers, say
        self.ids = {id(step): sid for step, sid in diagram.step_ids}
        self.action_ids = {id(step): nodes for step, _, nodes in diagram.turns}
        self.final_id = diagram.final_id
        self.data = {v: {"id": v, "label": say("author") if v == AUTHOR else say.seat(v),
                         "first": None, "diffs": [], "events": [], "changes": [], "options": [],
                         "taken": []} for v in viewers}
        self.prev: dict = {v: None for v in viewers}
        self.steps: list = []
        self.rules: dict = {}
        self.said = 0  # the events said so far
        self.last = None  # the previous decision: (player, secret, choice, options by viewer)

    def __call__(self, engine, d, choice: int) -> None:
        self.step(engine, d, choice)

    def step(self, engine, d, choice) -> None:
        """A step: decision `d` before its `choice`, or (d None) the end of the game."""
        states = {v: shown_state(engine.view(None if v == AUTHOR else v)) for v in self.viewers}
        options = {}
        if d is not None:
            for v in self.viewers:
                places = None if v == AUTHOR else (
                    d.labels if v == d.player else engine.hidden_labels(v, d.options))
                options[v] = [self.option_text(engine, o, None if places is None else places[i],
                                               states[v]) for i, o in enumerate(d.options)]
        events = engine.events[self.said:]
        for v in self.viewers:
            acc, prev, state = self.data[v], self.prev[v], states[v]
            if prev is None:
                acc["first"] = state
                acc["changes"].append([])
            else:
                acc["diffs"].append(diff(prev, state))
                acc["changes"].append(changes_text(self.say, prev, state))
            acc["events"].append(self.events_text(engine, v, events, prev, state))
            if d is None:
                acc["options"].append([])
                acc["taken"].append(None)
            else:
                acc["options"].append(options[v])
                hidden = d.secret and v != AUTHOR and v != d.player
                acc["taken"].append(None if hidden else choice)
            self.prev[v] = state
        self.steps.append(self.where(engine, d, choice))
        self.last = None if d is None else (d.player, d.secret, choice, options)
        self.said = len(engine.events)

    def where(self, engine, d, choice) -> dict:
        """Where the flow stands at a decision: the flowchart's nodes to highlight, the words."""
        say = self.say
        if d is None:
            return {"player": None, "who": "", "kind": "", "at": "", "where": [say("game_over")],
                    "node": self.final_id, "within": [], "action": None, "turns": False}
        chain = flow_chain(self.game.flow, engine.frames)
        drawn = [self.ids[id(s)] for s, _ in chain if id(s) in self.ids]
        action, option = None, d.options[choice]
        if chain and isinstance(chain[-1][0], TurnsStep) and isinstance(option, ActionOption):
            action = self.action_ids.get(id(chain[-1][0]), {}).get(option.action)
        at = self.rule(d.why)
        return {"player": d.player, "who": say.seat(d.player), "kind": _kind_text(say, d.kind),
                "at": at, "where": _where(say, chain), "node": drawn[-1] if drawn else None,
                "within": drawn[:-1], "action": action,
                "turns": any(isinstance(s, TurnsStep) for s, _ in chain)}

    def rule(self, at) -> str:
        """`file:line` of a position, its rule text noted for the page."""
        at = _file_line(at)
        if at and at not in self.rules:
            self.rules[at] = _rule_source(at)
        return at

    def events_text(self, engine, v, events, prev, state) -> list:
        """[text, rule line] of each event since the previous decision, as viewer v may know
        it: the previous decision's choice as v saw it (hidden if it was another seat's secret
        one), an item v saw neither before nor after as `?`."""
        say, out = self.say, []
        for e in events:
            if e.get("event") == "decision" and self.last is not None:
                player, secret, choice, options = self.last
                hidden = secret and v != AUTHOR and v != player
                text = say("e_decision", say.seat(player),
                           say("secret_taken") if hidden else options[v][choice])
            else:
                text = _event_text(say, e, lambda x: self.said_value(engine, x, prev, state))
            out.append([text, self.rule(e.get("at"))])
        return out

    def said_value(self, engine, value, prev, state) -> str:
        """A value an event names (a label: `buy_card module#10`), in words: an item by its
        kind and number if the viewer saw it before or after, else `?`; an action by its term."""
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(self.said_value(engine, x, prev, state) for x in value) + "]"
        if not isinstance(value, str):
            return self.say.value(value)
        first = True

        def word(m) -> str:  # each word of a label: `take_card [card#3, card#4]`
            nonlocal first
            token, was_first, first = m.group(0), first, False
            if token in engine.state["items"]:
                data = state["items"].get(token) or (prev["items"].get(token) if prev else None)
                return "?" if data is None else self.say.item(token, data)
            if (was_first and token in self.game.actions) or token in (self.game.terms or {}):
                return self.say.term(token)
            return token
        return re.sub(r"[^\s\[\],]+", word, value)

    def option_text(self, engine, option, shown: str | None, view: dict) -> str:
        """An option in the page's words: an action by its term, an item by its kind and
        number, or by its place when the viewer cannot see it (`shown`: the engine's label for
        that viewer, a place when the item is hidden)."""
        say = self.say
        special = {"skip": "skip", "stop": "stop", "end turn": "end_turn"}
        if isinstance(option, ActionOption):
            if option.value is None and option.action in special:
                return say(special[option.action])
            text = say.term(option.action)
            if option.value is None:
                return text
            if shown is not None and shown != label(option):  # a place: `pile 2`
                return say("colon", text, self._place(shown[len(option.action) + 1:]))
            return say("colon", text, self.value_text(option.value, view, engine))
        if shown is not None and shown != label(option):
            return self._place(shown)
        if option == "out":
            return say("out")
        return self.value_text(option, view, engine)

    def _place(self, text: str) -> str:
        key, _, n = text.rpartition(" ")
        return self.say("place", self.say.zone(key), n) if key else text

    def value_text(self, value, view: dict, engine=None) -> str:
        """A value in words, as the viewer of `view` may know it: an item it sees by its kind
        and number; an item its view hides (one of a list of items offered to another seat)
        by its place, as Engine.hidden_labels names a single one."""
        say = self.say
        if isinstance(value, str) and value in view["items"]:
            return say.item(value, view["items"][value])
        if engine is not None and isinstance(value, str) and value in engine.state["items"]:
            key = engine.state["loc"].get(value)
            if key is None:
                return "?"
            return say("place", say.zone(key), engine.state["zones"][key].index(value) + 1)
        if isinstance(value, str) and value in (self.game.terms or {}):
            return say.term(value)
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(self.value_text(x, view, engine) for x in value) + "]"
        return say.value(value) if not isinstance(value, str) else value


# ---------------------------------------------------------------- the page's data
def changes_text(say: _Say, a: dict, b: dict) -> list[str]:
    """What differs from state `a` to state `b` (both as one viewer sees them), in words: a
    counter before → after, an item moving from → to, an item's field, a hidden count."""
    out = []
    for k in dict.fromkeys([*a["counters"], *b["counters"]]):
        x, y = a["counters"].get(k), b["counters"].get(k)
        if x != y:
            out.append(say("colon", say.counter(k), f"{say.value(x)} → {say.value(y)}"))
    for seat, (pa, pb) in enumerate(zip(a["players"], b["players"])):
        for k in dict.fromkeys([*pa, *pb]):
            x, y = pa.get(k), pb.get(k)
            if x != y:
                out.append(say("colon", f"{say.counter(k)} ({say.seat(seat)})",
                               f"{say.value(x)} → {say.value(y)}"))
    loc_a = {x: key for key, items in a["zones"].items() for x in items if x != "?"}
    loc_b = {x: key for key, items in b["zones"].items() for x in items if x != "?"}
    hidden = "?"
    for item in dict.fromkeys([*loc_a, *loc_b]):
        za, zb = loc_a.get(item), loc_b.get(item)
        if za != zb:
            data = b["items"].get(item) or a["items"].get(item)
            out.append(say("colon", say.item(item, data), f"{say.zone(za) if za else hidden} → "
                                                          f"{say.zone(zb) if zb else hidden}"))
    for key in dict.fromkeys([*a["zones"], *b["zones"]]):
        qa, qb = a["zones"].get(key, []).count("?"), b["zones"].get(key, []).count("?")
        if qa != qb:
            out.append(say("colon", say.zone(key), f"{say('hidden', qa)} → {say('hidden', qb)}"))
    for item in b["items"]:
        old, new = a["items"].get(item), b["items"][item]
        if old is None:
            continue
        for k in dict.fromkeys([*old, *new]):
            if k != "kind" and old.get(k) != new.get(k):
                out.append(say("colon", f"{say.item(item, None)} · {say.term(k)}",
                               f"{say.value(old.get(k))} → {say.value(new.get(k))}"))
    return out


def _event_text(say: _Say, e: dict, shown_value) -> str | None:
    """An event of the log in words; `shown_value(v)` says a value (an item the viewer cannot
    see is `?`). None for the events the step's header already says (a decision is made
    apart: its text depends on the viewer)."""
    kind = e.get("event")
    who = say.seat(e.get("player")) if "player" in e else ""
    if kind == "start":
        return say("e_start", e.get("players"), e.get("seed"))
    if kind == "phase":
        return say("e_phase", say.term(e.get("phase")))
    if kind == "shuffle":
        return say("e_shuffle", say.zone(str(e.get("zone"))))
    if kind == "automa":
        return say("e_automa", who, shown_value(e.get("option")))
    if kind == "roll":
        return say("e_roll", who, e.get("die"), e.get("value"))
    if kind == "random":
        return say("e_random", say.term(e.get("name")), shown_value(e.get("value")))
    if kind == "reveal":
        values = e.get("values") or []
        return say("e_reveal", say.term(e.get("name")),
                   ", ".join(shown_value(v) for v in values))
    if kind == "trigger":
        return say("e_trigger", say.term(e.get("trigger")))
    if kind == "cannot":
        return say("e_cannot", who, say.term(e.get("action")))
    if kind == "auction":
        return say("e_auction", say.seat(e.get("winner")), e.get("price"))
    if kind == "transfer":
        return say("e_transfer", who, e.get("amount"), say.term(e.get("from")),
                   say.term(e.get("to")), e.get("fee"))
    if kind == "end game":
        return say("e_end_game")
    if kind == "end":
        scores = e.get("scores") or []
        return say("e_end", ", ".join(f"{say.seat(i)} {s}" for i, s in enumerate(scores)))
    if kind == "log":
        return say("e_log", who, e.get("text"))
    if kind == "no legal action":
        return say("e_no_legal_action", who)
    rest = {k: v for k, v in e.items() if k not in ("event", "at")}
    return say("colon", kind, json.dumps(rest, ensure_ascii=False, sort_keys=True))


def _check_viewers(seat, players: int, path: str):
    if seat is None:
        return [AUTHOR, *range(players)]
    if seat == AUTHOR:
        return [AUTHOR]
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise UsageError(f"--seat {seat}: this game ({path}) has seats 0 to {players - 1}")
    return [seat]


def build_data(path: str, lang: str = "en", seat=None, detail: str = "phases",
               text: str | None = None) -> tuple:
    """Replay the log at `path` and make the page's data: (game, diagram, data). `seat`: None
    for a page with every viewer (the author and each seat), a seat number (or "all") for a page
    holding only that viewer's data. `text`: the log's text, when it is not written yet (a
    simulation report writes its logs and their pages together). A log that does not replay
    raises its LoadError."""
    if lang not in LANGS:
        raise UsageError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    if detail not in DETAILS:
        raise UsageError(f"unknown detail {detail!r}; expected one of {', '.join(DETAILS)}")
    records = (game_log.read_log(path) if text is None else
               game_log.records_of_text(text, path, game_log.FORMAT))
    decisions = sum(1 for _, r in records[1:] if r.get("event") == "decision")
    if decisions > MAX_DECISIONS:
        raise LoadError(f"this log has {decisions:,} decisions; meeplang view shows games of at "
                        f"most {MAX_DECISIONS:,}", Pos(path, records[0][0], 1))
    probe = game_log.engine_from_header(records[0][1], Pos(path, records[0][0], 1))
    game = probe.game
    viewers = _check_viewers(seat, probe.humans, path)
    say = _Say(game, lang, probe.humans)
    diagram = build_diagram(game, detail, lang, _changes(game))
    rec = _Recorder(game, viewers, say, diagram)
    engine = game_log.replay_records([r for _, r in records], path, [n for n, _ in records], rec)
    rec.step(engine, None, None)  # the end of the game
    return game, diagram, _page_data(game, engine, rec, say, path)


def _changes(game):
    if game.variant is None:
        return None
    from meeplang.dsl.diff import changes_from_base

    return changes_from_base(game)


def _page_data(game, engine, rec: _Recorder, say: _Say, path: str) -> dict:
    first = rec.data[rec.viewers[0]]["first"]
    seat_counters = first["players"][0] if first["players"] else {}
    names = {"counters": {k: say.counter(k) for k in [*first["counters"], *seat_counters]},
             "kinds": {k: say.term(k) for k in game.items},
             "fields": {f: say.term(f) for f in sorted(game.item_fields)},
             "phases": {s.name: say.term(s.name) for s in _phases(game.flow)},
             "zones": {key: [say.zone(key), int(key.partition("@")[2])
                             if key.partition("@")[2].isdigit() else None,
                             say.zone(key.partition("@")[0])]
                       for key in first["zones"]}}
    result = engine.result or {}
    return {
        "lang": say.lang, "title": say.w.title(), "game": game.name, "variant": game.variant,
        "log": Path(path).name, "seed": engine.seed, "players": engine.n, "humans": engine.humans,
        "seats": [say.seat(p) for p in range(engine.n)], "words": WORDS[say.lang],
        "names": names, "steps": rec.steps, "rules": rec.rules,
        "viewers": [rec.data[v] for v in rec.viewers],
        "scores": result.get("scores", []), "winners": result.get("winners", []),
        "decisions": len(rec.steps) - 1,
    }


def _phases(steps):
    for s in steps:
        if isinstance(s, PhaseStep):
            yield s
        for attr in ("steps", "other"):
            yield from _phases(getattr(s, attr, ()) or ())


# ---------------------------------------------------------------- the page
def _json_for_script(data) -> str:
    """JSON inside a <script type="application/json">: no `<`, `>` or `&` can end it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def build_page(game, data: dict, svg_text: str) -> str:
    """The page: markup, inline CSS and script, the flowchart as inline SVG, the data as JSON."""
    e = html.escape
    w = WORDS[data["lang"]]
    title = f"{data['title']} · {w['replay']}"
    variant = f":{data['variant']}" if data["variant"] else ""
    meta = " · ".join([f"{game.name}{variant}", w["seed"].format(data["seed"]),
                       w["decisions"].format(data["decisions"]), data["log"]])
    view_select = ""
    if len(data["viewers"]) > 1:
        opts = "".join(f'<option value="{i}">{e(v["label"])}</option>'
                       for i, v in enumerate(data["viewers"]))
        view_select = (f'<label>{e(w["view_as"])} <select id="ml-viewer">{opts}</select></label>')
    else:
        view_select = (f'<span id="ml-viewer-label">'
                       f'{e(w["colon"].format(w["view_as"], data["viewers"][0]["label"]))}</span>')
    last = len(data["steps"]) - 1
    return f"""<!DOCTYPE html>
<html lang="{e(data['lang'])}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title>
<link rel="icon" href="data:,">
<style>{CSS}</style>
</head>
<body>
<header id="ml-top">
<h1>{e(data['title'])} <span class="ml-sub">{e(w['replay'])}</span></h1>
<p class="ml-meta">{e(meta)}</p>
<nav id="ml-controls">
<button type="button" id="ml-first" title="Home">« {e(w['first'])}</button>
<button type="button" id="ml-prev" title="←">◀ {e(w['previous'])}</button>
<input type="range" id="ml-slider" min="0" max="{last}" value="0" aria-label="{e(w['step'].format('', ''))}">
<button type="button" id="ml-next" title="→">{e(w['next'])} ▶</button>
<button type="button" id="ml-last" title="End">{e(w['last'])} »</button>
<span id="ml-step"></span>
{view_select}
</nav>
</header>
<main>
<div id="ml-columns">
<section id="ml-left">
<h2 id="ml-heading"></h2>
<p id="ml-where"></p>
<p id="ml-rule"></p>
<h3 id="ml-options-heading">{e(w['options'])}</h3>
<ol id="ml-options"></ol>
<h3>{e(w['events'])}</h3>
<ul id="ml-events"></ul>
<h3>{e(w['changes'])}</h3>
<ul id="ml-changes"></ul>
</section>
<section id="ml-right">
<h2>{e(w['flowchart'])}</h2>
<div id="ml-diagram">{inline_svg(svg_text) if svg_text else e(INSTALL_HINT)}</div>
</section>
</div>
<section id="ml-state-section">
<h2>{e(w['state'])}</h2>
<div id="ml-state"></div>
</section>
</main>
<footer><p>{e(w['keys'])}</p><p>{e(w['footer'].format(data['log']))}</p></footer>
<script type="application/json" id="ml-data">{_json_for_script(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


def view_page(path: str, lang: str = "en", seat=None, detail: str = "phases",
              need_dot: bool = True, text: str | None = None) -> str:
    """The page of the log at `path` (of its `text`, if given). Without Graphviz's `dot`, a
    UsageError says to install it, unless `need_dot` is false: the page then says the flowchart
    is missing."""
    game, diagram, data = build_data(path, lang, seat, detail, text)
    svg_text = ""
    if need_dot or have_dot():
        svg_text = render_source(to_digraph(diagram).source, "svg").decode("utf-8")
    return build_page(game, data, svg_text)


def write_view(path: str, out, lang: str = "en", seat=None, detail: str = "phases",
               need_dot: bool = True) -> Path:
    """Replay the log and write its page to `out` (nothing is written if the log does not
    replay; view_page says when `dot` is needed)."""
    page = view_page(path, lang, seat, detail, need_dot)
    out = Path(out)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    write_file(out, page)  # whole or not at all (dsl/atomic.py)
    return out


CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font-family: Helvetica, Arial, "Liberation Sans", sans-serif; margin: 0; color: #222;
       background: #fff; line-height: 1.35; font-size: 15px; }
header#ml-top { position: sticky; top: 0; z-index: 2; background: #fff; padding: .6rem 1.2rem .4rem;
                border-bottom: 1px solid #ddd; }
h1 { margin: 0; font-size: 1.45rem; }
h1 .ml-sub { color: #777; font-weight: normal; font-size: 1rem; }
h2 { margin: .4rem 0 .4rem; font-size: 1.15rem; }
h3 { margin: .9rem 0 .3rem; font-size: .95rem; color: #444; }
.ml-meta { margin: .1rem 0 .4rem; color: #666; font-size: .85rem; }
#ml-controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
#ml-controls button { font: inherit; padding: .25rem .6rem; border: 1px solid #bbb;
                      border-radius: 4px; background: #f6f6f6; cursor: pointer; }
#ml-controls button:disabled { opacity: .45; cursor: default; }
#ml-slider { flex: 1 1 220px; min-width: 160px; }
#ml-step { min-width: 9rem; font-variant-numeric: tabular-nums; }
main { padding: 0 1.2rem; }
#ml-columns { display: grid; grid-template-columns: minmax(300px, 5fr) minmax(300px, 6fr);
              gap: 1.2rem; }
@media (max-width: 900px) { #ml-columns { grid-template-columns: 1fr; } }
#ml-where { margin: .1rem 0; color: #3d6fa8; font-weight: bold; }
#ml-rule { margin: .2rem 0; font-size: .85rem; color: #555; }
code, .ml-code { font-family: "Courier New", Courier, "Liberation Mono", monospace;
                 font-size: .85rem; }
#ml-options { margin: 0; padding-left: 1.8rem; max-height: 16rem; overflow-y: auto; }
#ml-options li.ml-taken { font-weight: bold; color: #1d6b2f; }
#ml-options li.ml-taken::after { content: " ✔"; }
#ml-events, #ml-changes { margin: 0; padding-left: 1.1rem; font-size: .9rem; }
#ml-events .ml-at { color: #888; font-size: .78rem; margin-left: .4rem; }
.ml-none { color: #888; font-style: italic; list-style: none; }
#ml-diagram { max-height: 72vh; overflow: auto; border: 1px solid #eee; border-radius: 6px;
              padding: .3rem; }
#ml-diagram svg { display: block; }
#ml-diagram g.ml-current > polygon, #ml-diagram g.ml-current > path,
#ml-diagram g.ml-current > ellipse { stroke: #c2255c; stroke-width: 5px; }
#ml-diagram g.ml-within > polygon, #ml-diagram g.ml-within > path { stroke: #c2255c;
              stroke-width: 3px; stroke-dasharray: 8 4; }
#ml-diagram g.ml-taken > polygon, #ml-diagram g.ml-taken > path { stroke: #1d6b2f;
              stroke-width: 5px; }
#ml-state { display: flex; flex-wrap: wrap; gap: .8rem; align-items: flex-start;
            margin-bottom: 1rem; }
.ml-card { border: 1px solid #ddd; border-radius: 6px; padding: .4rem .6rem; min-width: 14rem;
           flex: 1 1 18rem; max-width: 100%; }
.ml-card.ml-turn { border-color: #a67c00; box-shadow: 0 0 0 2px #fff3bf; }
.ml-card h3 { margin: 0 0 .3rem; }
.ml-card table { border-collapse: collapse; font-size: .88rem; margin-bottom: .3rem; }
.ml-card td { padding: .05rem .5rem .05rem 0; vertical-align: top; }
.ml-zone { margin: .15rem 0; font-size: .88rem; }
.ml-zone-name { color: #555; }
.ml-chip { display: inline-block; border: 1px solid #bbb; border-radius: 3px; padding: 0 .3rem;
           margin: .1rem .15rem 0 0; background: #fafafa; font-size: .8rem; }
.ml-chip.ml-hidden { background: #e9e9e9; color: #666; }
.ml-changed { background: #fff0a8; }
.ml-empty { color: #aaa; }
footer { padding: .5rem 1.2rem 1rem; color: #777; font-size: .82rem; }
footer p { margin: .2rem 0; }
"""

# What the replay page's script and the playtest page's (playtest.py) share, put into each script
# where its `words` are defined: text formatting, elements, a value and an item as they are shown.
PAGE_HELPERS = r"""
  function fmt(text) {
    var args = Array.prototype.slice.call(arguments, 1), i = 0;
    return text.replace(/\{\}/g, function () { return String(args[i++]); });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function value(v) {
    if (v === null || v === undefined) return "—";
    if (v === true) return words.yes;
    if (v === false) return words.no;
    if (Array.isArray(v)) return "[" + v.map(value).join(", ") + "]";
    return String(v);
  }
  function itemLabel(names, id, item) {
    var at = id.indexOf("#");
    var kind = item && item.kind ? item.kind : (at >= 0 ? id.slice(0, at) : id);
    var text = (names.kinds[kind] || kind) + (at >= 0 ? " #" + id.slice(at + 1) : "");
    if (item) {
      var keys = Object.keys(item).filter(function (k) { return k !== "kind"; });
      var short = keys.every(function (k) {
        var x = item[k];
        return x === null || typeof x === "number" || typeof x === "boolean" ||
          (typeof x === "string" && x.length <= 16);
      });
      if (keys.length > 0 && keys.length <= 2 && short) {
        text += " (" + keys.map(function (k) {
          return (names.fields[k] || k) + " " + value(item[k]); }).join(", ") + ")";
      }
    }
    return text;
  }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("ml-data").textContent);
  var words = data.words, names = data.names;
  var last = data.steps.length - 1;
  var viewer = 0, step = 0;
  var cache = {};
  var EVERY = 50;  // a full state kept every 50 steps; the others made from the nearest one

""" + PAGE_HELPERS + r"""
  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  function apply(state, ops) {
    for (var i = 0; i < ops.length; i++) {
      var path = ops[i][0];
      if (path.length === 0) { state = clone(ops[i][1]); continue; }
      var t = state;
      for (var j = 0; j < path.length - 1; j++) t = t[path[j]];
      if (ops[i].length === 1) delete t[path[path.length - 1]];
      else t[path[path.length - 1]] = clone(ops[i][1]);
    }
    return state;
  }
  function stateAt(v, k) {
    var c = cache[v] || (cache[v] = {0: clone(data.viewers[v].first)});
    var base = k - (k % EVERY);
    if (!(base in c)) {
      var from = 0;
      for (var b in c) { if (+b <= base && +b > from) from = +b; }
      var s = clone(c[from]);
      for (var i = from + 1; i <= base; i++) {
        s = apply(s, data.viewers[v].diffs[i - 1]);
        if (i % EVERY === 0) c[i] = clone(s);
      }
    }
    var st = clone(c[base]);
    for (var i2 = base + 1; i2 <= k; i2++) st = apply(st, data.viewers[v].diffs[i2 - 1]);
    return st;
  }
  function itemTitle(item) {
    if (!item) return "";
    return Object.keys(item).filter(function (k) { return k !== "kind"; }).map(function (k) {
      return (names.fields[k] || k) + ": " + value(item[k]); }).join("\n");
  }
  function changedPaths(k) {
    var out = {};
    if (k === 0) return out;
    data.viewers[viewer].diffs[k - 1].forEach(function (op) {
      var p = op[0];
      for (var n = 1; n <= p.length; n++) out[p.slice(0, n).join("\u0001")] = true;
    });
    return out;
  }
  function zoneLine(key, items, state, changed, short) {
    var line = el("div", "ml-zone");
    var info = names.zones[key];
    var name = el("span", "ml-zone-name", (info ? info[short ? 2 : 0] : key) + ": ");
    line.appendChild(name);
    if (changed["zones\u0001" + key]) line.classList.add("ml-changed");
    line.setAttribute("data-zone", key);
    if (items.length === 0) { line.appendChild(el("span", "ml-empty", words.empty)); return line; }
    var hidden = 0, shown = 0, more = 0;
    items.forEach(function (id) {
      if (id === "?") { hidden++; return; }
      if (shown >= 40) { more++; return; }
      var item = state.items[id];
      var chip = el("span", "ml-chip", itemLabel(names, id, item));
      chip.title = itemTitle(item);
      chip.setAttribute("data-item", id);
      line.appendChild(chip);
      shown++;
    });
    if (more) line.appendChild(el("span", "ml-chip", fmt(words.more, more)));
    if (hidden) line.appendChild(el("span", "ml-chip ml-hidden", fmt(words.hidden, hidden)));
    return line;
  }
  function counterTable(values, prefix, changed) {
    var table = el("table");
    Object.keys(values).forEach(function (k) {
      var tr = el("tr");
      if (changed[prefix + k]) tr.className = "ml-changed";
      tr.appendChild(el("td", null, names.counters[k] || k));
      tr.appendChild(el("td", null, value(values[k])));
      table.appendChild(tr);
    });
    return table;
  }
  function zones(card, keys, state, changed, short) {
    var empty = [];
    keys.forEach(function (key) {
      if (state.zones[key].length === 0 && !changed["zones\u0001" + key]) {
        var info = names.zones[key];
        empty.push(info ? info[short ? 2 : 0] : key);
      } else {
        card.appendChild(zoneLine(key, state.zones[key], state, changed, short));
      }
    });
    if (empty.length) card.appendChild(el("div", "ml-zone ml-empty", fmt(words.empty_zones,
                                                                       empty.join(", "))));
  }
  function renderState(state, k) {
    var box = document.getElementById("ml-state");
    clear(box);
    var changed = changedPaths(k);
    var byOwner = {};
    Object.keys(state.zones).forEach(function (key) {
      var info = names.zones[key];
      var owner = info ? info[1] : null;
      var at = key.indexOf("@");
      if (!info && at >= 0) owner = +key.slice(at + 1);
      (byOwner[owner === null ? "shared" : owner] = byOwner[owner === null ? "shared" : owner]
        || []).push(key);
    });
    var game = el("div", "ml-card");
    game.id = "ml-card-game";
    game.appendChild(el("h3", null, words.game));
    var rows = {};
    if (state.phase) rows[words.phase] = names.phases[state.phase] || state.phase;
    if (data.steps[k].turns) rows[words.turn] = data.seats[state.turn];
    var t = el("table");
    Object.keys(rows).forEach(function (r) {
      var tr = el("tr"); tr.appendChild(el("td", null, r)); tr.appendChild(el("td", null, rows[r]));
      t.appendChild(tr);
    });
    game.appendChild(t);
    game.appendChild(counterTable(state.counters, "counters\u0001", changed));
    zones(game, byOwner.shared || [], state, changed, false);
    box.appendChild(game);
    state.players.forEach(function (values, seat) {
      var card = el("div", "ml-card");
      card.id = "ml-card-" + seat;
      if (data.steps[k].player === seat) card.classList.add("ml-turn");
      var me = data.viewers[viewer].id === seat ? " " + words.you : "";
      card.appendChild(el("h3", null, data.seats[seat] + me));
      card.appendChild(counterTable(values, "players\u0001" + seat + "\u0001", changed));
      zones(card, byOwner[seat] || [], state, changed, true);
      box.appendChild(card);
    });
  }
  function highlight(s) {
    var svg = document.querySelector("#ml-diagram svg");
    if (!svg) return;
    ["ml-current", "ml-within", "ml-taken"].forEach(function (c) {
      Array.prototype.slice.call(svg.querySelectorAll("g." + c)).forEach(function (g) {
        g.classList.remove(c); });
    });
    function mark(id, c) {
      if (!id) return null;
      var g = svg.getElementById ? svg.getElementById(id) : document.getElementById(id);
      if (!g) g = document.getElementById(id);
      if (g) g.classList.add(c);
      return g;
    }
    s.within.forEach(function (id) { mark(id, "ml-within"); });
    var current = mark(s.node, "ml-current");
    mark(s.action, "ml-taken");
    if (current) {
      var box = document.getElementById("ml-diagram");
      var r = current.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (r.top < b.top || r.bottom > b.bottom) {
        box.scrollTop += (r.top + r.height / 2) - (b.top + b.height / 2);
      }
      if (r.left < b.left || r.right > b.right) {
        box.scrollLeft += (r.left + r.width / 2) - (b.left + b.width / 2);
      }
    }
  }
  function render() {
    var v = data.viewers[viewer], s = data.steps[step];
    document.getElementById("ml-slider").value = step;
    document.getElementById("ml-step").textContent = fmt(words.step, step, last);
    document.getElementById("ml-first").disabled = document.getElementById("ml-prev").disabled =
      step === 0;
    document.getElementById("ml-next").disabled = document.getElementById("ml-last").disabled =
      step === last;
    var heading = document.getElementById("ml-heading");
    if (s.player === null) {
      var scores = data.scores.map(function (x, i) { return data.seats[i] + " " + x; });
      var win = data.winners.map(function (i) { return data.seats[i]; });
      heading.textContent = words.game_over + " · " + words.scores + ": " + scores.join(", ") +
        " · " + words.winners + ": " + (win.length ? win.join(", ") : words.nobody);
    } else {
      heading.textContent = fmt(words.decision, step + 1, data.decisions) + " · " +
        fmt(words.asks, s.who, s.kind);
    }
    document.getElementById("ml-where").textContent = s.where.join(" › ");
    var rule = document.getElementById("ml-rule");
    clear(rule);
    if (s.at) {
      rule.appendChild(document.createTextNode(words.rule + " "));
      rule.appendChild(el("code", "ml-at", s.at));
      if (data.rules[s.at]) {
        rule.appendChild(document.createTextNode("  "));
        rule.appendChild(el("code", "ml-code", data.rules[s.at]));
      }
    }
    var ol = document.getElementById("ml-options");
    clear(ol);
    v.options[step].forEach(function (text, i) {
      var li = el("li", i === v.taken[step] ? "ml-taken" : null, text);
      if (i === v.taken[step]) li.title = words.taken;
      ol.appendChild(li);
    });
    document.getElementById("ml-options-heading").hidden = !v.options[step].length;
    if (v.options[step].length && v.taken[step] === null) {
      ol.appendChild(el("li", "ml-none", words.secret_taken));
    }
    var ev = document.getElementById("ml-events");
    clear(ev);
    v.events[step].forEach(function (pair) {
      var li = el("li", null, pair[0]);
      if (pair[1]) {
        var at = el("code", "ml-at", pair[1]);
        if (data.rules[pair[1]]) at.title = data.rules[pair[1]];
        li.appendChild(at);
      }
      ev.appendChild(li);
    });
    if (!v.events[step].length) ev.appendChild(el("li", "ml-none", words.no_events));
    var ch = document.getElementById("ml-changes");
    clear(ch);
    v.changes[step].forEach(function (text) { ch.appendChild(el("li", null, text)); });
    if (!v.changes[step].length && step > 0) ch.appendChild(el("li", "ml-none", words.no_changes));
    renderState(stateAt(viewer, step), step);
    highlight(s);
    document.body.setAttribute("data-step", String(step));
    document.body.setAttribute("data-viewer", String(v.id));
  }
  function go(k) { step = Math.max(0, Math.min(last, k)); render(); }
  document.getElementById("ml-first").addEventListener("click", function () { go(0); });
  document.getElementById("ml-prev").addEventListener("click", function () { go(step - 1); });
  document.getElementById("ml-next").addEventListener("click", function () { go(step + 1); });
  document.getElementById("ml-last").addEventListener("click", function () { go(last); });
  document.getElementById("ml-slider").addEventListener("input", function (e) {
    go(parseInt(e.target.value, 10)); });
  var select = document.getElementById("ml-viewer");
  if (select) select.addEventListener("change", function (e) {
    viewer = parseInt(e.target.value, 10); render(); });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "SELECT" || e.target.id === "ml-slider")) return;
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(last); e.preventDefault(); }
  });
  render();
})();
"""
