"""Endeavor: Deep Sea, Co-Op and solo (Endeavor FR l.1024-1088): the pile of Bonus Objectives then
Setbacks, one card a round; Volcanic Activity; the group's objectives against the Co-Op bands and
the difficulty. The Bonus Objective and Setback cards other than Volcanic Activity are sample."""
from __future__ import annotations

import pytest

from .helpers import (disc_to, finish, formula, game, item, lay, me, one, play, preset, put,
                      recruit_into_team, refresh, start, to_turns, zone)
from .test_rulebook import CONSERVATION, PUBLICATION, SONAR_SPACES


def kinds(e, key):
    return [item(e, x)["kind"] for x in zone(e, key)]


def test_the_pile_three_bonus_objectives_then_setbacks_one_a_round():
    e = start(3, variant="coop")
    # round 1 already revealed the first card: 2 bonus objectives left on 3 setbacks
    assert kinds(e, "coop_pile") == ["bonus_card"] * 2 + ["setback"] * 3
    assert kinds(e, "face_up_objectives") == ["bonus_card"]
    finish(e)
    assert len(zone(e, "face_up_objectives")) == 3 and len(zone(e, "setback_discard")) == 3
    assert zone(e, "coop_pile") == []


def test_solo_seven_rounds_and_four_setbacks():
    e = start(1, variant="solo")
    assert kinds(e, "coop_pile") == ["bonus_card"] * 2 + ["setback"] * 4
    finish(e)
    assert len(zone(e, "setback_discard")) == 4 and len(zone(e, "face_up_objectives")) == 3
    assert len(zone(e, "team@0")) == 1 + 7                       # one recruit a round, 7 rounds


def test_rulebook_e37_volcanic_activity_moves_every_submersible_up_two_levels():
    """The Co-Op Setback example (FR l.1057-1062): "Activité volcanique" drawn at the start of a
    round moves every submersible of every player up 2 depth levels, as far as it can."""
    e = to_turns(start(2, variant="coop"))
    lay(e, "sunken_ruins", 2, 4)
    lay(e, "hydrothermal_vents", 3, 3)
    lay(e, "brine_pool", 4, 3)
    subs = {}
    for seat, name in ((0, "brine_pool"), (1, "sunken_ruins")):
        s = zone(e, f"subs@{seat}")[0]
        item(e, s)["at"] = one(e, name)
        subs[seat] = s
    put(e, one(e, "volcanic_activity"), "coop_pile", top=True)   # revealed at round 2's start
    while e.state["phase"] != "preparation":
        play(e, "pass_")
    at = {seat: item(e, item(e, s)["at"])["name"] for seat, s in subs.items()}
    assert at == {0: "kelp_forest", 1: "calm_waters"}            # 4 -> 2 (column 3), 2 -> 1 (column 4)


def coop_end(publication, sonar=(0, 0, 0), conservation=(0, 0, 0), infinity=0, senior=None,
             bonus=None, fleet_and_journals=False, **options):
    """A 3-player Co-Op game of one round with these discs in the ocean, and (with `infinity`)
    the group's impact tokens on every hex, `infinity` of them on the ∞ hex; with `bonus`, these
    Bonus Objective cards face up instead of the one revealed; with `fleet_and_journals`, two
    submersibles each and 5 journals in the group; played out quietly."""
    e = to_turns(start(3, variant="coop", rounds=1, **options))
    if bonus is not None:
        for card in zone(e, "face_up_objectives"):
            put(e, card, "bonus_box")
        for name in bonus:
            put(e, one(e, name), "face_up_objectives")
    if fleet_and_journals:                                       # 2 submersibles each, 5 journals
        for seat in range(3):
            sub = zone(e, f"sub_supply@{seat}")[0]
            put(e, sub, f"subs@{seat}")
            item(e, sub)["at"] = one(e, "star_of_the_seas")
        for seat in (0, 0, 1, 1, 2):
            put(e, zone(e, "journal_deck")[0], f"journals@{seat}")
    for kind, counts, where in (("publication", publication, iter(PUBLICATION)),
                                ("sonar", sonar, iter(SONAR_SPACES)),
                                ("conservation", conservation, iter(CONSERVATION))):
        for seat, n in enumerate(counts):
            for _ in range(n):
                key = f"sonar_track[{next(where)}]" if kind == "sonar" else f"site[{next(where)}]"
                disc_to(e, seat, key, kind)
    if infinity:
        hexes = list(e.game.tables["hex_names"]) + ["inf"] * (infinity - 1)
        for i, h in enumerate(hexes):
            preset(e, zone(e, f"impact_supply@{i % 3}")[0], f"hex[{h}]")
    if senior:                                                   # a rank-5 Senior of Violet's,
        put(e, one(e, senior), "team@0")                         # with 4 research
        item(e, one(e, senior))["promoted"] = True
        e.state["players"][0]["research"] = 4
    return finish(e)


