"""Endeavor: Deep Sea: the sample data held to the rulebook's own numbers (README.md,
"Calibration"). The components' contents are lost (FR l.61-70), so the sample cannot be the
published game; it must still let the game be played as the book tells it: every player ends
with seven specialists (FR l.874-875), rank-5 specialists can be recruited (FR l.254-256), and
each Co-Op objective is within reach of the ocean, the journals and the players' components at
every player count (FR l.996-1003)."""
from __future__ import annotations

import pytest

from ..state import play_with_invariants
from .helpers import formula, game, item, labels, me, play, start, zone


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2), (5, 3), (5, 4)])
def test_every_player_ends_with_seven_specialists(players, seed):
    """FR l.874-875: "Chaque joueur aura alors sept specialistes devant lui (dont le chef
    d'equipe)": one recruit a round for six rounds, at 5 players too (random agents)."""
    e = play_with_invariants(game(None), players, seed, "random")
    assert [len(zone(e, f"team@{p}")) for p in range(players)] == [7] * players


def test_a_reputation_ladder_reaches_rank_5_in_round_6():
    """Recruiting the reputation tile of the highest rank offered each round (sample: every
    rank-1 tile, the Archivist, the Researcher, the Chief Editor) raises the recruitment level a
    rank a round: a rank-5 specialist is offered in round 6 (FR l.232-260)."""
    e = start(2)
    offered_ranks = []
    while e.decision is not None:
        d = e.decision
        if d.player == 0 and d.kind == "do recruit":
            tiles = [item(e, x.split(" ")[1]) | {"label": x} for x in labels(e)]
            offered_ranks.append(max(t["rank"] for t in tiles))
            if offered_ranks[-1] == 5:
                break
            best = max((t for t in tiles if t["immediate"] == "gain 1 reputation"),
                       key=lambda t: t["rank"])
            play(e, best["label"])
        else:
            play(e, next((t for t in ("pass_", "recover []", "end turn", "stop", "skip")
                          if t in d.labels), d.labels[0]))
    assert offered_ranks == [1, 2, 3, 4, 4, 5]
    assert me(e)["reputation"] == 5


# the Co-Op objectives (FR l.996-1003 for the mission's bands; the Bonus Objectives are sample)
def coop_ceiling(players: int) -> dict:
    """The most the group can count for each objective, from the components alone."""
    g = game("coop")
    t = g.tables
    sites = [s for s in t["sites"].values() if s["tile"] not in t["mission_only_tiles"]]
    sonar = sum(len(t["sonar_space_rewards"][r]) for r in t["sonar_track_names"]
                if t["sonar_track_tile"][r] not in t["mission_only_tiles"])
    journals = t["display_size"] + sum(j["deck"] == "journal_deck" for j in t["journal_cards"])
    rounds = 7 if players == 1 else 6
    return {"sonar_discs": sonar,
            "conservation_discs": sum(s["kind"] == "conservation" for s in sites),
            # a publication takes a journal (FR l.665-681): as many as sites and journals
            "publication_discs": min(sum(s["kind"] == "publication" for s in sites), journals),
            "erudition": journals, "motivation": players * (rounds + 1),
            "exploration": 3 * players, "fleet": 3 * players, "expertise": players * rounds,
            "outreach": players * t["impact_tokens_per_player"]}


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_coop_objective_is_within_reach_by_arithmetic(players):
    """Legendary asks all 7 objectives (FR l.1036-1040): each band and threshold is at most what
    the components allow (FR l.1001: 13 publications at 4 players, 15 at 5)."""
    t = game("coop").tables
    ceiling = coop_ceiling(players)
    for o in t["objective_names"]:
        assert t["objectives"][o]["coop"][players] <= ceiling[o], (o, players)
    for card in t["bonus_objective_cards"]:
        assert card["threshold"][players] <= ceiling[card["name"]], (card["name"], players)


