"""Thesauros as each rulebook reads (`reading-fr`, `reading-en`, and the same for the solo,
introductory and Lawless! games; TRANSLATION.md lists every difference): each checks clean and plays whole
games, each plays its rulebook's rule where the two differ, and their diff is the golden file the
translators read, `tests/visualizer/explain/thesauros.reading-fr.reading-en.<lang>.txt`."""
from __future__ import annotations

import pytest

from meeplang.cli import main
from meeplang.visualizer.labels import LANGS
from meeplang.visualizer.prose import regen

from .helpers import (accounts, at, counter, drive, equip, formula, game, in_quadrimester, item,
                      items_of, labels, play, put, start, zone)
from .test_full_games import finished, play_checked
from .test_lawless import do_trick, hire
from .test_rulebook import _reserve_and_sail, _zodiacs_about_to_cross, zodiac

MODES = {"": (2, 3, 4), "-introductory": (2, 3, 4), "-solo": (1,),   # reading-<lang><mode>
         "-lawless": (2,)}
LAWLESS_MORE = [(f"reading-{lang}-lawless", n, seed) for lang in ("fr", "en") for n, seed in
                ((3, 3), (4, 3), (2, 7))]                       # a Lawless! game is long: slow
READINGS = [f"reading-{lang}{mode}" for mode in MODES for lang in ("fr", "en")]


@pytest.mark.parametrize("reading", READINGS)
def test_a_reading_checks_clean(reading, capsys):
    assert main(["check", "--strict", f"thesauros:{reading}"]) == 0
    assert capsys.readouterr().err == ""            # no warning, no term missing in a language


@pytest.mark.parametrize("reading, players", [(f"reading-{lang}{mode}", n) for mode, counts in
                                              MODES.items() for lang in ("fr", "en") for n in counts])
def test_a_reading_plays_to_the_end(reading, players):
    e = play_checked(players, 3, "random", reading)
    if players > 1:
        finished(e, players)
    else:
        assert e.result is not None and len(e.result["scores"]) == 2   # you and the virtual opponent


@pytest.mark.slow
@pytest.mark.parametrize("reading, players, seed", LAWLESS_MORE)
def test_a_lawless_reading_plays_more_games(reading, players, seed):
    finished(play_checked(players, seed, "random", reading), players)


def test_the_french_reading_keeps_3_cards_for_the_deck():
    """FR l.267 keeps 3 cards with the 5 level-2 ones: an 11-card deck, and one level-0/1 card
    never comes into play; EN l.278 keeps 4: 12 cards, all of them used."""
    for reading, deck, unused in (("reading-fr", 11, 1), ("reading-en", 12, 0)):
        e = start(3, variant=reading)
        assert (len(zone(e, "tech_deck")), len(zone(e, "level_1_pile"))) == (deck, unused)


def test_the_english_reading_plays_maps_6_and_7_with_2_players():
    """EN l.282-285 lays 5 maps from all 21 at 2 players; FR l.282 leaves #6 and #7 in the box."""
    def in_play(e):
        track = [x for s in range(1, 11) for x in zone(e, f"price_space[{s}]")]
        return {item(e, x)["number"] for x in track + zone(e, "map_bag")}
    assert in_play(start(2, variant="reading-en")) == set(range(1, 8))
    assert in_play(start(2, variant="reading-fr")) == set(range(1, 6))


def test_the_french_reading_gives_the_third_player_nothing_at_year_end():
    """FR l.1107: 4, 2, 0 at 3 players; EN l.1122: 4, 2, 1."""
    third = 'first([p for p in players if p.place == 3])'
    for reading, points in (("reading-fr", 0), ("reading-en", 1)):
        assert formula(start(3, variant=reading), f"influence({third})") == points


def test_the_french_solo_reading_needs_more_than_80():
    """FR l.1592, 1635: more than 80 RP; EN l.1615, 1639: more than 70."""
    for reading, target in (("reading-fr-solo", 80), ("reading-en-solo", 70)):
        assert formula(start(1, variant=reading), "solo_target") == target


def test_the_english_introductory_reading_also_transfers_into_the_slush_fund():
    """EN l.409, 1702: "from the Slush Fund to another account or vice versa"; FR l.417, 1696:
    out of it only. All the money in HR: the English reading can still bribe with it (the year's
    $1 fee paid), the French one cannot."""
    for reading, reach in (("reading-en-introductory", 55 - 1), ("reading-fr-introductory", 0)):
        e = start(2, variant=reading)
        drive(e, at("action"), budget={"hr": 55, "rd": 0, "ge": 0, "me": 0})
        assert formula(e, 'funds(accounts["sf"])') == reach


def test_the_french_solo_reading_has_3_trophies_and_fishes_for_70_80_90():
    """FR l.1639, 1646: 3 trophies, no King of Advertising, fishing at $70/$80/$90; EN l.1643,
    1650-1651: 4 trophies, fishing at $50/$75/$100."""
    for reading, names, fishing in (("reading-fr-solo", 3, [70, 80, 90]), ("reading-en-solo", 4, [50, 75, 100])):
        e = start(1, variant=reading)
        assert formula(e, "count(trophy_names)") == names
        assert formula(e, 'trophy_levels["king_of_fishermen"]') == fishing