def met(e) -> int:
    return e.state["counters"]["objectives_met"]


def test_rulebook_e38_coop_band_eleven_publication_discs_at_three_players():
    """The Co-Op mission objective example (FR l.1069-1074, bands FR l.996-1003): at 3 players the
    Publication objective is met when the group has at least 11 publication discs in the ocean."""
    assert met(coop_end([4, 4, 3])) == met(coop_end([4, 4, 2])) + 1   # FR l.1073-1074: at least 11


def test_rulebook_e39_the_impact_objective_counts_the_groups_impact_journals_and_specialists():
    """The Co-Op Impact objective example (FR l.1046-1050, 1059-1062): at 3 players the group
    must reach "%5" (read 45) VP from the Impact board, all journals and all specialists."""
    # the whole board and 14 tokens on the ∞ hex: 19 + 13 * 2 = 45 VP, the 3-player target
    assert met(coop_end([0, 0, 0], infinity=14)) == met(coop_end([0, 0, 0], infinity=13)) + 1


def test_rulebook_e39_the_impact_objective_counts_the_rank_5_seniors_scored_at_the_end():
    """E39 again (FR l.1046-1050): the specialists' VP in the group's total include the rank-5
    Seniors' final scoring."""
    # 43 VP on the board; the Expedition Sponsor's final scoring (research // 2 = 2, sample)
    # makes 45, the 3-player target, only if it is scored before the objectives are checked
    assert met(coop_end([0, 0, 0], infinity=13, senior="expedition_sponsor")) == \
        met(coop_end([0, 0, 0], infinity=13)) + 1


# the four objectives of the sheet met (the three mission objectives and the Impact board's), and
# sample Bonus Objectives: at 3 players Outreach (9 impact tokens played) is met with the whole
# board covered, Fleet (6 submersibles) and Érudition (5 journals) are met by the
# `fleet_and_journals` position, Motivation (21 specialists) and Expertise (3 Seniors) are not
SHEET_MET = dict(publication=[4, 4, 3], sonar=(5, 5, 5), conservation=(5, 5, 4), infinity=14)


@pytest.mark.parametrize("bonus, meeting, wins, loses", [
    (["motivation", "expertise"], 4, "beginner", "intermediate"),
    (["outreach", "motivation", "expertise"], 5, "intermediate", "expert"),
    (["outreach", "fleet", "motivation"], 6, "expert", "legendary"),
    (["outreach", "fleet", "erudition"], 7, "legendary", None)])
def test_the_difficulty_sets_how_many_objectives_win(bonus, meeting, wins, loses):
    """FR l.1036-1040: "Débutant 4 objectifs, Intermédiaire 5, Expert 6, Légendaire les 7"."""
    e = coop_end(**SHEET_MET, bonus=bonus, difficulty=wins, fleet_and_journals=True)
    assert met(e) == meeting and e.result["winners"] == [0, 1, 2]
    if loses is not None:
        e = coop_end(**SHEET_MET, bonus=bonus, difficulty=loses, fleet_and_journals=True)
        assert met(e) == meeting and e.result["winners"] == []


def test_no_majority_bonus_in_coop():
    """FR l.1066: "Les bonus de majorité ne sont pas utilisés en mode Co-Op": a clear first
    scores its discs only (the competitive game adds the 1st place's bonus, E31)."""
    e = coop_end([4, 2, 0])
    assert formula(e, 'objective_vp(you, "publication_discs")') == 4
    assert formula(e, 'objective_vp(you, "publication_discs")', 1) == 2


# ---------------------------------------------------------------- readings (README, options)
def deep_then_volcanic(**options):
    """Exploration (3 submersibles at level 3 or deeper, at 3 players, sample) is met during round
    1 and lost at round 2's start, when Volcanic Activity brings every submersible up 2 levels."""
    e = to_turns(start(3, variant="coop", rounds=2, **options))
    for card in zone(e, "face_up_objectives"):
        put(e, card, "bonus_box")
    put(e, one(e, "exploration"), "face_up_objectives")
    put(e, one(e, "volcanic_activity"), "coop_pile", top=True)    # revealed at round 2's start
    lay(e, "hydrothermal_vents", 3, 3)
    for seat in range(3):
        item(e, zone(e, f"subs@{seat}")[0])["at"] = one(e, "hydrothermal_vents")
    return finish(e)


