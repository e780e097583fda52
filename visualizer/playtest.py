"""`meeplang playtest GAME`: a game played live in a browser page, served on 127.0.0.1.

`PlaytestSession` is the game being played, with no server: the current decision's options and
the ones the rules refuse with the reason the engine gives (`Engine.why_illegal`: an action's
`requires:`, its cost or its limit), agents for the seats no person plays (interpreter/agents.py,
as `meeplang play --agents`), undo at every decision (`Engine.keep_undo`: the engine runs lowered,
so the game before each choice is kept as data) and redo (the choices undone, re-applied), the
state as a seat or the author sees it (`Engine.view`, hidden items hidden), save and load (a save
is the log so far, interpreter/log.py; loading replays it checked), and the game's files watched:
an edit is checked again; an error is shown with its position and the game goes on with the old
rules; a clean edit restarts the game from the same seed and replays the same choices, by label,
as far as they stay legal.

`make_app` is a thin Starlette layer over one session: the page (GET /) and a JSON API (GET
/state, POST /choose, /undo, /redo, /agent-step, /auto, /seat, /save, /load). Every request must
carry the run's token (`?token=` or the `X-Meeplang-Token` header) and a Host header naming
127.0.0.1 or localhost with the server's port (anything else is a 403: a page of another site
cannot drive it, even through DNS rebinding). Bad input is a JSON error with HTTP 400, never a
traceback. The page's pieces are the replay viewer's (viewer.py): its words, its reading of where
the flow stands and of options and events, its flowchart, and its discipline: every text from the
game reaches the page as JSON put into text nodes, never as markup.
"""
from __future__ import annotations

import html
import json
import os
import secrets
import threading
from pathlib import Path

from meeplang.dsl.errors import UNKNOWN, MeeplangError, UsageError
from meeplang.dsl.model import TurnsStep
from meeplang.dsl.resolve import load_game
from meeplang.interpreter import log as game_log
from meeplang.interpreter.agents import make_agents
from meeplang.interpreter.decisions import ActionOption
from meeplang.interpreter.engine import Engine

from .dot import build_diagram, to_digraph
from .labels import LANGS
from .render import INSTALL_HINT, have_dot, inline_svg, render_source
from .viewer import (AUTHOR, CSS, PAGE_HELPERS, WORDS, _changes, _event_text, _json_for_script,
                     _Recorder, _Say, flow_chain, shown_state)

MAX_AUTO = 20_000  # `auto` makes at most this many agent moves in one request
MAX_WATCHED = 2_000  # the game's folder: at most this many files are watched for edits
RECENT_EVENTS = 40  # the page lists the last events

# The playtest page's own words (beside the viewer's). Keys are the same in every language.
PLAY_WORDS = {
    "en": {
        "playtest": "Playtest", "undo": "Undo", "redo": "Redo", "agent_step": "Agent move",
        "auto": "Auto-play until a human decides", "save": "Save", "load": "Load",
        "file": "File", "choose": "Choose", "not_allowed": "Not allowed now",
        "not_offered": "Not offered at this point: {}",
        "waits_agent": "{} is played by the agent {}: press “{}”.",
        "waits_human": "{} decides (a person).", "recent": "Recent events",
        "rules_error": "The rules do not check: the game goes on with the rules it had.",
        "reloaded": "The rules changed: the game restarted (seed {}) and {} of {} choices "
                    "were replayed.",
        "saved": "Saved to {}", "loaded": "Loaded {}", "error": "Error",
        "play_footer": "meeplang playtest: served on this computer only; the page needs its "
                       "token.",
        "choices": "{} choices", "agents": "Agents: {}",
    },
    "fr": {
        "playtest": "Essai", "undo": "Annuler", "redo": "Rétablir", "agent_step": "Coup d'agent",
        "auto": "Jouer jusqu'à une décision humaine", "save": "Enregistrer", "load": "Charger",
        "file": "Fichier", "choose": "Choisir", "not_allowed": "Non permis maintenant",
        "not_offered": "Pas proposé à ce moment : {}",
        "waits_agent": "{} est joué par l'agent {} : appuyez sur « {} ».",
        "waits_human": "{} décide (une personne).", "recent": "Derniers événements",
        "rules_error": "Les règles ne passent pas la vérification : la partie continue avec "
                       "les règles d'avant.",
        "reloaded": "Les règles ont changé : la partie a recommencé (graine {}) et {} choix sur "
                    "{} ont été rejoués.",
        "saved": "Enregistré dans {}", "loaded": "Chargé : {}", "error": "Erreur",
        "play_footer": "meeplang playtest : servi sur cet ordinateur seulement ; la page a "
                       "besoin de son jeton.",
        "choices": "{} choix", "agents": "Agents : {}",
    },
}


