"""Endeavor: Deep Sea: the clauses of the language targets a review found no test protecting,
each played through the rules of the bundled game to the situation, then its outcome asserted."""
from __future__ import annotations

from .helpers import item, labels, me, play, put, sub_to, zone
from .test_rulebook import activate, turn_start


def raise_ingenuity(e) -> None:
    """+1 Ingenuity by the game's own rule (`raise_any`, the reward of hex c1 and of the rank-5
    specialists), declining the impact token the Impact space offers (a reward, FR l.348-349)."""
    asked = e.do_action("raise_any", 0, None, False, {"a": "ingenuity"})
    try:
        d = next(asked)
        while True:
            assert "skip" in d.labels, d
            d = asked.send(d.options[d.labels.index("skip")])
    except StopIteration:
        pass


def test_T_EN_01_once_the_first_time_on_a_submersible_space():
    """FR l.397-401 « la première fois que votre cube atteint une case marquée de l'icône
    Submersible supplémentaire »: on the game's Ingenuity track (sample: icons on spaces 3 and 6,
    back to the Impact space 5 past the end), nine +1 from 0 reach 3 and 6 (two submersibles
    launched), go past the end to 5 and reach 6 a second time: no launch then."""
    e = turn_start()
    assert (me(e)["ingenuity"], len(zone(e, "subs@0")), len(zone(e, "sub_supply@0"))) == (0, 1, 2)
    subs = []
    for _ in range(9):
        raise_ingenuity(e)
        subs.append((me(e)["ingenuity"], len(zone(e, "subs@0"))))
    assert subs == [(1, 1), (2, 1), (3, 2), (4, 2), (5, 2), (6, 3), (7, 3), (5, 3), (6, 3)]
    fired = [ev for ev in e.events if ev.get("trigger") == "extra_submersible"]
    assert len(fired) == 2 and zone(e, "sub_supply@0") == []


def test_T_EN_04_sonars_disc_comes_from_transit():
    """FR l.455-476 and E9: a Sonar places one more disc, from the transit zone (not the
    reserve); with no disc left in transit after the activation's own, it is not offered."""
    e = turn_start()
    sub_to(e, 0, "calm_waters")
    reserve = zone(e, "reserve@0")[:]
    before = len(zone(e, "transit@0"))
    assert before >= 2
    activate(e, "lab_assistant")                                  # "Sonar"
    transit = zone(e, "transit@0")[:]
    assert len(transit) == before - 1                             # the activation's disc
    play(e, "sonar calm_right")
    assert zone(e, "sonar_track[calm_right]") == [transit[0]]     # the top disc of transit
    assert zone(e, "transit@0") == transit[1:] and zone(e, "reserve@0") == reserve
    assert item(e, transit[0])["placed"] == "sonar"

    e = turn_start()
    sub_to(e, 0, "calm_waters")
    for d in zone(e, "transit@0")[1:]:                            # one disc left in transit
        put(e, d, "reserve@0")
    activate(e, "lab_assistant")
    assert zone(e, "transit@0") == [] and not any(x.startswith("sonar") for x in labels(e))
