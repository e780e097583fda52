"""Finding and reading game folders: the main file, its includes, and variant overlays.

A game is a folder with `game.yaml` (or any game file given by path); variants live in
`variants/<name>.yaml` (or anywhere, given by path) and say `extends: <game>`. A variant is an
overlay: maps merge key by key, a `null` value removes a key, lists replace the base list. It
changes only entries the game has (a misspelt name is an error with "did you mean"); new entries
go under `add:`. Includes stay inside the game folder.
"""
from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
from pathlib import Path

import attrs

from . import folder as files
from .errors import LoadError, Pos, UsageError, pos_at_index, remember_source
from .schema import validate
from .yamlpos import MAX_FILE_BYTES, YList, YMap, YMap_at, YStr, load_yaml_text, plain

GAME_FILE = "game.yaml"


def games_dir() -> Path:
    """The bundled games: next to this package (./games in a checkout, meeplang/games when
    installed, where this package is meeplang/dsl); the folder
    `$MEEPLANG_GAMES_DIR` instead when set (the mutation harness points the tests at mutated copies)."""
    given = os.environ.get("MEEPLANG_GAMES_DIR")
    if given:
        return Path(given)
    return Path(__file__).resolve().parent.parent / "games"


def bundled_games() -> list[str]:
    root = games_dir()
    return sorted(p.name for p in root.iterdir() if files.is_file(p / GAME_FILE))


def variant_names(folder: Path) -> list[str]:
    return files.yaml_names(folder / "variants")


@attrs.frozen
class Source:
    """A loaded (merged, validated) game document before resolution."""

    doc: YMap
    folder: Path
    variant: str | None
    files: tuple
    rules_hash: str
    located: "Located"
    sample: tuple = ()  # ((file shown, (table or table.field, ...)), ...): declared sample data


def display_path(path: Path) -> str:
    """Bundled files show as games/<game>/..., others relative to the current folder if inside it.
    A file of the current folder's own `games/` (a user's copy of a bundled game) shows as
    ./games/...: `games/...` names the bundled file, and file_of must find the copy."""
    resolved = path.resolve()
    try:
        return "games/" + str(resolved.relative_to(games_dir().resolve()))
    except ValueError:
        pass
    try:
        shown = str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
    return "./" + shown if shown.startswith("games/") else shown


def file_of(shown: str) -> Path:
    """The file a position's path names: the inverse of display_path."""
    if shown.startswith("games/") and files.exists(games_dir() / shown[len("games/"):]):
        return (games_dir() / shown[len("games/"):]).resolve()
    return Path(shown).resolve()


# Each file is at most 2 MB (MAX_FILE_BYTES); includes and variants must not multiply that: 20
# includes of 1.9 MB took 108 s and 620 MB to check. So a file includes at most MAX_INCLUDES
# files, and the files one load reads (the game file, its includes, the variant files and
# theirs) are at most MAX_GAME_BYTES together.
MAX_INCLUDES = 32
MAX_GAME_BYTES = 2 * MAX_FILE_BYTES


class ReadBudget:
    """The bytes one load may still read."""

    def __init__(self, most: int = MAX_GAME_BYTES):
        self.most, self.read = most, 0

    def take(self, size: int, pos: Pos) -> None:
        self.read += size
        if self.read > self.most:
            raise LoadError(f"the game's files together (the game file, its includes and "
                            f"variants) are larger than {self.most // (1024 * 1024)} MB", pos)


def read_yaml_file(path: Path, root: Path | None = None, budget: ReadBudget | None = None,
                   at: Pos | None = None):
    """One YAML file of a game, read through dsl/folder.py (inside `root` when given), or an
    editor's unsaved buffer of it (meeplang lsp); its bytes are taken from `budget` (refused at
    `at`, else at the file) before they are parsed."""
    shown = display_path(path)
    buffer = _UNSAVED.get(path.resolve())
    if buffer is not None:
        raw = buffer.encode("utf-8", "surrogatepass")
    else:
        raw = files.read_bytes(path, shown, root)
    if budget is not None:
        budget.take(len(raw), at or Pos(shown, 1, 1))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError("file is not valid UTF-8", pos_at_index(shown, raw, exc.start)) from None
    if "\x00" in text:
        raise LoadError("file contains a NUL byte", pos_at_index(shown, text, text.index("\x00")))
    key = (shown, text)
    doc = _READ.get(key)
    if doc is None:
        doc = load_yaml_text(text, shown)
        if not isinstance(doc, YMap):
            pos = getattr(doc, "pos", Pos(shown, 1, 1))
            raise LoadError("a game file must be a YAML mapping (key: value lines)", pos)
        if len(_READ) >= _READ_MAX:
            _READ.clear()
        _READ[key] = doc
    else:
        remember_source(shown, text)
    return copy_tree(doc)  # the loader merges includes and patches into what it is given


