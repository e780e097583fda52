"""Noun phrases and what each language does to them: articles, possessives, elision and the
contractions of French (`de le` -> `du`, `à les` -> `aux`, `de l'`).

The sentence templates (`en.py`, `fr.py`) say where a phrase goes and how it is determined, with
a format spec: `{counter:the}`, `{zone:your}`, `{source:of}`, `{target:to}`, `{action:quote}`;
`{x}` alone is the phrase as it stands. Only a phrase that is a bare noun (a game term) takes an
article; a phrase already determined (`tes pièces`, a variable `c`, a number) is only joined.
"""
from __future__ import annotations

import re

import attrs

_VOWELS = set("aeiouyhàâäéèêëîïôöûüœAEIOUYHÀÂÉÈÊÎÔÛŒ")


@attrs.frozen
class Phrase:
    """A piece of a sentence. `noun`: a bare term that takes an article, with its gender (`f`),
    number (`pl`) and `name` (a proper name keeps its capital)."""

    text: str
    grammar: object  # the language's Grammar
    noun: bool = False
    notes: frozenset = frozenset()

    def __format__(self, spec: str) -> str:
        return self.grammar.decorate(self, spec)

    def __str__(self) -> str:
        return self.grammar.decorate(self, "")


def running(p: Phrase) -> str:
    """A term inside a sentence: `Coins` -> `coins`, `Cartes Oxygène` -> `cartes Oxygène`; a
    proper name (`name`) or a word written with its capital (`cap`) stays."""
    t = p.text
    if not p.noun or p.notes & {"name", "cap"} or len(t) < 2:
        return t
    if not t[1].islower() and not (t[1] == "'" and t[2:3].islower()):  # `L'équipe` -> `l'équipe`
        return t
    return t[0].lower() + t[1:]


def _starts_with_vowel(text: str) -> bool:
    return bool(text) and text[0] in _VOWELS


_EN_DETERMINERS = re.compile(r"(the|a|an|your|their|each|every) ", re.IGNORECASE)
_FR_DETERMINERS = re.compile(r"(le|la|les|un|une|des|ton|ta|tes|son|sa|ses|chaque) |l'",
                             re.IGNORECASE)


def _bare(p: Phrase, determiners: re.Pattern) -> bool:
    """Whether `p` takes an article: a term, unless its own words begin with one (`The scenario's
    special rules`, `le début de chaque manche`), which would give `the the ...`."""
    return p.noun and not determiners.match(p.text)


class English:
    lang = "en"

    def finish(self, sentence: str) -> str:
        return sentence

    @staticmethod
    def plural(text: str) -> str:
        """The regular plural of a noun phrase: its last word takes the -s (`bid marker` ->
        `bid markers`, `box` -> `boxes`, `key` -> `keys`, `battery` -> `batteries`). A term
        gives its own where this rule is wrong (`en_plural: dice`)."""
        head, _, last = text.rpartition(" ")
        if last.endswith(("s", "x", "z", "ch", "sh")):
            last += "es"
        elif len(last) > 1 and last[-1] == "y" and last[-2] not in "aeiou":
            last = last[:-1] + "ies"
        else:
            last += "s"
        return f"{head} {last}" if head else last

    @staticmethod
    def plain_head(text: str) -> bool:
        """Whether a plural noun phrase is said of one by changing its noun alone (English
        adjectives do not agree)."""
        return True

    @staticmethod
    def singular(text: str) -> str:
        """A plural term said of one: its last word loses the -s (`Batteries` -> `Battery`,
        `Bid markers` -> `Bid marker`)."""
        head, _, last = text.rpartition(" ")
        if last.endswith("ies") and len(last) > 4:
            last = last[:-3] + "y"
        elif last.endswith(("ches", "shes", "xes", "sses")):
            last = last[:-2]
        elif last.endswith("s") and not last.endswith("ss"):
            last = last[:-1]
        return f"{head} {last}" if head else last

    def decorate(self, p: Phrase, spec: str) -> str:
        text, bare = running(p), _bare(p, _EN_DETERMINERS)
        match spec:
            case "":
                return text
            case "the":
                return f"the {text}" if bare and "name" not in p.notes else text
            case "your":
                return f"your {text}" if bare else text
            case "their":
                return f"their {text}" if bare else text
            case "a":
                if not bare or "pl" in p.notes:
                    return text
                return f"{'an' if text[:1] in 'aeiouAEIOU' else 'a'} {text}"
            case "none":  # `for none of ...`: no bound noun is said alone
                return f"no {text}" if bare else text
            case "of":
                return "of " + self.decorate(p, "the")
            case "to":
                return "to " + self.decorate(p, "the")
            case "quote":
                return f"“{p.text}”"
            case "cap":
                return text[:1].upper() + text[1:]
        raise ValueError(f"unknown phrase form {spec!r}")


