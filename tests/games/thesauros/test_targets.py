"""Thesauros: the clauses of the language targets a review found no test protecting, each played
through the rules of the bundled game to the situation, then its outcome asserted."""
from __future__ import annotations

from .helpers import drive, in_quadrimester, item, items_of, play, put, start
from .test_rulebook import _at_sea, _to_zone_5


def test_T_TH_07_the_tile_turns_face_up_on_arrival():
    """EN l.680-688: a dig-site tile lies face down, seen by the holders of its map alone, until
    a holder's zodiac arrives there; then it is face up for everyone. Seat 0's zodiac on site 1
    (sample sea: d1, b5, d3) holds the #3 map and sails to site 3: its tile is turned; the tile
    of site 1, which the zodiac leaves (set there by the Given, not arrived at), is not."""
    e = start(3)
    drive(e, in_quadrimester(2), budget={"hr": 20, "rd": 0, "ge": 0, "me": 10})
    _at_sea(e, 0, 1, ["super_engine", "medium_engine"])
    put(e, items_of(e, "map", number=3)[0], "maps@0")
    tile = items_of(e, "dig_tile", name="t2")[0]
    put(e, tile, "dig_site[3]")
    _to_zone_5(e, "0.1")
    views = [e.view(s)["zones"]["dig_site[3]"] for s in range(3)]
    assert views == [[tile], ["?"], ["?"]] and not item(e, tile)["face_up"]
    play(e, "sail d3")
    assert item(e, tile)["face_up"]
    assert [e.view(s)["zones"]["dig_site[3]"] for s in range(3)] == [[tile]] * 3
    assert [e.view(s)["zones"]["dig_site[1]"] for s in (1, 2)] == [["?"], ["?"]]