# An editor's unsaved buffers (meeplang lsp), read in place of the files on disk: path -> text.
_UNSAVED: dict[Path, str] = {}


@contextlib.contextmanager
def unsaved(buffers: dict):
    """Read these files' texts instead of their bytes on disk while the block runs. Loads from
    buffers must bypass the cache of checked games, which keys on the bytes on disk."""
    _UNSAVED.update({Path(path).resolve(): text for path, text in buffers.items()})
    try:
        yield
    finally:
        _UNSAVED.clear()


# A game and each of its variants read the same files: each text is read as YAML once per
# process (by its bytes, so an edited file is read again), and every reader gets its own copy.
_READ: dict = {}
_READ_MAX = 64


def copy_tree(node):
    """A copy of a YAML tree's mappings and lists, with their positions; scalars are shared."""
    if isinstance(node, YMap):
        out = YMap()
        for key, value in node.items():
            out[key] = copy_tree(value) if isinstance(value, (YMap, YList)) else value
        out.pos, out.key_pos, out.value_pos = node.pos, dict(node.key_pos), dict(node.value_pos)
        return out
    if isinstance(node, YList):
        out = YList(copy_tree(v) if isinstance(v, (YMap, YList)) else v for v in node)
        out.pos, out.item_pos = node.pos, list(node.item_pos)
        return out
    return node


@attrs.frozen
class Located:
    """What a target names: the game's main file (in its folder), and the variant to overlay,
    by name (`variants/<name>.yaml`) or as a file given by path."""

    folder: Path
    game_file: Path
    variant: str | None
    variant_file: Path | None
    # variants stacked on the first (`--variant A --variant B`, `GAME:A+B`): their files, in order
    stack: tuple = ()

    @property
    def files(self) -> tuple:
        """Every variant file applied, in order (the first variant's, then the stacked ones)."""
        first = (self.variant_file,) if self.variant_file is not None else ()
        return first + self.stack

    @property
    def is_folder_game(self) -> bool:
        """The folder's own game.yaml (whose variants/ belong to it), not a standalone file."""
        return self.game_file.name == GAME_FILE


def is_yaml_path(text: str | None) -> bool:
    return bool(text) and Path(str(text)).suffix in (".yaml", ".yml")


def locate(target: str, variant=None) -> Located:
    """`pig`, `pig:variant`, a folder, a game file or a variant file; `variant` may also be a
    variant file's path (`play pig --variant fast.yaml`), several variants to stack in order
    (a list or tuple of names and paths), or names joined by `+` (`new-eden:solo+house`)."""
    name, _, named = target.partition(":")
    stack = _stack_parts(named, variant)
    if len(stack) > 1:
        return _stacked(name, stack)
    if isinstance(variant, (list, tuple)):
        variant = variant[0] if variant else None
    if is_yaml_path(variant):
        return _variant_file_for(name, Path(str(variant)))
    variant = variant or named or None
    path = Path(name)
    if is_yaml_path(name) and files.present(path) and not files.is_dir(path):
        doc = read_yaml_file(path, path.parent)  # a link out of its folder is not followed
        if "extends" in doc:
            base = _resolve_extends(doc, path.parent)
            return Located(base.parent, base, str(doc.get("variant", path.stem)), path)
        return Located(path.parent, path, variant, None)
    if files.is_dir(path) and files.present(path / GAME_FILE):
        return Located(path, path / GAME_FILE, variant, None)
    bundled = games_dir() / name
    if name and "/" not in name and files.is_file(bundled / GAME_FILE):
        return Located(bundled, bundled / GAME_FILE, variant, None)
    known = ", ".join(bundled_games())
    raise UsageError(f"no game named {name!r} (bundled games: {known}; or give a folder or a .yaml file)")


