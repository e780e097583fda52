"""Game logs (JSON Lines), replay, and save/load.

A log is a header line, then one line per decision and per random or notable event, then an
`end` line with the scores and a hash of the final state. The header records the rules' hash:
a log made with other rules is refused rather than replayed into nonsense. A save is the same
header plus the choices so far; loading replays them and checks the state hash.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from meeplang.dsl import folder as files
from meeplang.dsl.atomic import write_file
from meeplang.dsl.errors import LoadError, Pos, UsageError, pos_at_index
from meeplang.dsl.loader import games_dir
from meeplang.dsl.resolve import load_game

import meeplang

from . import state as st
from .engine import Engine

FORMAT = "meeplang-log/1"
SAVE_FORMAT = "meeplang-save/2"  # /1 held choice indexes only, unchecked until the end


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
    if g.stack:  # stacked variants: each by name, or as a file with its content hash
        out["stack"] = [{"name": ref} if kind == "name" else
                        {"path": ref, "sha256": file_digest(ref)} for kind, ref in g.stack]
    return out


# Characters JSON may leave raw that other readers take for the end of a line (U+0085, U+2028,
# U+2029: Python's str.splitlines, editors), and lone surrogates, which have no UTF-8: written as
# JSON escapes, so a record is one line however the log is read, and every log can be written.
_ESCAPED = re.compile("[\x85\u2028\u2029\ud800-\udfff]")


def _escape(match) -> str:
    return f"\\u{ord(match.group()):04x}"


def dumps_line(record: dict) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _ESCAPED.sub(_escape, text)


def log_lines(engine: Engine) -> list[str]:
    return [dumps_line(header(engine))] + [dumps_line(e) for e in engine.events]


def log_text(engine: Engine) -> str:
    """The text of the game's log file."""
    return "\n".join(log_lines(engine)) + "\n"


def write_log(path: str, engine: Engine) -> None:
    write_file(path, log_text(engine))


MAX_LOG_BYTES = 64 * 1024 * 1024  # a game stops at 20,000 decisions: its log is far smaller
MAX_JSON_DIGITS = 30  # a number in a log is a choice, a die or a score: never this long


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_DIGITS:
        raise ValueError(f"a number of {digits} digits")
    return int(text)


def _read_records(path: str, expected_format: str) -> list[tuple[int, dict]]:
    """(line number, record) of each non-blank line of a log or save file."""
    raw = files.read_bytes(Path(path), path, limit=MAX_LOG_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError("cannot read: not UTF-8 text", pos_at_index(path, raw, exc.start)) \
            from None
    return records_of_text(text, path, expected_format)


def records_of_text(text: str, path: str, expected_format: str) -> list[tuple[int, dict]]:
    """(line number, record) of each non-blank line; a line that is not a JSON object (or is
    absurd: huge numbers, deep nesting) is refused at its position. Lines end at "\\n" only (a
    raw U+2028 in an older log's text is no line break); a leading byte order mark is skipped,
    as it is in game files."""
    if text.startswith("\ufeff"):
        text = text[1:]
    records = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line, parse_int=_bounded_int)
        except json.JSONDecodeError as exc:
            raise LoadError(f"not JSON: {exc.msg}", Pos(path, n, exc.colno)) from None
        except ValueError as exc:
            raise LoadError(f"not a value a log holds: {exc}", Pos(path, n, 1)) from None
        except RecursionError:
            raise LoadError("not a value a log holds: nested too deeply", Pos(path, n, 1)) from None
        if not isinstance(rec, dict):
            raise LoadError("each line must be a JSON object", Pos(path, n, 1))
        records.append((n, rec))
    if not records or records[0][1].get("format") != expected_format:
        raise LoadError(f"not a Meeplang file of format {expected_format}", Pos(path, 1, 1))
    return records


# What each header field must be: a wrong type is refused at the header, not met deep inside.
_HEADER_TYPES = {"game": (str,), "variant": (str, type(None)), "players": (int,), "seed": (int,),
                 "options": (dict,), "rules": (str,)}


def _check_header(h: dict, where: Pos) -> None:
    for key, types in _HEADER_TYPES.items():
        if key not in h:
            if key in ("variant", "options"):
                continue
            raise LoadError(f"the header has no {key!r}", where)
        value = h[key]
        if not isinstance(value, types) or isinstance(value, bool):
            want = {str: "a text", int: "a whole number", dict: "a mapping"}[types[0]]
            raise LoadError(f"the header's {key!r} must be {want}, not {json.dumps(value)[:40]}",
                            where)
    for name, value in (h.get("options") or {}).items():
        if not isinstance(value, (str, int, bool)):
            raise LoadError(f"the header's option {name!r} must be a number, text or true/false, "
                            f"not {json.dumps(value)[:40]}", where)


