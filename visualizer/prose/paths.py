"""A change's path (`actions.power_plant.limit.times`, from `meeplang.dsl.diff`) in a reader's language:
each name by the game's term, each key of the language by its word (`en.py`/`fr.py` KEYS):
`actions › Centrale › limite › fois`."""
from __future__ import annotations

from . import en, fr

KEYS = {"en": en.KEYS, "fr": fr.KEYS}
SEPARATOR = " › "


def path_label(game, path: str, lang: str, entry: bool = True) -> str:
    """With `entry`, a full path: the section's word, the entry's term, then each key's word;
    else a path inside an entry (`limit.times`): each key's word. A name the language has no
    word for (a table's, a table's key) is said by its term, or as it is."""
    words, terms = KEYS[lang], game.terms or {}
    parts = path.split(".")

    def say(part: str, name_first: bool) -> str:
        if part in terms and (name_first or part not in words):
            return game.term(part, lang)
        return words.get(part, part)

    return SEPARATOR.join(say(part, entry and i == 1) for i, part in enumerate(parts))
