"""Game logs (JSON Lines), replay, and save/load.

A log is a header line, then one line per decision and per random or notable event, then an
`end` line with the scores and a hash of the final state. The header records the rules' hash:
a log made with other rules is refused rather than replayed into nonsense. A save is the same
header plus the choices so far; loading replays them and checks the state hash.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dsl.errors import LoadError, Pos
from dsl.loader import games_dir
from dsl.resolve import load_game

import meeplang

from . import state as st
from .engine import Engine

FORMAT = "meeplang-log/1"
SAVE_FORMAT = "meeplang-save/1"


def game_ref(game) -> str:
    if game.game_file:
        return game.game_file
    folder = Path(game.folder).resolve()
    return game.name if folder.parent == games_dir().resolve() else str(folder)


def file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def header(engine: Engine) -> dict:
    """What re-running the game needs: the game (a bundled name or a path), its variant (a name,
    or a variant file's path and content hash), players, seed, options, and the rules' hash."""
    g = engine.game
    out = {"format": FORMAT, "meeplang": meeplang.__version__, "game": game_ref(g),
           "variant": g.variant, "players": engine.humans, "seed": engine.seed,
           "options": engine.options_given, "rules": g.rules_hash}
    if g.variant_file:
        out["variant_file"] = {"path": g.variant_file, "sha256": file_digest(g.variant_file)}
    return out


def dumps_line(record: dict) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def log_lines(engine: Engine) -> list[str]:
    return [dumps_line(header(engine))] + [dumps_line(e) for e in engine.events]


def write_log(path: str, engine: Engine) -> None:
    Path(path).write_text("\n".join(log_lines(engine)) + "\n", encoding="utf-8")


def _read_records(path: str, expected_format: str) -> list[dict]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError(f"cannot read: {exc}", Pos(path, 1, 1)) from None
    records = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LoadError(f"not JSON: {exc.msg}", Pos(path, n, exc.colno)) from None
        if not isinstance(rec, dict):
            raise LoadError("each line must be a JSON object", Pos(path, n, 1))
        records.append(rec)
    if not records or records[0].get("format") != expected_format:
        raise LoadError(f"not a Meeplang file of format {expected_format}", Pos(path, 1, 1))
    return records


def engine_from_header(h: dict, where: Pos) -> Engine:
    for key in ("game", "players", "seed", "rules"):
        if key not in h:
            raise LoadError(f"the header has no {key!r}", where)
    game = _game_of(h, where)
    if game.rules_hash != h["rules"]:
        raise LoadError(
            f"this was recorded with other rules for {h['game']}"
            f"{':' + h['variant'] if h.get('variant') else ''} (rules {h['rules']}, now "
            f"{game.rules_hash}): the game files changed since", where)
    return Engine(game, int(h["players"]), int(h["seed"]), h.get("options") or {})


def _game_of(h: dict, where: Pos):
    """The game a header names; a variant file must still be there with the same bytes."""
    recorded = h.get("variant_file")
    if not recorded:
        return load_game(h["game"], h.get("variant"))
    if not isinstance(recorded, dict) or not isinstance(recorded.get("path"), str):
        raise LoadError("the header's variant_file must be {path, sha256}", where)
    path = recorded["path"]
    if not Path(path).is_file():
        raise LoadError(f"this was recorded with the variant file {path}, which is not there "
                        "any more", where)
    if file_digest(path) != recorded.get("sha256"):
        raise LoadError(f"this was recorded with another version of {path} (the file changed "
                        "since)", where)
    return load_game(path)


def replay(path: str) -> Engine:
    """Re-execute a log file and check every event and the final state against it."""
    return replay_records(_read_records(path, FORMAT), path)


def replay_records(records: list[dict], path: str = "<log>") -> Engine:
    """Re-execute a log (header + events) and compare each produced event with the logged one."""
    engine = engine_from_header(records[0], Pos(path, 1, 1))
    choices = [r.get("choice") for r in records[1:] if r.get("event") == "decision"]
    logged = [dumps_line(r) for r in records[1:]]
    d = engine.start()
    try:
        for i in choices:
            if d is None:
                break
            if type(i) is not int or not 0 <= i < len(d.options):
                break
            d = engine.choose(i)
    finally:
        # report the first event that differs, wherever the replay stopped
        produced = [dumps_line(e) for e in engine.events]
        for n, (a, b) in enumerate(zip(produced, logged), start=2):
            if a != b:
                raise LoadError(f"replay differs from the log here: log says {b}, replay "
                                f"gives {a}", Pos(path, n, 1))
    if d is not None:
        raise LoadError("the log ends before the game does", Pos(path, len(records), 1))
    if len(produced) != len(logged):
        raise LoadError(f"replay gives {len(produced)} events, the log has {len(logged)}",
                        Pos(path, 1, 1))
    return engine


def save(engine: Engine) -> dict:
    return {**header(engine), "format": SAVE_FORMAT, "choices": list(engine.choices),
            "state": st.state_hash(engine.state)}


def save_file(path: str, engine: Engine) -> None:
    Path(path).write_text(dumps_line(save(engine)) + "\n", encoding="utf-8")


def load(data: dict, where: Pos | None = None) -> Engine:
    """Continue a saved game: replay its choices and check the state is the one saved."""
    where = where or Pos("<save>", 1, 1)
    if data.get("format") != SAVE_FORMAT:
        raise LoadError("not a Meeplang save", where)
    engine = engine_from_header(data, where)
    engine.start()
    for i in data.get("choices", []):
        if engine.decision is None:
            raise LoadError("the save has more choices than the game asks for", where)
        engine.choose(i)
    if st.state_hash(engine.state) != data.get("state"):
        raise LoadError("the saved state does not match the replayed game", where)
    return engine


def load_file(path: str) -> Engine:
    return load(_read_records(path, SAVE_FORMAT)[0], Pos(path, 1, 1))