def engine_from_header(h: dict, where: Pos, variant_files=(), game=None) -> Engine:
    """The game a header names, set up as it says. `game`: a game the caller holds (check --deep,
    which wrote the header), used when the header names it, rather than loading it again: each
    load is a new model with a new program (and its copies of the start state) kept for a while,
    so replaying a big game's logs grew a process by tens of MB each. Its rules hash is checked
    as a loaded game's."""
    _check_header(h, where)
    if game is None or h["game"] != game_ref(game) or h.get("variant") != game.variant or \
            "variant_file" in h or "stack" in h:
        game = _game_of(h, where, variant_files)
    if game.rules_hash != h["rules"]:
        raise LoadError(
            f"this was recorded with other rules for {h['game']}"
            f"{':' + h['variant'] if h.get('variant') else ''} (rules {h['rules']}, now "
            f"{game.rules_hash}): the game files changed since", where)
    try:
        return Engine(game, h["players"], h["seed"], h.get("options") or {})
    except UsageError as exc:  # players or options this game does not take
        raise LoadError(f"the header does not fit the game: {exc.message}", where) from None


def _game_of(h: dict, where: Pos, given=()):
    """The game a header names; a variant file must still be there with the same bytes, or be
    among `given` (`replay --variant-file`: the file moved), found by its content hash."""
    recorded = h.get("variant_file")
    stack = h.get("stack")
    if not recorded and not stack:
        try:
            return load_game(h["game"], h.get("variant"))
        except UsageError as exc:  # a game or variant not here: the header is what is wrong
            raise LoadError(f"this log's game is not here: {exc.message}", where) from None
    moved = {file_digest(str(p)): str(p) for p in given}
    if recorded:
        return load_game(_recorded_file(recorded, moved, where))
    if not isinstance(stack, list) or not all(isinstance(v, dict) for v in stack):
        raise LoadError("the header's stack must be a list of {name} or {path, sha256}", where)
    parts = tuple(v["name"] if isinstance(v.get("name"), str) else _recorded_file(v, moved, where)
                  for v in stack)
    try:
        return load_game(h["game"], parts)
    except UsageError as exc:
        raise LoadError(f"this log's game is not here: {exc.message}", where) from None


def _recorded_file(recorded, moved: dict, where: Pos) -> str:
    """The path of a variant file a header records: where it was, if it is still there with the
    same bytes, else the file given with --variant-file that has those bytes."""
    if not isinstance(recorded, dict) or not isinstance(recorded.get("path"), str):
        raise LoadError("the header's variant_file must be {path, sha256}", where)
    path, digest = recorded["path"], recorded.get("sha256")
    if digest in moved:
        return moved[digest]
    if not files.is_file(Path(path)):
        raise LoadError(f"this was recorded with the variant file {path}, which is not there "
                        f"any more; if it moved, give its new place: meeplang replay LOG "
                        f"--variant-file NEW_PATH", where)
    if file_digest(path) != digest:
        hint = (f" (--variant-file {', '.join(moved.values())} has other contents too)"
                if moved else "")
        raise LoadError(f"this was recorded with another version of {path} (the file changed "
                        f"since){hint}", where)
    return path


def replay(path: str, watch=None, variant_files=()) -> Engine:
    """Re-execute a log file and check every event and the final state against it;
    `variant_files`: where variant files the log names are now, if they moved (the same bytes)."""
    numbered = _read_records(path, FORMAT)
    return replay_records([r for _, r in numbered], path, [n for n, _ in numbered], watch,
                          variant_files)


def read_log(path: str) -> list[tuple[int, dict]]:
    """(line number, record) of each line of a log file, the header first; refused at its
    position when it is not a log."""
    return _read_records(path, FORMAT)


def replay_records(records: list[dict], path: str = "<log>",
                   lines: list[int] | None = None, watch=None, variant_files=(),
                   game=None) -> Engine:
    """Re-execute a log (header + events) and compare each produced event with the logged one;
    `lines` are the file lines of the records (by default one record a line). `watch(engine,
    decision, choice)`, if given, is called at each decision before its choice is made (the
    replay viewer reads the game there); what it saw stands only if the replay then succeeds."""
    lines = lines or list(range(1, len(records) + 1))
    engine = engine_from_header(records[0], Pos(path, lines[0], 1), variant_files, game)
    choices = [(n, r.get("choice")) for n, r in zip(lines[1:], records[1:])
               if r.get("event") == "decision"]
    logged = [dumps_line(r) for r in records[1:]]
    d = engine.start()
    try:
        for n, i in choices:
            if d is None:
                break
            if type(i) is not int or not 0 <= i < len(d.options):
                raise LoadError(f"choice {json.dumps(i)[:40]} is not one of the options here "
                                f"(0 to {len(d.options) - 1}: {', '.join(d.labels)[:200]})",
                                Pos(path, n, 1))
            if watch is not None:
                watch(engine, d, i)
            d = engine.choose(i)
    finally:
        # report the first event that differs, wherever the replay stopped
        produced = [dumps_line(e) for e in engine.events]
        for n, a, b in zip(lines[1:], produced, logged):
            if a != b:
                raise LoadError(f"replay differs from the log here: log says {_cut(b)}, "
                                f"replay gives {_cut(a)}", Pos(path, n, 1))
    if d is not None:
        raise LoadError("the log ends before the game does", Pos(path, lines[-1], 1))
    if len(produced) < len(logged):
        extra = len(logged) - len(produced)
        raise LoadError(f"the game is over, but the log goes on for {extra} more "
                        f"line{'s' if extra > 1 else ''}", Pos(path, lines[len(produced) + 1], 1))
    if len(produced) != len(logged):
        raise LoadError(f"replay gives {len(produced)} events, the log has {len(logged)}",
                        Pos(path, lines[-1], 1))
    return engine


