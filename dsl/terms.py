"""The term table: the rulebook's word for each name, in every language the game is written in.

A term entry maps languages to texts (`coins: {en: coins, fr: pièces}`); a key `LANG_grammar`
gives what a sentence in that language needs to agree with the word (`fr_grammar: f pl`: feminine,
plural; the default is masculine singular), read by the prose templates (`meeplang.visualizer.prose`);
a key `LANG_plural` gives the plural of a singular term where the language's rule does not
(`en_plural: dice`).

The checker warns, at the term, about an entry missing one of the game's languages (those its
term table uses), and, once a game has terms, at the declaration, about an action, phase, counter,
zone, item, table, option, formula or trigger without one: explanations and diagrams would show it as its
key, in no language. Likewise, at the first rule that reads it, about a field the rules read
(`j.cost`, `c.owner`: an item's field, a table row's key, a built-in field) without a term, since
the sentences say `x.cost` as "the cost of x" in every language; and about an option's `doc:`
without one of those languages.

A field whose name is also an action's, a trigger's or a phase's (`t.dive`, how many tokens a
site shows, beside the action `dive`) takes a term of its own under `.NAME` (`.dive`): the
sentences say a field read by it, and the checker warns about such a field without one.
"""
from __future__ import annotations

from .errors import Warning_

GRAMMAR_SUFFIX = "_grammar"
PLURAL_SUFFIX = "_plural"
FIELD_PREFIX = "."

# the sections whose names the rules show, with the word used in the warning
NAMED = (("actions", "action"), ("counters", "counter"), ("zones", "zone"), ("items", "item"),
         ("tables", "table"), ("options", "option"), ("formulas", "formula"),
         ("triggers", "trigger"))


def is_language(key: str) -> bool:
    """A term entry's key that holds a text (not a `LANG_grammar` note or a `LANG_plural`)."""
    return not key.endswith((GRAMMAR_SUFFIX, PLURAL_SUFFIX))


def languages(terms: dict) -> list[str]:
    """Every language the game's term table uses, English first."""
    found = {lang for entry in terms.values() for lang in entry if is_language(lang)}
    return sorted(found, key=lambda lang: (lang != "en", lang))


def grammar(terms: dict, key: str, lang: str) -> frozenset[str]:
    """The grammar notes of a term in a language: {"f", "pl"} for `fr_grammar: f pl`."""
    return frozenset((terms.get(key) or {}).get(lang + GRAMMAR_SUFFIX, "").split())


def is_condition(terms: dict, key: str) -> bool:
    """Whether a formula's term names a condition (`pred` in any language's grammar notes): what
    the formula is does not change with the language it is said in."""
    entry = terms.get(key) or {}
    return any("pred" in str(v).split() for k, v in entry.items() if k.endswith(GRAMMAR_SUFFIX))


def plural(terms: dict, key: str, lang: str) -> str | None:
    """The plural a term entry gives in a language (`en_plural: dice`), if any."""
    return (terms.get(key) or {}).get(lang + PLURAL_SUFFIX)


def field_key(terms: dict, name: str) -> str:
    """The term key of a field read as `x.NAME`: `.NAME` if the game gives the field a term of
    its own, else NAME."""
    own = FIELD_PREFIX + name
    return own if own in terms else name


def term_warnings(terms: dict, term_pos: dict, named: dict, phases: dict,
                  fields: dict) -> list[Warning_]:
    """Warnings for missing terms. `term_pos`: term key -> position; `named`: section -> {name:
    position} of the declarations (see NAMED); `phases`: phase name -> position; `fields`: each
    name the rules read as `x.name` -> where it is first read (a declared counter or zone read
    as `p.coins` is warned at its declaration instead)."""
    langs = languages(terms)
    out = []
    for key, entry in terms.items():
        missing = [lang for lang in langs if not entry.get(lang)]
        if missing:
            out.append(Warning_(f"term {key!r} has no {', '.join(missing)} text (the game's terms "
                                f"are in {', '.join(langs)})", term_pos[key]))
    if not langs:
        return out
    sections = [(kind, named.get(section, {})) for section, kind in NAMED] + [("phase", phases)]
    declared = {name for _, names in sections for name in names}
    sections.append(("field", {n: pos for n, pos in fields.items() if n not in declared}))
    for kind, names in sections:
        for name, pos in names.items():
            if name not in terms:
                out.append(Warning_(f"{kind} {name!r} has no term ({', '.join(langs)}): "
                                    f"explanations and diagrams show it as {name!r}", pos))
    # a field named like something done (not a thing it could be, as `p.coins` is a counter)
    done = {name: kind for kind, names in sections
            if kind in ("action", "trigger", "phase") for name in names}
    for name, pos in fields.items():
        if name in done and FIELD_PREFIX + name not in terms:
            out.append(Warning_(f"field {name!r} has the name of {done[name]} {name!r}: "
                                f"explanations would say it by that {done[name]}'s term; give "
                                f"the field its own as `{FIELD_PREFIX}{name}`", pos))
    return out


def doc_warnings(terms: dict, docs: dict) -> list[Warning_]:
    """Warnings for an option's `doc:` missing one of the game's languages (those of its terms):
    an explanation in that language would say the option without what it means. `docs`: option
    -> (its texts by language, the position of its `doc:`)."""
    langs = languages(terms)
    out = []
    for name, (texts, pos) in docs.items():
        missing = [lang for lang in langs if not texts.get(lang)]
        if texts and missing:
            out.append(Warning_(f"the doc of option {name!r} has no {', '.join(missing)} text (the "
                                f"game's terms are in {', '.join(langs)}): give it as "
                                f"`doc: {{{', '.join(f'{lang}: ...' for lang in langs)}}}`", pos))
    return out


# the statements that name a value, and their fields that hold the name: explanations say the
# value by the name's term (`let stocked = ...`: "soit les types stockés"), or as its code
NAMING = {"LetStmt": ("name",), "ChooseStmt": ("name",), "SecretChooseStmt": ("name",),
          "RollStmt": ("name",), "RandomChooseStmt": ("name",), "DrawStmt": ("name",),
          "SearchStmt": ("name",), "ForEachStmt": ("var",),
          "AuctionStmt": ("winner", "price", "history")}


def named_value_warnings(game, roots) -> list[Warning_]:
    """A value a statement names with more than one letter (`let stocked`, `keep 1 as kept`,
    `roll d4 as double`) and no term, in a game whose terms have languages: the explanations
    would show the name, code, in every language. `roots`: the syntax trees of the rules
    (dsl.depends.rule_roots). A one-letter name is a placeholder, said as itself."""
    import attrs

    langs = languages(game.terms)
    if not langs:
        return []
    out, seen, stack = [], set(), [r for _, rs in roots for r in rs]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend(reversed(node))
            continue
        if not attrs.has(type(node)):
            continue
        for field in NAMING.get(type(node).__name__, ()):
            name = getattr(node, field, None)
            if isinstance(name, str) and len(name) > 1 and name not in game.terms \
                    and name not in seen and getattr(node, "pos", None) is not None:
                seen.add(name)
                out.append(Warning_(f"value {name!r} has no term ({', '.join(langs)}): "
                                    f"explanations show it as {name!r}", node.pos))
        stack.extend(getattr(node, f.name) for f in reversed(attrs.fields(type(node)))
                     if f.name != "pos")
    return sorted(out, key=lambda w: (w.pos.path, w.pos.line, w.pos.col))