def _stack_parts(named: str, variant) -> list[str]:
    """The variants a target and `--variant` name, in order: `GAME:A+B`, then each --variant."""
    parts = [p for p in named.split("+") if p] if "+" in named else ([named] if named else [])
    given = list(variant) if isinstance(variant, (list, tuple)) else ([variant] if variant else [])
    for v in given:
        parts += [p for p in str(v).split("+") if p] if not is_yaml_path(v) else [str(v)]
    return parts


def _stacked(name: str, parts: list[str]) -> Located:
    """Several variants of one game applied in order: each a variant name of the game's
    `variants/` folder or a variant file of the game."""
    game = locate(name)
    if not game.is_folder_game and game.variant_file is not None:
        raise UsageError(f"{name} is a variant file: stack it with --variant, after its game")
    paths = []
    for part in parts:
        if is_yaml_path(part):
            paths.append(_variant_file_for(name, Path(part)).variant_file)
            continue
        path = game.folder / "variants" / f"{part}.yaml"
        if not game.is_folder_game or not files.is_file(path):
            known = ", ".join(variant_names(game.folder) if game.is_folder_game else []) or "none"
            raise UsageError(f"game {game.folder.name!r} has no variant {part!r} (variants: {known})")
        paths.append(path)
    if len({p.resolve() for p in paths}) < len(paths):
        raise UsageError("the same variant is given twice: " + ", ".join(parts))
    label = "+".join(_variant_label(p) for p in paths)
    return Located(game.folder, game.game_file, label, paths[0], tuple(paths[1:]))


def _variant_label(path: Path) -> str:
    doc = read_yaml_file(path, path.parent)
    return str(doc.get("variant", path.stem))


def _variant_file_for(name: str, path: Path) -> Located:
    """`GAME --variant FILE`: the file must be a variant of that game."""
    if not files.is_file(path):
        raise UsageError(f"--variant {path}: no such file")
    found = locate(str(path))
    game = locate(name)
    if found.variant_file is None or found.game_file.resolve() != game.game_file.resolve():
        raise UsageError(f"--variant {path}: not a variant of {name} (it needs `extends: {name}`)")
    return found


def _resolve_extends(doc: YMap, here: Path) -> Path:
    """The main file of the game a variant extends: a bundled game's name, a folder, or a file."""
    pos = doc.pos_of("extends")
    if not isinstance(doc["extends"], str):
        raise LoadError("extends: names one game or GAME:VARIANT; to apply several variants, "
                        "stack them: --variant A --variant B", pos)
    base = str(doc["extends"]).partition(":")[0]
    candidate = (here / base)
    if files.is_dir(candidate) and files.is_file(candidate / GAME_FILE):
        return candidate / GAME_FILE
    if files.is_file(candidate):
        return candidate
    for up in (here, here.parent):
        if up.name == base and files.is_file(up / GAME_FILE):
            return up / GAME_FILE
    bundled = games_dir() / base
    if files.is_file(bundled / GAME_FILE):
        return bundled / GAME_FILE
    raise LoadError(f"extends: no game {base!r} found", pos)


def _check_extends_here(overlay: YMap, path: Path, folder: Path, game: str) -> None:
    """A variant in a game's `variants/` folder extends that game (by its name, its folder's name
    or a path to it): `extends: nosuchgame` there is a mistake, not something to ignore."""
    base = str(overlay["extends"]).partition(":")[0]
    if base in (game, folder.resolve().name):
        return
    try:
        found = _resolve_extends(overlay, path.parent).resolve().parent == folder.resolve()
    except LoadError:
        found = False
    if not found:
        raise LoadError(f"extends: {base!r} is not this game: a variant in the variants/ folder "
                        f"of {game!r} extends {game!r}", overlay.pos_of("extends"))