@pytest.mark.parametrize("reading, price", [("reading-fr", 3), ("reading-en", 4)])
def test_the_english_reading_rents_the_last_seaplane_for_4_at_2_players(reading, price):
    """D9. FR l.713: the last grey seaplane left in Zone 4 is rented for $3 at 1-2 players;
    EN l.730-732: $4 whatever the count. A 2-player game, the other player reserved one."""
    e = start(2, variant=reading)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 20})
    assert _reserve_and_sail(e, [1])
    before = accounts(e, 0)["me"]
    play(e, "rent_seaplane")
    assert accounts(e, 0)["me"] == before - price


@pytest.mark.parametrize("reading, swap", [("reading-fr", True), ("reading-en", False)])
def test_only_the_french_reading_swaps_the_meeples_of_zodiacs_that_cross(reading, swap):
    """D10. FR l.741: zodiacs that cross exchange items "ainsi qu'intervertir les meeples à
    bord"; EN l.758: "swap items" only. Sample sea: site 1 to site 3 through b5, where the
    other zodiac waits: both readings pass the Mask over, only FR then offers the crews' swap."""
    e, mover, other = _zodiacs_about_to_cross(2, reading)
    play(e, "sail d3", f"load_item {other}")
    assert [item(e, t)["name"] for t in zone(e, f"aboard[{item(e, other)['slot']}]")] == ["mask"]
    assert ("swap_crews" in labels(e)) == swap
    play(e, "swap_crews" if swap else labels(e)[0])
    assert zone(e, f"crew[{item(e, mover)['slot']}]") == ["meeple#0.4" if swap else "meeple#0.1"]


@pytest.mark.parametrize("reading, kept", [("reading-fr-lawless", True), ("reading-en-lawless", False)])
def test_only_the_french_lawless_reading_keeps_the_black_seaplane(reading, kept):
    """D22. FR l.1516: the stolen black seaplane is used free at the start of each Zone 5 turn
    "jusqu'à la fin de la partie"; EN l.1532: after one use it goes back to the box. Flown in
    Q3, it is offered again in Q4 by FR only."""
    e = start(2, 0, reading)
    seat = hire(e, 4)
    do_trick(e, 4)
    x = zodiac(e, seat)
    item(e, x)["at"] = "f1"
    put(e, f"meeple#{seat}.4", f"crew[{item(e, x)['slot']}]")
    equip(e, f"item_supply@{seat}", ["mask"])
    drive(e, lambda e: labels(e) == ["fly_black_seaplane", "skip"])
    play(e, "fly_black_seaplane", "skip", f"load_item {x}")
    assert bool(zone(e, f"spoils@{seat}")) == kept
    drive(e, lambda e: counter(e, "quad") == 4 and labels(e) == ["fly_black_seaplane", "skip"]
          or counter(e, "quad") > 4, answer=lambda e: "stop" if "stop" in labels(e) else None)
    assert (counter(e, "quad") == 4 and e.decision.player == seat) == kept   # the zodiac stayed at sea


@pytest.mark.parametrize("reading", ["reading-fr-lawless", "reading-en-lawless"])
def test_both_readings_score_every_kind_of_map(reading):
    """D16, not a difference: FR l.1148-1149 counts plain, satellite and mercenary maps, of any
    type in a collection; EN l.1163-1164 "Treasure Map tile" covers the same tiles (satellite
    maps count "like the others", EN l.1284; the mercenary's are "Treasure Map tiles", EN
    l.1513). A plain, a satellite and a mercenary #2: 3 points and a collection, 2 more."""
    e = start(2, 0, reading)
    before = formula(e, "final_points(you)")
    for kind in ("map", "satellite_map", "mercenary_map"):
        put(e, items_of(e, kind, number=2)[0], "maps@0")
    assert formula(e, "final_points(you)") == before + 3 + 2


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("mode", MODES)
def test_the_readings_diff_is_its_golden_file(mode, lang):
    first, second = f"reading-fr{mode}", f"reading-en{mode}"
    golden = regen.default_folder() / f"thesauros.{first}.{second}.{lang}.txt"
    said = regen.readings_diff(game(first), game(second), lang)
    assert said == golden.read_text(encoding="utf-8"), f"regenerate: {regen.REGEN_COMMAND}"


def test_meeplang_diff_in_french_says_the_golden_paths(capsys):
    """`meeplang diff --lang fr` names every difference with the game's French terms, as the
    golden file does (positions aside)."""
    assert main(["diff", "thesauros:reading-fr", "thesauros:reading-en", "--lang", "fr"]) == 0
    out = capsys.readouterr().out.splitlines()
    golden = (regen.default_folder() / "thesauros.reading-fr.reading-en.fr.txt").read_text(
        encoding="utf-8").splitlines()
    paths = [line for line in golden if not line.startswith(" ")]
    assert paths and [line for line in out if not line.startswith(" ")][:-1] == paths
    assert "tables › Points d'ordre du tour › 3" in paths and "turn_order_rp" not in "\n".join(out)
    assert out[-1] == f"{len(paths)} changes from thesauros:reading-fr to thesauros:reading-en"