MAX_SHOWN = 300  # characters of a log line an error quotes (a line may be megabytes long)


def _cut(line: str) -> str:
    if len(line) <= MAX_SHOWN:
        return line
    return f"{line[:MAX_SHOWN]}… ({len(line):,} characters)"


def save(engine: Engine) -> list[dict]:
    """A game in progress as data: the header (format meeplang-save/2), every event so far as
    its log has it, and a last line with the number of choices and the state's hash."""
    if not engine.record:
        raise UsageError("only a game that records its events can be saved")
    return ([{**header(engine), "format": SAVE_FORMAT}] + list(engine.events) +
            [{"event": "saved", "choices": len(engine.choices),
              "state": st.state_hash(engine.state)}])


def save_file(path: str, engine: Engine) -> None:
    write_file(path, "".join(dumps_line(r) + "\n" for r in save(engine)))


def load(records: list[dict], path: str = "<save>", lines: list[int] | None = None,
         game=None) -> Engine:
    """Continue a saved game, checked as a log is: each choice is checked against the decision
    the game asks before it is made (the same player, kind, index and option), every event
    against the save's, and the state at the end against the saved hash; anything else is
    refused at its line. A save's data only picks among the options the rules offer."""
    lines = lines or list(range(1, len(records) + 1))
    if not records or records[0].get("format") != SAVE_FORMAT:
        raise LoadError("not a Meeplang save", Pos(path, lines[0] if lines else 1, 1))
    engine = engine_from_header(records[0], Pos(path, lines[0], 1), game=game)
    last = records[-1] if len(records) > 1 else {}
    if last.get("event") != "saved":
        raise LoadError("the save is cut short: its last line must be the saved state "
                        '({"event": "saved", ...})', Pos(path, lines[-1], 1))
    logged = records[1:-1]
    at = lines[1:-1]
    checked = 0  # the game's events compared with the save's so far

    def compare(upto: int) -> None:
        nonlocal checked
        produced = engine.events
        while checked < min(upto, len(produced)):
            if checked >= len(logged):
                raise LoadError(f"the save ends here, but the game goes on: "
                                f"{dumps_line(produced[checked])[:200]}", Pos(path, lines[-1], 1))
            a, b = dumps_line(produced[checked]), dumps_line(logged[checked])
            if a != b:
                raise LoadError(f"the save differs from the game here: the save says {b[:200]}, "
                                f"the game gives {a[:200]}", Pos(path, at[checked], 1))
            checked += 1

    d = engine.start()
    for k, rec in enumerate(logged):
        if rec.get("event") != "decision":
            continue
        compare(k)  # what the game did before this decision is what the save says
        where = Pos(path, at[k], 1)
        if d is None:
            raise LoadError("the game is over here, but the save goes on", where)
        made = len(engine.events)
        if made > k:  # the game did more before this decision than the save says
            raise LoadError(f"the save differs from the game here: the save says "
                            f"{dumps_line(rec)[:200]}, the game gives "
                            f"{dumps_line(engine.events[k])[:200]}", where)
        if made < k:  # the save says more happened before it than the game does
            raise LoadError(f"the save differs from the game here: the save says "
                            f"{dumps_line(logged[made])[:200]}, the game asks player "
                            f"{d.player} to choose ({', '.join(d.labels)[:200]})",
                            Pos(path, at[made], 1))
        i = rec.get("choice")
        if type(i) is not int or not 0 <= i < len(d.options):
            raise LoadError(f"choice {json.dumps(i)[:40]} is not one of the options here "
                            f"(0 to {len(d.options) - 1}: {', '.join(d.labels)[:200]})", where)
        expected = dumps_line(engine.decision_event(d, i))
        if dumps_line(rec) != expected:  # checked before the choice runs anything
            raise LoadError(f"the save's choice is not the game's here: the save says "
                            f"{dumps_line(rec)[:200]}, the game offers {expected[:200]}", where)
        d = engine.choose(i)
    compare(len(engine.events))
    end = Pos(path, lines[-1], 1)
    if checked < len(logged):
        raise LoadError(f"the game asks player {d.player} to choose here, but the save goes on"
                        if d is not None else "the game is over here, but the save goes on",
                        Pos(path, at[checked], 1))
    if last.get("choices") != len(engine.choices) or \
            last.get("state") != st.state_hash(engine.state):
        raise LoadError("the saved state does not match the replayed game", end)
    return engine


def load_file(path: str) -> Engine:
    numbered = _read_records(path, SAVE_FORMAT)
    return load([r for _, r in numbered], path, [n for n, _ in numbered])