def load_source(target: str, variant: str | None = None) -> Source:
    found = locate(target, variant)
    folder, variant, variant_file = found.folder, found.variant, found.variant_file
    read = [found.game_file]
    sample: list = []
    budget = ReadBudget()
    doc = _with_includes(read_yaml_file(found.game_file, folder, budget), folder, sample, budget)
    _note_sample(doc, sample)
    if variant and variant_file is None:
        variant_file = folder / "variants" / f"{variant}.yaml"
        if not found.is_folder_game or not files.present(variant_file):
            known = ", ".join(variant_names(folder) if found.is_folder_game else []) or "none"
            raise UsageError(f"game {folder.name!r} has no variant {variant!r} (variants: {known})")
    if found.stack:
        variant_file = found.variant_file
    if variant_file is not None:
        applied: set = set()
        changed: dict = {}  # value path -> (where, file): what each independent file changes
        for first in (variant_file,) + found.stack:
            chain = _variant_chain(folder, first, sample, budget)
            parents = {path.resolve() for path, _ in chain}  # what this file builds on
            earlier = {k: at for k, (at, source) in changed.items() if source not in parents}
            for path, overlay in chain:
                if path.resolve() in applied:
                    continue  # a parent variant two stacked files share is applied once
                applied.add(path.resolve())
                if path.parent == folder / "variants" and "extends" in overlay:
                    _check_extends_here(overlay, path, folder, str(doc.get("game", folder.name)))
                read.append(path)
                for value_path, where in changed_paths(overlay):
                    _check_conflict(value_path, where, earlier)
                    changed.setdefault(value_path, (where, path.resolve()))
                doc = apply_overlay(doc, overlay)
    validate(doc)  # the merged game: an overlay may give only what it changes
    digest = hashlib.sha256(json.dumps(_canonical(plain(doc)), sort_keys=True).encode()
                            ).hexdigest()[:16]
    return Source(doc, folder, variant, tuple(str(f) for f in read), digest, found,
                  tuple(sample))


# Keys of a variant file that name or describe it rather than change a rule.
_NOT_CHANGES = ("variant", "extends", "title", "summary", "meeplang", "sample")


def changed_paths(overlay: YMap, prefix: str = ""):
    """(value path, Pos) of every value a variant file sets or removes: `actions.power_plant.
    limit.times`; a new entry under `add:` as the entry it adds; a flow patch as
    `flow_patches.STEP`."""
    for key, value in overlay.items():
        if not prefix and key in _NOT_CHANGES:
            continue
        if not prefix and key == "add" and isinstance(value, YMap):
            for section, entries in value.items():
                if isinstance(entries, YMap):
                    for name in entries:
                        yield f"{section}.{name}", entries.key_pos.get(name, entries.pos)
            continue
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, YMap) and value:
            yield from changed_paths(value, path)
        else:
            yield path, overlay.value_pos.get(key) or overlay.key_pos.get(key, overlay.pos)


def _check_conflict(path: str, where: Pos, changed: dict) -> None:
    """Two stacked variants may not change the same value (or one a part of what the other
    replaces whole): which should win is the author's choice, never made silently."""
    for other, at in changed.items():
        if other == path or other.startswith(path + ".") or path.startswith(other + "."):
            raise LoadError(f"conflict: {path} is changed here and by {at.path}:{at.line} "
                            f"({other}); stacked variants must change different values (merge "
                            f"the two changes into one file)", where)


def _note_sample(doc: YMap, out: list) -> None:
    """A file's `sample:` (true: every table it gives; or the names of its sample tables and
    fields), kept so that what is measured on sample data can say so (simulate)."""
    flag = doc.get("sample")
    if flag is None or flag is False:
        return
    if flag is True:
        names = tuple(str(k) for k in (doc.get("tables") or {}))
        names += tuple(str(k) for k in (doc.get("items") or {}))
    else:
        names = tuple(str(n) for n in flag) if isinstance(flag, list) else (str(flag),)
    if names:
        out.append((doc.pos.path, names))


def variant_files(folder: Path, variant: str) -> list:
    """A variant's overlay documents, parent variants first (without merging them)."""
    return [doc for _, doc in _variant_chain(folder, folder / "variants" / f"{variant}.yaml")]


