"""The solo game (FR l.596-643): the rulebook's solo examples (Ex. 8-11 of the digest) played
through the rules, and whole solo games with every invariant after every decision."""
from __future__ import annotations

import pytest

from meeplang.dsl.errors import UsageError

from .helpers import (cubes, dive_with_key, empty_out, item, labels, me, place_diver, play, put,
                      refresh, start, zone)
from .test_full_games import play_checked


def store_of(e):
    return {t: len(zone(e, f"store[{t}]")) for t in ["metal", "plant", "fuel", "technology"]}


def example_8_game(tie: str | None = "plant", **options):
    """A solo game whose Store was set up as in the example: 2 fuels, 1 metal, 1 plant; of the
    two equally scarce types the player puts `tie` higher (FR l.628; None: not chosen yet)."""
    for seed in range(60):
        e = start(1, "solo", seed, **options)
        if store_of(e) == {"metal": 1, "plant": 1, "fuel": 2, "technology": 0}:
            if tie is not None:
                play(e, f"place_on_track {tie}")
            return e
    raise AssertionError("no seed sets up the Store of the example")


def track(e):
    return {item(e, c)["space"]: item(e, c)["type"] for c in zone(e, "track")}


def carried(e):
    return {item(e, c)["type"]: item(e, c)["carrier"] for c in zone(e, "carried")}


def quiet_turn(e):
    """Play a turn that changes nothing that matters here, up to the end-of-turn Timer choice."""
    play(e, "take_turn key#0.1")
    while e.decision is not None and e.decision.kind != "choose which":
        ls = labels(e)
        play(e, next((x for x in ["skip", "0", "oxygen", "surface", "end turn"] if x in ls), ls[0]))


def test_rulebook_ex_8_the_scarcest_type_goes_highest_on_the_track():
    """FR l.628: 2 fuels, 1 metal, 1 plant in the Store: technology on 21, « 1 plante (ou 1
    métal) sur la case 19, 1 métal (ou 1 plante) sur la case 17 », fuel on 15. The two equally
    scarce types are the player's choice, and the only question asked."""
    e = example_8_game(tie=None)
    assert track(e) == {21: "technology"}               # the scarcest, placed without a question
    assert labels(e) == ["place_on_track metal", "place_on_track plant"]
    for tie, other in [("plant", "metal"), ("metal", "plant")]:
        e = example_8_game(tie)
        assert track(e) == {21: "technology", 19: tie, 17: other, 15: "fuel"}
        assert e.decision.kind != "do place_on_track"    # nothing more to choose
    assert [item(e, t)["space"] for t in zone(e, "timers")] == [23, 23]
    e = example_8_game(timer_start=22)                   # the harder game: 20, 18, 16, 14
    assert track(e) == {20: "technology", 18: "plant", 16: "metal", 14: "fuel"}


def test_rulebook_ex_9_cubes_on_the_two_contracts_in_ascending_order():
    """FR l.602-604: the 2 public contracts sorted by points; the type on 21 goes on the left
    card, the type on 19 on the right one; the other two wait in reserve, in track order."""
    e = example_8_game()
    left, right = zone(e, "public")
    assert item(e, left)["points"] <= item(e, right)["points"]
    assert carried(e) == {"technology": left, track(e)[19]: right}
    assert [item(e, c)["type"] for c in zone(e, "reserve")] == [track(e)[17], "fuel"]


def test_rulebook_ex_10_a_timer_reaches_the_technology_space():
    """FR l.609-613: the technology goes to the Store (no gain), the contract carrying the
    technology cube is discarded with it, and the new contract gets the next cube (metal/plant)."""
    e = example_8_game()
    left, right = zone(e, "public")
    next_type = track(e)[17]
    item(e, "timer#1")["space"] = 22
    points = me(e)["notoriety"]
    refresh(e)
    quiet_turn(e)
    assert labels(e) == ["timer#1", "timer#2"]           # the Timer of your choice
    credits = me(e)["credits"]
    play(e, "timer#1")
    assert item(e, "timer#1")["space"] == 21
    assert [item(e, c)["type"] for c in zone(e, "store[technology]")] == ["technology"]
    assert left in zone(e, "contract_discard") and zone(e, "public")[0] == right
    new = zone(e, "public")[1]
    assert carried(e) == {track(e)[19]: right, next_type: new}
    assert 21 not in track(e) and me(e)["credits"] == credits and me(e)["notoriety"] == points