class French:
    lang = "fr"

    def finish(self, sentence: str) -> str:
        """Elisions across the joins of templates: `si il` -> `s'il`, `que un` -> `qu'un`."""
        sentence = re.sub(r"\b([Ss])i (ils?)\b", r"\1'\2", sentence)
        return re.sub(r"\b([Qq]u|[Dd]|[Jj]usqu)e ([aeiouéèêhy]\w)", _elide, sentence)

    @staticmethod
    def plural(text: str) -> str:
        """The regular plural of a noun phrase: its first word takes the -s (`carte de
        construction` -> `cartes de construction`; `-s`, `-x`, `-z` stay, `-eau`, `-eu` take an
        -x, `-al` becomes `-aux`). A term gives its own where this rule is wrong
        (`fr_plural: yeux`)."""
        first, space, rest = text.partition(" ")
        if first.endswith(("s", "x", "z")):
            pass
        elif first.endswith(("eau", "eu")):
            first += "x"
        elif first.endswith("al"):
            first = first[:-2] + "aux"
        else:
            first += "s"
        return first + space + rest

    @staticmethod
    def plain_head(text: str) -> bool:
        """Whether a plural noun phrase is said of one by its first word alone: no adjective
        after the noun agrees with it (`zones avec file d'attente`, `piles du casier`: yes;
        `extensions non construites`, `cases libres`: no, `singular` would not make them
        agree)."""
        for word in text.split()[1:]:
            if word in ("de", "du", "des", "d'", "avec", "à", "au", "aux", "en", "sur", "sous",
                        "pour", "dans", "qui", "que", "où") or word.startswith(("d'", "l'")):
                return True
            if len(word) > 2 and word[-1] in "sx" and word[:1].islower():
                return False
        return True

    @staticmethod
    def singular(text: str) -> str:
        """A plural term said of one: its first word loses the -s or -x (`Pièces` -> `Pièce`,
        `Cartes de construction` -> `Carte de construction`)."""
        first, space, rest = text.partition(" ")
        if first[-1:] in ("s", "x"):
            first = first[:-1]
        return first + space + rest

    def decorate(self, p: Phrase, spec: str) -> str:
        text, bare = running(p), _bare(p, _FR_DETERMINERS)
        plural, fem = "pl" in p.notes, "f" in p.notes
        match spec:
            case "":
                return text
            case "the":
                if not bare or "name" in p.notes:
                    return text
                if plural:
                    return f"les {text}"
                if _starts_with_vowel(text):
                    return f"l'{text}"
                return f"{'la' if fem else 'le'} {text}"
            case "your":
                if not bare:
                    return text
                if plural:
                    return f"tes {text}"
                return f"{'ta' if fem and not _starts_with_vowel(text) else 'ton'} {text}"
            case "their":
                if not bare:
                    return text
                if plural:
                    return f"ses {text}"
                return f"{'sa' if fem and not _starts_with_vowel(text) else 'son'} {text}"
            case "a":
                if not bare:
                    return text
                return f"{'des' if plural else 'une' if fem else 'un'} {text}"
            case "none":  # `pour aucune ligne des lignes`
                return f"{'aucune' if fem else 'aucun'} {text}" if bare else text
            case "of":
                return self._contract("de", "du", "des", self.decorate(p, "the"))
            case "to":
                return self._contract("à", "au", "aux", self.decorate(p, "the"))
            case "quote":
                return f"« {p.text} »"
            case "cap":
                return text[:1].upper() + text[1:]
        raise ValueError(f"unknown phrase form {spec!r}")

    @staticmethod
    def _contract(prep: str, with_le: str, with_les: str, text: str) -> str:
        """`de` + `le module` -> `du module`, + `les pièces` -> `des pièces`, + `un` -> `d'un`."""
        if text.startswith("le "):
            return f"{with_le} {text[3:]}"
        if text.startswith("les "):
            return f"{with_les} {text[4:]}"
        if prep == "de" and _starts_with_vowel(text) and not re.match(r"\w\b", text):
            return f"d'{text}"
        return f"{prep} {text}"


def _elide(m) -> str:
    """`que un` -> `qu'un`, `de une` -> `d'une` (a one-letter name, `de a`, stays)."""
    return f"{m.group(1)}'{m.group(2)}"


GRAMMARS = {"en": English(), "fr": French()}