class PlaytestError(UsageError):
    """Bad input to a session (an option out of range, a seat that is not one): HTTP 400."""


def _watched_files(game) -> list[Path]:
    """The files an edit of which changes the game: every file of its folder (includes,
    variants), a game file given by path, its variant files."""
    paths: list[Path] = []
    folder = Path(game.folder)
    if folder.is_dir():
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.endswith((".yaml", ".yml", ".meep")) and len(paths) < MAX_WATCHED:
                    paths.append(Path(root) / name)
    for extra in (game.game_file, game.variant_file,
                  *(ref for kind, ref in (game.stack or ()) if kind != "name")):
        if extra:
            paths.append(Path(extra))
    return paths


def _stamp(paths: list[Path]) -> tuple:
    out = []
    for p in paths:
        try:
            info = p.stat()
            out.append((str(p), info.st_mtime_ns, info.st_size))
        except OSError:
            out.append((str(p), None, None))
    return tuple(out)


class PlaytestSession:
    """One game played through the page: the engine (undo kept), the redo stack, the agents,
    the viewer chosen, and the game's files watched for edits."""

    def __init__(self, name: str, variant=None, players: int | None = None, seed: int = 0,
                 agents: str = "human", lang: str = "en", options: dict | None = None,
                 detail: str = "phases", need_dot: bool = False):
        if lang not in LANGS:
            raise UsageError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
        self.name, self.variant, self.lang, self.detail = name, variant, lang, detail
        self.need_dot = need_dot
        self.seed, self.options, self.agent_spec = seed, dict(options or {}), agents
        game = load_game(name, variant)
        self.players = players if players is not None else game.min_players
        self.viewer = AUTHOR
        self.redo_stack: list[int] = []
        self.secret: list[bool] = []  # per choice made: was it a secret one?
        self.error: str | None = None  # the rules' error since the last edit, if any
        self.notice: str | None = None  # what the last reload, save or load did
        self.version = 0  # a new game model (the page reloads its flowchart)
        self._use_game(game)
        self.engine = self._new_engine()
        self.agents = make_agents(agents, self.players, seed)

    # ------------------------------------------------------------ the game and its files
    def _use_game(self, game) -> None:
        self.game = game
        self.say = _Say(game, self.lang, self.players)
        self.diagram = build_diagram(game, self.detail, self.lang, _changes(game))  # a variant's
        # changes in red, as in the replay page
        self.recorder = _Recorder(game, [AUTHOR], self.say, self.diagram)
        self.files = _watched_files(game)
        self.stamp = _stamp(self.files)
        self._svg: str | None = None
        self.version += 1

    def _new_engine(self) -> Engine:
        engine = Engine(self.game, self.players, self.seed, self.options)
        engine.start()
        engine.keep_undo()  # (once started: where the rules stand is data to copy)
        self.secret = []
        return engine

    def svg(self) -> str:
        """The flowchart as inline SVG ('' without Graphviz's dot, unless it is needed)."""
        if self._svg is None:
            self._svg = ""
            if self.need_dot or have_dot():
                text = render_source(to_digraph(self.diagram).source, "svg").decode("utf-8")
                self._svg = inline_svg(text)
        return self._svg

    def check_files(self) -> bool:
        """Has a file of the game changed since it was read? Then check the game again: an error
        is kept (`error`) and the game goes on; clean rules restart the game from the same seed
        with the same choices, as far as they stay legal. True if the game restarted."""
        stamp = _stamp(self.files)
        if stamp == self.stamp:
            return False
        self.stamp = stamp
        labels = self._labels()
        old = self.__dict__.copy()
        try:
            game = load_game(self.name, self.variant)
            self._use_game(game)
            self.engine = self._new_engine()
            done = self._replay_labels(labels)  # the new rules may fail as they run
        except MeeplangError as exc:
            self.__dict__.update(old)  # the game goes on with the rules it had
            self.stamp = stamp
            self.error = exc.render()
            return False
        self.error = None
        self.redo_stack = []
        self.notice = self.words("reloaded", self.seed, done, len(labels))
        return True

    def _labels(self) -> list[str]:
        """The label of every choice made so far (as the log has it)."""
        return [e["option"] for e in self.engine.events if e.get("event") == "decision"]

    def _replay_labels(self, labels: list[str]) -> int:
        done = 0
        for text in labels:
            d = self.engine.decision
            if d is None:
                break
            found = [i for i, o in enumerate(d.options) if _plain_label(o) == text]
            if not found:
                break
            self._choose(found[0])
            done += 1
        return done

    # ------------------------------------------------------------ words
    def words(self, key: str, *args) -> str:
        text = PLAY_WORDS[self.lang][key]
        return text.format(*args) if args else text

    # ------------------------------------------------------------ playing
    def _choose(self, index: int) -> None:
        d = self.engine.decision
        secret = bool(d.secret)
        self.engine.choose(index)
        self.secret.append(secret)

    def choose(self, index) -> None:
        """Answer the current decision with its option `index` (a new choice clears redo)."""
        d = self.engine.decision
        if d is None:
            raise PlaytestError("the game is over: there is nothing to choose")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise PlaytestError(f"option {index!r} is not one of this decision's options "
                                f"(0 to {len(d.options) - 1})")
        self._choose(index)
        self.redo_stack = []
        self.notice = None

    def undo(self) -> None:
        """Take back the last choice (at any decision, inside an action too)."""
        if not self.engine.choices:
            raise PlaytestError("there is no choice to undo")
        index = self.engine.choices[-1]
        self.engine.undo()
        self.secret.pop()
        self.redo_stack.append(index)
        self.notice = None

    def redo(self) -> None:
        """Make again the last choice undone."""
        if not self.redo_stack:
            raise PlaytestError("there is no choice to redo")
        index = self.redo_stack.pop()
        d = self.engine.decision
        if d is None or not 0 <= index < len(d.options):  # (cannot happen: undo is exact)
            self.redo_stack = []
            raise PlaytestError("the choice undone is not an option here any more")
        self._choose(index)
        self.notice = None

    def is_human(self, seat: int) -> bool:
        return seat < len(self.agents) and self.agents[seat].name == "human"

    def agent_step(self) -> None:
        """The agent of the seat to choose makes its move."""
        d = self.engine.decision
        if d is None:
            raise PlaytestError("the game is over: there is nothing to choose")
        if self.is_human(d.player):
            raise PlaytestError(f"player {d.player} is played by a person here: choose one of "
                                "the options")
        agent = self.agents[d.player]
        view = self.engine.view(d.player) if agent.needs_view else None
        index = agent.choose(self.engine, d, view)
        self.choose(index)

    def auto(self) -> int:
        """Agents play until a person is to decide or the game is over; how many moves."""
        moves = 0
        while self.engine.decision is not None and not self.is_human(self.engine.decision.player):
            if moves >= MAX_AUTO:
                break
            self.agent_step()
            moves += 1
        return moves

    def set_viewer(self, seat) -> None:
        """See the game as a seat (a number) or as the author ("all": everything)."""
        if seat == AUTHOR:
            self.viewer = AUTHOR
            return
        if type(seat) is not int or not 0 <= seat < self.engine.humans:
            raise PlaytestError(f"seat {seat!r} is not one of this game's seats: give 0 to "
                                f"{self.engine.humans - 1}, or \"all\" for the author's view")
        self.viewer = seat

    # ------------------------------------------------------------ save and load
    def save(self, path: str) -> Path:
        """Write the game so far (a save: the log and a check of the state) to `path`."""
        out = _file_arg(path)
        if out.is_dir():
            raise PlaytestError(f"{path}: this is a folder, not a file")
        if not out.parent.is_dir():
            raise PlaytestError(f"{path}: no folder {str(out.parent)!r}")
        game_log.save_file(str(out), self.engine)
        self.notice = self.words("saved", str(out))
        return out

    def load(self, path: str) -> None:
        """Continue a save of this game: replayed and checked (a save of other rules, of another
        game, or that does not replay is refused with its reason and position)."""
        src = _file_arg(path)
        if not src.is_file():
            raise PlaytestError(f"{path}: no such file")
        loaded = game_log.load_file(str(src))
        if loaded.game.rules_hash != self.game.rules_hash:
            raise PlaytestError(f"{path} is a save of {game_log.game_ref(loaded.game)}"
                                f"{':' + loaded.game.variant if loaded.game.variant else ''}, "
                                "not of the game being played")
        self.players, self.seed, self.options = loaded.humans, loaded.seed, \
            dict(loaded.options_given)
        self.agents = make_agents(self.agent_spec, self.players, self.seed)
        self.say = _Say(self.game, self.lang, self.players)
        self.recorder = _Recorder(self.game, [AUTHOR], self.say, self.diagram)
        self.engine = self._new_engine()
        for index in loaded.choices:  # again, with undo kept at every decision
            self._choose(index)
        self.redo_stack = []
        if self.viewer != AUTHOR and self.viewer >= self.engine.humans:
            self.viewer = AUTHOR
        self.notice = self.words("loaded", str(src))

    # ------------------------------------------------------------ what the page shows
    def state(self) -> dict:
        """What the page shows now, as the chosen viewer sees it (JSON)."""
        engine, say, rec, v = self.engine, self.say, self.recorder, self.viewer
        view = shown_state(engine.view(None if v == AUTHOR else v))
        d = engine.decision
        out = {
            "version": self.version, "viewer": v, "error": self.error, "notice": self.notice,
            "seed": self.seed, "players": engine.humans, "choices": len(engine.choices),
            "can_undo": bool(engine.choices), "can_redo": bool(self.redo_stack),
            "seats": [say.seat(p) for p in range(engine.n)],
            "agents": [a.name for a in self.agents],
            "viewers": [[AUTHOR, say("author")]] + [[p, say.seat(p)]
                                                     for p in range(engine.humans)],
            "state": view, "names": self._names(view), "events": self._events(view),
            "over": d is None,
        }
        if d is None:
            result = engine.result or {}
            out["scores"] = result.get("scores", [])
            out["winners"] = result.get("winners", [])
            out["where"] = rec.where(engine, None, None)
            out["decision"] = None
            return out
        places = None if v == AUTHOR else (
            d.labels if v == d.player else engine.hidden_labels(v, d.options))
        options = [{"index": i, "label": d.labels[i] if v in (AUTHOR, d.player) else
                    (places[i] if places is not None else _plain_label(o)),
                    "text": rec.option_text(engine, o, None if places is None else places[i],
                                            view)}
                   for i, o in enumerate(d.options)]
        where = rec.where(engine, d, 0)
        where["action"] = None  # nothing is taken yet
        out["where"] = where
        out["rule"] = rec.rules.get(where["at"], "")
        human = self.is_human(d.player) if d.player < engine.humans else False
        out["decision"] = {
            "player": d.player, "who": say.seat(d.player), "kind": where["kind"],
            "secret": bool(d.secret), "human": human,
            "agent": None if d.player >= len(self.agents) else self.agents[d.player].name,
            "options": options, "refused": self.refused(d),
        }
        return out

    def refused(self, d) -> list[dict]:
        """At a choice of an action: the actions of the turn that are not offered, each with
        the engine's reason (a `requires:` with its position, a cost, a limit)."""
        if d.kind != "action":
            return []
        chain = flow_chain(self.game.flow, self.engine.frames)
        turns = [s for s, _ in chain if isinstance(s, TurnsStep)]
        names = list(turns[-1].actions) + list(turns[-1].free_actions) if turns else \
            list(self.game.actions)
        offered = {o.action for o in d.options if isinstance(o, ActionOption)}
        out = []
        for name in dict.fromkeys(names):
            if name in offered or name not in self.game.actions:
                continue
            reason = self.engine.why_illegal(name)
            # the engine's own reason: a limit used up, a cost, a `requires:` that is false
            # (with its position); else the action is simply not offered at this point
            specific = " is not allowed now: " in reason
            out.append({"action": name, "text": self.say.term(name), "specific": specific,
                        "reason": reason.split("; legal: ")[0]})
        return out

    def _names(self, view: dict) -> dict:
        say = self.say
        seat_counters = view["players"][0] if view["players"] else {}
        return {"counters": {k: say.counter(k) for k in [*view["counters"], *seat_counters]},
                "kinds": {k: say.term(k) for k in self.game.items},
                "fields": {f: say.term(f) for f in sorted(self.game.item_fields)},
                "phases": {view["phase"]: say.term(view["phase"])} if view.get("phase") else {},
                "zones": {key: [say.zone(key), int(key.partition("@")[2])
                                if key.partition("@")[2].isdigit() else None,
                                say.zone(key.partition("@")[0])] for key in view["zones"]}}

    def _events(self, view: dict) -> list:
        """The last events in words, as the viewer may know them: another seat's secret choice
        is not said, an item the viewer cannot see now is `?`."""
        engine, say, rec, v = self.engine, self.say, self.recorder, self.viewer
        events = engine.events
        start = max(0, len(events) - RECENT_EVENTS)
        # the index among the choices of each decision event from `start` on
        k = sum(1 for e in events[:start] if e.get("event") == "decision")
        out = []
        for e in events[start:]:
            if e.get("event") == "decision":
                hidden = v != AUTHOR and self.secret[k] and e.get("player") != v
                k += 1
                text = say("e_decision", say.seat(e.get("player")), say("secret_taken") if hidden
                           else rec.said_value(engine, e.get("option"), None, view))
            else:
                text = _event_text(say, e, lambda x: rec.said_value(engine, x, None, view))
            out.append([text, rec.rule(e.get("at"))])
        out.reverse()  # the latest first
        return out