def test_rulebook_ex_10_a_completed_contract_drops_its_cube_and_the_timer_discards_nothing():
    """FR l.617: the cube of a completed public contract is discarded; the new card takes the
    next reserve cube; when a Timer reaches that type's space later, no contract goes."""
    e = example_8_game()
    left, right = zone(e, "public")
    item(e, left).update(needs=["metal"], groups=[], points=2, credit=0, battery=0)
    for l in range(1, 6):
        empty_out(e, f"dig[{l}]@0")
    cubes(e, "dig[3]@0", "metal")
    refresh(e)
    play(e, "complete_contract 3", left)
    play(e, labels(e)[0])                                # the metal
    new = zone(e, "public")[1]
    assert carried(e) == {track(e)[19]: right, track(e)[17]: new}   # the tech cube is gone
    item(e, "timer#1")["space"] = 22
    quiet_turn(e)
    play(e, "timer#1")                                   # onto the technology space
    assert zone(e, "public") == [right, new] and len(zone(e, "store[technology]")) == 1


def a_contract_and_the_timers(e, notoriety: int, points: int, spaces: dict) -> str:
    """The Given of the score-meets-a-Timer tests: the score on `notoriety`, the Timers named in
    `spaces` on those spaces, the dig zones empty but for 1 metal in zone 3, and the left public
    contract asking that metal for `points` (and 1 credit). Returns the contract."""
    for timer, space in spaces.items():
        item(e, timer)["space"] = space
    me(e)["notoriety"] = notoriety
    for l in range(1, 6):
        empty_out(e, f"dig[{l}]@0")
    c = zone(e, "public")[0]
    item(e, c).update(needs=["metal"], groups=[], points=points, credit=1, battery=0)
    cubes(e, "dig[3]@0", "metal")
    return c


def complete_with_the_metal(e, c: str) -> None:
    """The When: the player completes contract c with the metal of zone 3."""
    refresh(e)
    play(e, "complete_contract 3", c)
    play(e, labels(e)[0])


def test_rulebook_ex_11_the_game_ends_at_once_on_the_second_timer():
    """FR l.643: Pauline has 12 notoriety, the first Timer is gone, the second is on 14; she
    completes the 5-point contract: 17 passes the Timer and the game ends at once, so the
    3-point contract cannot be completed. 17 is « Espoir » on the honour table (FR l.636)."""
    e = example_8_game()
    put(e, "timer#1", "spent_timers")
    five = a_contract_and_the_timers(e, 12, 5, {"timer#2": 14})
    three = zone(e, "public")[1]
    item(e, three).update(needs=["fuel"], groups=[], points=3, credit=0, battery=0)
    cubes(e, "dig[3]@0", "fuel")
    complete_with_the_metal(e, five)
    assert e.decision is None and e.result["scores"] == [17]
    assert me(e)["credits"] == 3                         # ended right after the score: no bonus
    with pytest.raises(UsageError, match="the game is over"):
        e.choose_label("complete_contract 3")


def test_rulebook_ex_11_the_first_timer_met_is_only_discarded():
    e = example_8_game()
    complete_with_the_metal(e, a_contract_and_the_timers(e, 12, 5, {"timer#1": 14}))
    assert e.decision is not None and zone(e, "spent_timers") == ["timer#1"]
    assert me(e)["notoriety"] == 17 and me(e)["credits"] == 4
    quiet_turn(e)
    assert labels(e) == ["timer#2"]                      # only the second Timer moves now


def test_one_score_that_passes_both_timers_ends_the_game():
    """FR l.622: each Timer the score marker meets or passes is discarded, the second one ending
    the game at once. 12 + 5 = 17 passes the Timers on 14 and 15 together: both go, the game
    ends (each Timer is met on its own; the first one's discard does not hide the second)."""
    e = example_8_game()
    complete_with_the_metal(e, a_contract_and_the_timers(e, 12, 5, {"timer#1": 14, "timer#2": 15}))
    assert e.decision is None and e.result["scores"] == [17]
    assert zone(e, "timers") == [] and sorted(zone(e, "spent_timers")) == ["timer#1", "timer#2"]
    assert me(e)["credits"] == 3                         # ended right after the score


def test_a_score_that_reaches_a_timer_meets_it():
    """FR l.622: « Si votre marqueur de score rejoint ou double le premier des Timer »: 12 + 2
    lands on the Timer's space 14, which meets it: it is discarded (the first one: play goes on)."""
    e = example_8_game()
    complete_with_the_metal(e, a_contract_and_the_timers(e, 12, 2, {"timer#1": 14}))
    assert me(e)["notoriety"] == 14 and zone(e, "spent_timers") == ["timer#1"]
    assert e.decision is not None


def test_a_timer_that_reaches_the_score_at_the_end_of_the_turn_meets_it():
    """FR l.622: « ou si, à la fin de votre tour, le premier des Timer rejoint votre marqueur de
    score »: the Timer moves from 15 onto the score's space 14 and is discarded."""
    e = example_8_game()
    item(e, "timer#1")["space"] = 15
    me(e)["notoriety"] = 14
    refresh(e)
    quiet_turn(e)
    play(e, "timer#1")
    assert item(e, "timer#1")["space"] == 14 and zone(e, "spent_timers") == ["timer#1"]
    assert e.decision is not None