def _canonical(value):
    """Keys as text (YAML allows 1 and "x" as keys of one mapping; JSON sorting does not)."""
    if isinstance(value, dict):
        return {f"{type(k).__name__}:{k}": _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def _variant_chain(folder: Path, variant_file: Path, sample: list | None = None,
                   budget: ReadBudget | None = None) -> list:
    """The overlays to apply, parent variants first (`extends: game:parent`)."""
    chain, seen = [], set()
    path = variant_file
    while path is not None:
        if path.resolve() in seen:
            raise LoadError("variants extend each other in a cycle", Pos(str(path), 1, 1))
        seen.add(path.resolve())
        in_folder = path.parent == folder / "variants"  # else a file given by path
        overlay = _with_includes(read_yaml_file(path, folder if in_folder else path.parent,
                                                budget), folder, sample, budget)
        if sample is not None:
            _note_sample(overlay, sample)
        chain.append((path, overlay))
        parent = str(overlay.get("extends", "")).partition(":")[2]
        if parent:
            candidate = folder / "variants" / f"{parent}.yaml"
            if not files.present(candidate):
                raise LoadError(f"extends: {folder.name} has no variant {parent!r}",
                                overlay.pos_of("extends"))
            path = candidate
        else:
            path = None
    return list(reversed(chain))


# The sections whose keys are names the game gives (actions, counters, ...): a variant may change
# or remove only names the game has, and says `add:` for new ones, so a typo is an error.
NAMED_SECTIONS = ("options", "terms", "tables", "counters", "zones", "items", "actions",
                  "triggers", "formulas", "invariants", "graphs")


def apply_overlay(doc: YMap, overlay: YMap) -> YMap:
    patches = overlay.get("flow_patches")
    overlay = overlay_merge(YMap_at(overlay.pos), overlay)  # a copy we may edit
    overlay.pop("flow_patches", None)
    additions = overlay.pop("add", None) or YMap_at(overlay.pos)
    _check_changes(doc, overlay, "")
    _check_additions(doc, additions)
    merged = overlay_merge(overlay_merge(doc, overlay), additions)
    for key in ("extends", "variant"):
        merged.pop(key, None)
    if patches:
        merged["flow"] = _patch_flow(merged.get("flow") or YList(), patches)
    return merged


def _check_changes(base, over: YMap, where: str) -> None:
    """Everything a variant changes or removes must be in the game: `KEY: null` for a KEY the game
    does not have (a typo, or a rule renamed since) is an error, and so is any entry of a named
    section (or key of a table) that the game does not have, rather than a silent addition."""
    for key, value in over.items():
        path = f"{where}.{key}" if where else str(key)
        present = isinstance(base, YMap) and key in base
        pos = over.key_pos.get(key, over.pos)
        if value is None and not present:
            raise LoadError(f"`{key}: null` removes nothing: the game has no {path}"
                            f"{_did_you_mean(key, base)}", pos)
        if not present and _names_entry(path):
            raise LoadError(f"the game has no {path} to change{_did_you_mean(key, base)} (a new "
                            f"entry goes under `add:`)", pos)
        if present and isinstance(value, YMap):
            _check_changes(base[key], value, path)


def _names_entry(path: str) -> bool:
    """Is this dotted path an entry of a named section, or a key inside a table?"""
    section, _, rest = path.partition(".")
    return section in NAMED_SECTIONS and bool(rest) and ("." not in rest or section == "tables")


def _check_additions(base: YMap, additions: YMap) -> None:
    """`add: {actions: {new_action: ...}}` adds entries the game does not have yet."""
    if not isinstance(additions, YMap):
        raise LoadError("add: expects sections of new entries (actions:, counters:, ...)",
                        getattr(additions, "pos", base.pos))
    for section, entries in additions.items():
        pos = additions.key_pos.get(section, additions.pos)
        if section not in NAMED_SECTIONS:
            raise LoadError(f"add: {section!r} is not a section of named entries; expected one "
                            f"of: {', '.join(NAMED_SECTIONS)}", pos)
        if not isinstance(entries, YMap):
            raise LoadError(f"add.{section} expects new entries (name: definition)", pos)
        existing = base.get(section) or {}
        for name in entries:
            if name in existing:
                raise LoadError(f"add.{section}.{name}: the game already has {section}.{name}; "
                                f"change it outside `add:`", entries.key_pos.get(name, pos))


def _did_you_mean(key, base) -> str:
    known = [str(k) for k in base] if isinstance(base, YMap) else []
    close = difflib.get_close_matches(str(key), known, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _named_steps(steps, out):
    for i, step in enumerate(steps):
        if isinstance(step, YMap):
            if "name" in step:
                out.setdefault(str(step["name"]), []).append((steps, i))
            for key in ("steps", "else"):
                if isinstance(step.get(key), YList):
                    _named_steps(step[key], out)
    return out


def _patch_flow(flow: YList, patches: YMap) -> YList:
    """`flow_patches: {STEP_NAME: {before: [...], after: [...], replace: [...], KEY: VALUE}}`.
    Each patch finds its step in the flow as the patches before it left it (their `before:`
    steps move the steps after them)."""
    for name, patch in patches.items():
        named = _named_steps(flow, {})
        pos = patches.key_pos.get(name, patches.pos)
        where = named.get(str(name))
        if not where:
            known = ", ".join(sorted(named)) or "none"
            raise LoadError(f"flow_patches: no flow step named {name!r} (named steps: {known})",
                            pos)
        if len(where) > 1:
            raise LoadError(f"flow_patches: several flow steps are named {name!r}", pos)
        steps, i = where[0]
        if not isinstance(patch, YMap):
            raise LoadError("a flow patch is a mapping (keys to merge, or before/after/replace)",
                            pos)
        step = steps[i]
        rest = YMap_at(patch.pos)
        for key, value in patch.items():
            if key not in ("before", "after", "replace"):
                rest[key] = value
                rest.key_pos[key], rest.value_pos[key] = patch.key_pos[key], patch.pos_of(key)
        replacement = patch.get("replace")
        new = list(replacement) if isinstance(replacement, YList) else [overlay_merge(step, rest)]
        before, after = patch.get("before") or YList(), patch.get("after") or YList()
        positions = (list(getattr(before, "item_pos", [])) + [steps.item_pos[i]] * len(new) +
                     list(getattr(after, "item_pos", [])))
        before, after = list(before), list(after)
        steps[i:i + 1] = before + new + after
        steps.item_pos[i:i + 1] = positions
    return flow


def _with_includes(doc: YMap, folder: Path, sample: list | None = None,
                   budget: ReadBudget | None = None) -> YMap:
    includes = doc.pop("include", None)
    if includes is None:
        return doc
    if not isinstance(includes, YList):
        raise LoadError("include: expects a list of file names", doc.pos)
    if len(includes) > MAX_INCLUDES:
        raise LoadError(f"include: at most {MAX_INCLUDES} files", includes.pos_of(MAX_INCLUDES))
    root = folder.resolve()
    for i, name in enumerate(includes):
        pos = includes.pos_of(i)
        if not isinstance(name, str) or "\x00" in name:  # a NUL cannot be in a file name
            raise LoadError("include: each entry must be a file name", pos)
        path = (folder / str(name)).resolve()
        if root not in path.parents:
            raise LoadError(f"include {str(name)!r} leaves the game folder", pos)
        if not files.exists(path):
            raise LoadError(f"include {str(name)!r}: no such file in the game folder", pos)
        part = read_yaml_file(path, folder, budget, pos)
        if "include" in part:
            raise LoadError("included files cannot include further files", part.key_pos["include"])
        if sample is not None:
            _note_sample(part, sample)
        for key, value in part.items():
            if key == "sample":  # says which data of that file is sample: not merged
                continue
            if key not in doc:
                doc[key] = value
                doc.key_pos[key], doc.value_pos[key] = part.key_pos[key], part.value_pos[key]
            elif isinstance(doc[key], YMap) and isinstance(value, YMap):
                for sub, sub_value in value.items():
                    if sub in doc[key]:
                        raise LoadError(f"{key}.{sub} is defined both here and in "
                                        f"{doc[key].key_pos[sub]}", value.key_pos[sub])
                    doc[key][sub] = sub_value
                    doc[key].key_pos[sub], doc[key].value_pos[sub] = (value.key_pos[sub],
                                                                      value.value_pos[sub])
            else:
                raise LoadError(f"{key!r} is defined both here and in the main file",
                                part.key_pos[key])
    return doc


def overlay_merge(base, over):
    """Variant overlay: maps merge, null deletes, everything else replaces."""
    if not (isinstance(base, YMap) and isinstance(over, YMap)):
        return over
    out = YMap_at(base.pos)
    for key, value in base.items():
        out[key] = value
        out.key_pos[key], out.value_pos[key] = base.key_pos.get(key, base.pos), base.pos_of(key)
    for key, value in over.items():
        if value is None and key in out:
            del out[key]
            continue
        out[key] = overlay_merge(out[key], value) if key in out else value
        out.key_pos[key], out.value_pos[key] = over.key_pos.get(key, over.pos), over.pos_of(key)
    return out


def is_rule_string(value) -> bool:
    return isinstance(value, (YStr, str))