def _plain_label(option) -> str:
    from meeplang.interpreter.decisions import label

    return label(option)


def _file_arg(path) -> Path:
    if not isinstance(path, str) or not path.strip():
        raise PlaytestError("give a file name")
    return Path(path).expanduser()


# ---------------------------------------------------------------- the page
PLAY_CSS = """
#ml-choices button { font: inherit; margin: .15rem .3rem .15rem 0; padding: .3rem .7rem;
                     border: 1px solid #4a7bb7; border-radius: 4px; background: #eef4fb;
                     cursor: pointer; }
#ml-choices button:hover { background: #dbe8f7; }
#ml-refused li { margin: .2rem 0; }
#ml-refused .ml-reason { color: #8a2b2b; font-size: .85rem; display: block; }
#ml-error { white-space: pre-wrap; background: #fdecec; border: 1px solid #d99; color: #7a1111;
            padding: .5rem; border-radius: 4px; }
#ml-notice { background: #eef7ee; border: 1px solid #9c9; padding: .3rem .5rem;
             border-radius: 4px; }
#ml-problem { color: #a11; }
#ml-file { width: 14rem; }
"""

PLAY_SCRIPT = r"""
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("ml-data").textContent);
  var words = page.words, token = page.token, version = page.version;
  var shown = "";  // the state last drawn, as JSON: a poll that brings the same is not redrawn
""" + PAGE_HELPERS + r"""
  function byId(id) { return document.getElementById(id); }
  function call(method, path, body, poll) {
    var opts = {method: method, headers: {"X-Meeplang-Token": token}};
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    document.body.setAttribute("data-busy", "1");
    return fetch(path, opts).then(function (r) {
      return r.json().then(function (data) { return {ok: r.ok, data: data}; });
    }).then(function (res) {
      document.body.removeAttribute("data-busy");
      if (!res.ok) { problem(res.data.error || String(res.data)); return; }
      if (!poll) problem(null);  // a poll leaves the last action's error shown
      var text = JSON.stringify(res.data);
      if (text !== shown) { shown = text; show(res.data); }
    }, function (e) { document.body.removeAttribute("data-busy"); problem(String(e)); });
  }
  function problem(text) {
    var p = byId("ml-problem");
    p.textContent = text ? words.error + ": " + text : "";
    p.hidden = !text;
  }
  function counterTable(names, values) {
    var table = el("table");
    Object.keys(values).forEach(function (k) {
      var tr = el("tr");
      tr.appendChild(el("td", null, names.counters[k] || k));
      tr.appendChild(el("td", null, value(values[k])));
      table.appendChild(tr);
    });
    return table;
  }
  function zoneLines(card, names, keys, state, short) {
    var empty = [];
    keys.forEach(function (key) {
      var info = names.zones[key], name = info ? info[short ? 2 : 0] : key;
      var items = state.zones[key];
      if (!items.length) { empty.push(name); return; }
      var line = el("div", "ml-zone");
      line.setAttribute("data-zone", key);
      line.appendChild(el("span", "ml-zone-name", name + ": "));
      var hidden = 0, shown = 0;
      items.forEach(function (id) {
        if (id === "?") { hidden++; return; }
        if (shown++ >= 40) return;
        var item = state.items[id];
        var chip = el("span", "ml-chip", itemLabel(names, id, item));
        chip.title = item ? Object.keys(item).filter(function (k) { return k !== "kind"; })
          .map(function (k) { return (names.fields[k] || k) + ": " + value(item[k]); })
          .join("\n") : "";
        chip.setAttribute("data-item", id);
        line.appendChild(chip);
      });
      if (shown > 40) line.appendChild(el("span", "ml-chip", fmt(words.more, shown - 40)));
      if (hidden) line.appendChild(el("span", "ml-chip ml-hidden", fmt(words.hidden, hidden)));
      card.appendChild(line);
    });
    if (empty.length) card.appendChild(el("div", "ml-zone ml-empty",
                                          fmt(words.empty_zones, empty.join(", "))));
  }
  function renderState(s) {
    var box = byId("ml-state"), state = s.state, names = s.names;
    clear(box);
    var byOwner = {};
    Object.keys(state.zones).forEach(function (key) {
      var info = names.zones[key], owner = info ? info[1] : null;
      var k = owner === null ? "shared" : owner;
      (byOwner[k] = byOwner[k] || []).push(key);
    });
    var game = el("div", "ml-card");
    game.id = "ml-card-game";
    game.appendChild(el("h3", null, words.game));
    if (state.phase) {
      var t = el("table"), tr = el("tr");
      tr.appendChild(el("td", null, words.phase));
      tr.appendChild(el("td", null, names.phases[state.phase] || state.phase));
      t.appendChild(tr); game.appendChild(t);
    }
    game.appendChild(counterTable(names, state.counters));
    zoneLines(game, names, byOwner.shared || [], state, false);
    box.appendChild(game);
    state.players.forEach(function (values, seat) {
      var card = el("div", "ml-card");
      card.id = "ml-card-" + seat;
      if (s.decision && s.decision.player === seat) card.classList.add("ml-turn");
      card.appendChild(el("h3", null, s.seats[seat] + (s.viewer === seat ? " " + words.you : "")));
      card.appendChild(counterTable(names, values));
      zoneLines(card, names, byOwner[seat] || [], state, true);
      box.appendChild(card);
    });
  }
  function highlight(w) {
    var svg = document.querySelector("#ml-diagram svg");
    if (!svg) return;
    ["ml-current", "ml-within"].forEach(function (c) {
      Array.prototype.slice.call(svg.querySelectorAll("g." + c)).forEach(function (g) {
        g.classList.remove(c); });
    });
    function mark(id, c) {
      if (!id) return;
      var g = document.getElementById(id);
      if (g) g.classList.add(c);
    }
    (w.within || []).forEach(function (id) { mark(id, "ml-within"); });
    mark(w.node, "ml-current");
  }
  function show(s) {
    if (s.version !== version) { location.reload(); return; }
    var d = s.decision;
    byId("ml-undo").disabled = !s.can_undo;
    byId("ml-redo").disabled = !s.can_redo;
    var agentTurn = !!d && !d.human;
    byId("ml-agent").disabled = !agentTurn;
    byId("ml-auto").disabled = !agentTurn;
    byId("ml-viewer").value = String(s.viewer);
    var err = byId("ml-error");
    err.hidden = !s.error;
    err.textContent = s.error ? words.rules_error + "\n" + s.error : "";
    var notice = byId("ml-notice");
    notice.hidden = !s.notice;
    notice.textContent = s.notice || "";
    byId("ml-count").textContent = fmt(words.choices, s.choices);
    var heading = byId("ml-heading");
    if (!d) {
      var scores = s.scores.map(function (x, i) { return s.seats[i] + " " + x; });
      var win = s.winners.map(function (i) { return s.seats[i]; });
      heading.textContent = words.game_over + " · " + words.scores + ": " + scores.join(", ") +
        " · " + words.winners + ": " + (win.length ? win.join(", ") : words.nobody);
    } else {
      heading.textContent = fmt(words.asks, d.who, d.kind);
    }
    byId("ml-where").textContent = (s.where.where || []).join(" › ");
    var rule = byId("ml-rule");
    clear(rule);
    if (d && s.where.at) {
      rule.appendChild(document.createTextNode(words.rule + " "));
      rule.appendChild(el("code", "ml-at", s.where.at));
      if (s.rule) { rule.appendChild(document.createTextNode("  "));
                    rule.appendChild(el("code", "ml-code", s.rule)); }
    }
    var wait = byId("ml-wait");
    wait.textContent = !d ? "" : d.human ? fmt(words.waits_human, d.who)
      : fmt(words.waits_agent, d.who, d.agent || "automa", words.agent_step);
    var box = byId("ml-choices");
    clear(box);
    (d ? d.options : []).forEach(function (o) {
      var b = el("button", null, o.text);
      b.type = "button";
      b.title = o.label;
      b.setAttribute("data-index", String(o.index));
      b.setAttribute("data-label", o.label);
      b.addEventListener("click", function () { call("POST", "/choose", {index: o.index}); });
      box.appendChild(b);
    });
    var refused = byId("ml-refused");
    clear(refused);
    var others = [];
    (d ? d.refused : []).forEach(function (r) {
      if (!r.specific) { others.push(r.text); return; }
      var li = el("li", null, r.text);
      li.setAttribute("data-action", r.action);
      li.appendChild(el("span", "ml-reason", r.reason));
      refused.appendChild(li);
    });
    if (others.length) refused.appendChild(el("li", "ml-none", fmt(words.not_offered,
                                                                   others.join(", "))));
    byId("ml-refused-heading").hidden = !(d && d.refused.length);
    var ev = byId("ml-events");
    clear(ev);
    s.events.forEach(function (pair) {
      var li = el("li", null, pair[0]);
      if (pair[1]) li.appendChild(el("code", "ml-at", pair[1]));
      ev.appendChild(li);
    });
    renderState(s);
    highlight(s.where);
    document.body.setAttribute("data-choices", String(s.choices));
    document.body.setAttribute("data-over", d ? "0" : "1");
    document.body.setAttribute("data-kind", d ? d.kind : "");
    document.body.setAttribute("data-player", d ? String(d.player) : "");
    document.body.setAttribute("data-viewer", String(s.viewer));
  }
  byId("ml-undo").addEventListener("click", function () { call("POST", "/undo", {}); });
  byId("ml-redo").addEventListener("click", function () { call("POST", "/redo", {}); });
  byId("ml-agent").addEventListener("click", function () { call("POST", "/agent-step", {}); });
  byId("ml-auto").addEventListener("click", function () { call("POST", "/auto", {}); });
  byId("ml-viewer").addEventListener("change", function (e) {
    var v = e.target.value;
    call("POST", "/seat", {seat: v === "all" ? "all" : parseInt(v, 10)});
  });
  byId("ml-save").addEventListener("click", function () {
    call("POST", "/save", {path: byId("ml-file").value}); });
  byId("ml-load").addEventListener("click", function () {
    call("POST", "/load", {path: byId("ml-file").value}); });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) call("GET", "/state", undefined, true);
  });
  setInterval(function () {  // an edit of the rules shows without a click
    if (!document.hidden && !document.body.hasAttribute("data-busy")) {
      call("GET", "/state", undefined, true);
    }
  }, 1500);
  call("GET", "/state");
})();
"""