def test_a_timer_that_moves_past_the_score_at_the_end_of_the_turn_is_met():
    """FR l.622: « à la fin de votre tour, le premier des Timer rejoint votre marqueur »: a step
    of 3 takes the Timer from 15 past the marker on 13; it is met all the same."""
    e = example_8_game(timer_step=3)
    item(e, "timer#1")["space"] = 15
    me(e)["notoriety"] = 13
    refresh(e)
    quiet_turn(e)
    play(e, "timer#1")
    assert item(e, "timer#1")["space"] == 12 and zone(e, "spent_timers") == ["timer#1"]
    assert e.decision is not None


@pytest.mark.parametrize("step", [2, 3])
def test_a_timer_step_that_jumps_over_a_cube_still_reaches_it(step):
    """FR l.609, 617: a Timer « arrive sur » / « atteindra » a cube's space on its way down: a
    step of 2 or 3 (the `timer_step` reading) down to 20 passes the technology on 21 without
    stopping there; the cube still goes to the Store and its contract is discarded, as in Ex. 10."""
    e = example_8_game(timer_step=step)
    left, right = zone(e, "public")
    next_type = track(e)[17]
    item(e, "timer#1")["space"] = 20 + step
    refresh(e)
    quiet_turn(e)
    play(e, "timer#1")
    assert item(e, "timer#1")["space"] == 20
    assert [item(e, c)["type"] for c in zone(e, "store[technology]")] == ["technology"]
    assert left in zone(e, "contract_discard") and zone(e, "public")[0] == right
    assert 21 not in track(e) and carried(e)[next_type] == zone(e, "public")[1]
    assert sorted(track(e)) == [15, 17, 19]              # the cubes below are not reached yet


def test_a_timer_step_reaches_every_cube_it_passes_highest_first():
    """A step of 3 from 20 passes the cubes on 19 and 17, in that order: the cube on 19 takes
    the right contract with it and the new card gets the reserve's next cube (the type on 17),
    which the Timer then reaches too, so that card goes and the next one gets the fuel."""
    e = example_8_game(timer_step=3)
    left, right = zone(e, "public")
    item(e, "timer#1")["space"] = 20
    put(e, next(c for c in zone(e, "track") if item(e, c)["space"] == 21), "supply")
    refresh(e)
    quiet_turn(e)
    play(e, "timer#1")
    assert sorted(track(e)) == [15] and right in zone(e, "contract_discard")
    assert zone(e, "public")[0] == left and len(zone(e, "contract_discard")) == 2
    assert carried(e) == {"technology": left, "fuel": zone(e, "public")[1]}
    assert zone(e, "reserve") == []


def test_the_spy_moves_a_timer_back_instead_of_copying():
    """FR l.618: in solo the Spy draws contracts or moves a Timer of your choice back one space."""
    e = example_8_game()
    place_diver(e, "spy", 2)
    dive_with_key(e, 2)
    assert labels(e) == ["spy_contracts", "spy_timer timer#1", "spy_timer timer#2"]
    play(e, "spy_timer timer#2")
    assert item(e, "timer#2")["space"] == 24 and me(e)["credits"] == 3 - 1


@pytest.mark.parametrize("variant, agents", [("solo", "random"), ("solo", "greedy"),
                                            pytest.param("solo-hard", "random", marks=pytest.mark.slow),
                                            pytest.param("solo-hard", "greedy", marks=pytest.mark.slow)])
def test_full_solo_games(variant, agents):
    """The game ends when the second Timer is met, at once: no Timer is left."""
    e = play_checked(variant, 1, 1, agents)
    assert e.result is not None and zone(e, "timers") == []
    assert e.result["scores"] == [me(e)["notoriety"]]


def test_the_harder_solo_game_starts_the_timers_on_22():
    """FR l.600-601: the Timers « sur la case 23 [...] (ou 22 si vous souhaitez augmenter la
    difficulté) », the cubes « (ou 20, 18, 16 et 14 si vous avez placé les Timer sur la case
    22) »: the variant solo-hard."""
    e = start(1, "solo-hard")
    play(e, labels(e)[0])                                # the tie between equally scarce types
    assert [item(e, t)["space"] for t in zone(e, "timers")] == [22, 22]
    assert sorted(track(e)) == [14, 16, 18, 20]


@pytest.mark.parametrize("option, plays, refused", [("timer_start", [22, 23], [21, 24]),
                                                    ("timer_step", [1, 3], [0, 4])])
def test_the_solo_options_take_only_the_values_the_book_allows(option, plays, refused):
    """FR l.600: the Timers start on 23, or on 22 for a harder game, nothing else. The Timer's
    step is a reading (FR l.608 does not say): 1 to 3 spaces, never 0 (the Timers would never
    come down to the score: no end)."""
    for value in plays:
        assert start(1, "solo", **{option: value}).decision is not None
    for value in refused:
        with pytest.raises(UsageError, match=f"option {option}={value} is out of bounds"):
            start(1, "solo", **{option: value})