def test_objectives_are_checked_at_the_end_of_the_game_by_default():
    """FR l.1085-1088: "A la fin de la sixième manche ..., vérifiez que vous avez bien validé le
    nombre d'objectifs requis": an objective met in round 1 and lost since does not count."""
    assert met(deep_then_volcanic()) == met(deep_then_volcanic(objectives_checked="as_soon_as_met")) - 1


def test_as_soon_as_met_an_objective_stays_met():
    e = deep_then_volcanic(objectives_checked="as_soon_as_met")
    card = one(e, "exploration")
    assert item(e, card)["met"] is True
    assert all(item(e, item(e, s)["at"])["level"] == 1 for seat in range(3)
               for s in zone(e, f"subs@{seat}"))                 # no longer deep at the end


def solo_publication(**options):
    """Solo: a journal with an "Others" effect published (Polar Review, sample: cost 2, "You":
    +1 Inspiration, "Others": +1 research), from 5 research."""
    e = to_turns(start(1, variant="solo", **options))
    journal = one(e, "polar_review")
    if journal not in zone(e, "display"):
        put(e, zone(e, "display")[0], "journal_deck", top=True)
        put(e, journal, "display")
    archivist = recruit_into_team(e, 0, "archivist")
    lay(e, "frozen_reef", 3, 3)                                   # its publication site: ice
    item(e, zone(e, "subs@0")[0])["at"] = one(e, "frozen_reef")
    me(e)["research"] = 5
    refresh(e)
    play(e, f"activate {archivist}")
    if "publication frozen_p1" in e.decision.labels:
        play(e, "publication frozen_p1")
    play(e, journal)
    return e


def test_in_solo_the_others_effects_go_to_nobody_by_default():
    """FR l.698-700: "Les autres : les autres joueurs (mais pas vous !)": in solo, nobody."""
    assert me(solo_publication())["research"] == 5 - 2
    assert me(solo_publication(others_in_solo="you"))["research"] == 5 - 2 + 1


# ---------------------------------------------------------------- the Co-Op bands (FR l.996-1003)
# Mission 1's three objectives, "CO-OP | 1j: 8+ | 2j: 12+ | 3j: 15+ | 4j: 18+ | 5j: 20+" (Sonar,
# FR l.996), "5+ | 8+ | 11+ | 13+ | 15+" (Publication, FR l.1001) and "6+ | 9+ | 14+ | 17+ | 20+"
# (Conservation, FR l.1003; "290+" read 9+ and "W4" 14+ [OCR?])
BANDS = {"sonar_discs": [8, 12, 15, 18, 20], "publication_discs": [5, 8, 11, 13, 15],
         "conservation_discs": [6, 9, 14, 17, 20]}


def group_with_discs(players: int, kind: str, n: int):
    """A Co-Op game (solo at 1 player) whose group has n discs of `kind` in the ocean, dealt round
    the seats, on that kind's spaces and then (the sample components have fewer than the largest
    bands) on other free sites, where only the disc's kind counts; checked at the end of its one
    round (FR l.1085-1088)."""
    e = to_turns(start(players, variant="solo" if players == 1 else "coop", rounds=1, first=None))
    own = {"sonar": [f"sonar_track[{s}]" for s in SONAR_SPACES],
           "publication": [f"site[{s}]" for s in PUBLICATION],
           "conservation": [f"site[{s}]" for s in CONSERVATION]}[kind]
    others = [f"site[{s}]" for s in e.game.tables["site_names"] if f"site[{s}]" not in own]
    for i, key in zip(range(n), own + others):
        disc_to(e, i % players, key, kind)
    return finish(e)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("objective", list(BANDS))
def test_the_coop_band_of_each_mission_objective_by_player_count(objective, players):
    """At 1 to 5 players an objective is met by the group at its band and not one disc below."""
    band = BANDS[objective][players - 1]
    kind = game().tables["objectives"][objective]["kind"]
    met_with = [group_with_discs(players, kind, n)
                .state["counters"][f"mission_objective_met[{objective}]"] for n in (band - 1, band)]
    assert met_with == [0, 1]