def page(session: PlaytestSession, token: str) -> str:
    """The playtest page: markup, CSS and script, the flowchart as inline SVG, its data (the
    words, the token) as JSON; the game itself comes from GET /state."""
    e = html.escape
    w = {**WORDS[session.lang], **PLAY_WORDS[session.lang]}
    game = session.game
    title = f"{session.say.w.title()} · {w['playtest']}"
    variant = f":{game.variant}" if game.variant else ""
    meta = " · ".join([f"{game.name}{variant}", w["seed"].format(session.seed),
                       w["agents"].format(", ".join(a.name for a in session.agents))])
    viewers = [(AUTHOR, session.say("author"))] + [(p, session.say.seat(p))
                                                    for p in range(session.engine.humans)]
    opts = "".join(f'<option value="{e(str(v))}">{e(label)}</option>' for v, label in viewers)
    svg = session.svg()
    data = {"words": w, "token": token, "version": session.version, "lang": session.lang}
    return f"""<!DOCTYPE html>
<html lang="{e(session.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{e(title)}</title>
<link rel="icon" href="data:,">
<style>{CSS}{PLAY_CSS}</style>
</head>
<body>
<header id="ml-top">
<h1>{e(session.say.w.title())} <span class="ml-sub">{e(w['playtest'])}</span></h1>
<p class="ml-meta">{e(meta)} · <span id="ml-count"></span></p>
<nav id="ml-controls">
<button type="button" id="ml-undo">↶ {e(w['undo'])}</button>
<button type="button" id="ml-redo">↷ {e(w['redo'])}</button>
<button type="button" id="ml-agent">{e(w['agent_step'])}</button>
<button type="button" id="ml-auto">{e(w['auto'])}</button>
<label>{e(w['view_as'])} <select id="ml-viewer">{opts}</select></label>
<label>{e(w['file'])} <input type="text" id="ml-file" value="playtest-save.jsonl"></label>
<button type="button" id="ml-save">{e(w['save'])}</button>
<button type="button" id="ml-load">{e(w['load'])}</button>
</nav>
<p id="ml-problem" hidden></p>
</header>
<main>
<pre id="ml-error" hidden></pre>
<p id="ml-notice" hidden></p>
<div id="ml-columns">
<section id="ml-left">
<h2 id="ml-heading"></h2>
<p id="ml-where"></p>
<p id="ml-rule"></p>
<p id="ml-wait"></p>
<div id="ml-choices"></div>
<h3 id="ml-refused-heading" hidden>{e(w['not_allowed'])}</h3>
<ul id="ml-refused"></ul>
<h3>{e(w['recent'])}</h3>
<ul id="ml-events"></ul>
</section>
<section id="ml-right">
<h2>{e(w['flowchart'])}</h2>
<div id="ml-diagram">{svg if svg else e(INSTALL_HINT)}</div>
</section>
</div>
<section id="ml-state-section">
<h2>{e(w['state'])}</h2>
<div id="ml-state"></div>
</section>
</main>
<footer><p>{e(w["play_footer"])}</p></footer>
<script type="application/json" id="ml-data">{_json_for_script(data)}</script>
<script>{PLAY_SCRIPT}</script>
</body>
</html>
"""


# ---------------------------------------------------------------- the server
TOKEN_HEADER = "x-meeplang-token"


def make_app(session: PlaytestSession, token: str, port: int):
    """The Starlette app serving `session` on 127.0.0.1:`port`, for requests with `token`."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    lock = threading.Lock()  # one request at a time drives the game
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    headers = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
               "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}

    def refuse(status: int, message: str):
        return JSONResponse({"ok": False, "error": message}, status_code=status, headers=headers)

    def allowed(request: Request):
        if request.headers.get("host", "") not in hosts:
            return refuse(403, "this server answers only requests for 127.0.0.1 or localhost "
                               f"on port {port}")
        given = request.headers.get(TOKEN_HEADER) or request.query_params.get("token") or ""
        if not secrets.compare_digest(given.encode("utf-8", "surrogatepass"),
                                      token.encode("utf-8")):
            return refuse(403, "missing or wrong token: open the address meeplang playtest "
                               "printed")
        return None

    def body_of(raw: bytes) -> dict:
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise PlaytestError(f"the request's body is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise PlaytestError("the request's body must be a JSON object")
        return data

    def endpoint(action):
        async def handle(request: Request):
            bad = allowed(request)
            if bad is not None:
                return bad
            raw = await request.body() if request.method == "POST" else b""
            try:
                data = body_of(raw)
                with lock:
                    session.check_files()
                    result = action(data)
                    if result is None:
                        result = session.state()
            except MeeplangError as exc:
                return refuse(400, error_text(exc))
            except Exception as exc:  # noqa: BLE001 - a bug of ours: said, never a traceback
                if os.environ.get("MEEPLANG_DEBUG"):
                    raise
                return refuse(500, f"internal error: {type(exc).__name__}: {exc} (a bug in "
                                   "meeplang, not in your rules; MEEPLANG_DEBUG=1 shows it)")
            return JSONResponse(result, headers=headers)
        return handle

    async def index(request: Request):
        bad = allowed(request)
        if bad is not None:
            return bad
        with lock:
            session.check_files()
            try:
                text = page(session, token)
            except MeeplangError as exc:
                return refuse(400, error_text(exc))
        return HTMLResponse(text, headers={**headers, "Content-Security-Policy":
                                           "default-src 'none'; script-src 'unsafe-inline'; "
                                           "style-src 'unsafe-inline'; connect-src 'self'; "
                                           "img-src data:; base-uri 'none'; form-action 'none'"})

    def need(data: dict, key: str):
        if key not in data:
            raise PlaytestError(f"the request needs {key!r}")
        return data[key]

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/state", endpoint(lambda data: None), methods=["GET"]),
        Route("/choose", endpoint(lambda data: session.choose(need(data, "index"))),
              methods=["POST"]),
        Route("/undo", endpoint(lambda data: session.undo()), methods=["POST"]),
        Route("/redo", endpoint(lambda data: session.redo()), methods=["POST"]),
        Route("/agent-step", endpoint(lambda data: session.agent_step()), methods=["POST"]),
        Route("/auto", endpoint(lambda data: (session.auto(), None)[1]), methods=["POST"]),
        Route("/seat", endpoint(lambda data: session.set_viewer(need(data, "seat"))),
              methods=["POST"]),
        Route("/save", endpoint(lambda data: (session.save(need(data, "path")), None)[1]),
              methods=["POST"]),
        Route("/load", endpoint(lambda data: session.load(need(data, "path"))),
              methods=["POST"]),
    ]
    return Starlette(routes=routes)


def error_text(exc: MeeplangError) -> str:
    """An error as the API says it: `file:line:col: error: ...` when it has a place in a file,
    else its message alone."""
    return exc.message if exc.pos == UNKNOWN else str(exc)


def new_token() -> str:
    return secrets.token_urlsafe(24)


__all__ = ["PlaytestSession", "PlaytestError", "make_app", "page", "new_token"]
