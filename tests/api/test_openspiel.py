"""meeplang.openspiel: Meeplang's games as pyspiel games. Meeplang's pig and goofspiel, played
through the face, move for move beside OpenSpiel's own games of the same names: the same player
to move, the same legal moves, the same returns; OpenSpiel's own API test and MCTSBot run on it."""
from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import meeplang  # noqa: E402
import meeplang.openspiel as face  # noqa: E402


def _labels(state, player, actions):
    return sorted(state.action_to_string(player, a).lower() for a in actions)


def play_pig_beside_openspiel(seed: int, rng: random.Random) -> int:
    ours = face.load_game("pig", players=2).initial_state(seed)
    ref = pyspiel.load_game("pig(players=2,winscore=100,horizon=1000)").new_initial_state()
    moves = 0
    while not ref.is_terminal():
        if ref.is_chance_node():  # the die Meeplang's engine rolled inside the last roll
            roll = [e for e in ours.meeplang_state.log if e["event"] == "roll"][-1]
            ref.apply_action(roll["value"] - 1)  # OpenSpiel's outcome i is "Roll i+1"
            continue
        player = ref.current_player()
        assert ours.current_player() == player and not ours.is_terminal()
        assert _labels(ours, player, ours.legal_actions()) == \
            _labels(ref, player, ref.legal_actions())
        action = rng.choice(ref.legal_actions())
        label = ref.action_to_string(player, action)
        (mine,) = [a for a in ours.legal_actions() if ours.action_to_string(player, a) == label]
        ours.apply_action(mine)
        ref.apply_action(action)
        moves += 1
    assert ours.is_terminal() and ours.returns() == ref.returns()
    return moves


def test_pig_through_the_face_moves_as_openspiels_pig():
    rng = random.Random(1)
    moves = [play_pig_beside_openspiel(seed, rng) for seed in range(12)]
    assert min(moves) > 10


def _card_values(ours, labels):
    items = ours.meeplang_state.view(None)["items"]
    return sorted(items[label]["value"] for label in labels)


def play_goofspiel_beside_openspiel(seed: int, rng: random.Random, cards: int,
                                    returns: str) -> list:
    ours = face.load_game("goofspiel", returns="score" if returns == "total_points" else "win",
                          num_cards=cards).initial_state(seed)
    ref = pyspiel.load_game(f"goofspiel(num_cards={cards},points_order=random,"
                            f"returns_type={returns})").new_initial_state()
    while not ref.is_terminal():
        if ref.is_chance_node():  # the prize Meeplang's engine turned up
            shown = ours.meeplang_state.view(None)
            (prize,) = shown["zones"]["prize_shown"]
            ref.apply_action(shown["items"][prize]["value"] - 1)  # "Deal v" is outcome v-1
            continue
        assert ref.is_simultaneous_node()
        bids = []
        for player in (0, 1):  # Meeplang asks the secret bids one after the other
            assert ours.current_player() == player
            legal = [ours.action_to_string(player, a) for a in ours.legal_actions()]
            assert _card_values(ours, legal) == [a + 1 for a in ref.legal_actions(player)]
            bid = rng.choice(ref.legal_actions(player))
            (mine,) = [a for a, text in zip(ours.legal_actions(), legal)
                       if _card_values(ours, [text]) == [bid + 1]]
            ours.apply_action(mine)
            bids.append(bid)
        ref.apply_actions(bids)
    # OpenSpiel plays the last round itself (one card left in each hand, the last prize);
    # Meeplang asks each seat for it, with one option
    for player in (0, 1):
        assert ours.current_player() == player and len(ours.legal_actions()) == 1
        ours.apply_action(ours.legal_actions()[0])
    assert ours.is_terminal() and ours.returns() == ref.returns()
    return ref.returns()


@pytest.mark.parametrize("returns", ["total_points", "win_loss"])
def test_goofspiel_through_the_face_moves_as_openspiels_goofspiel(returns):
    rng = random.Random(2)
    outcomes = [play_goofspiel_beside_openspiel(seed, rng, 13, returns) for seed in range(6)]
    assert len({tuple(r) for r in outcomes}) > 1  # not one game over and over


def test_openspiels_own_api_test_passes():
    for name, params in (("pig", {"players": 3, "target": 30}), ("goofspiel", {"num_cards": 5})):
        pyspiel.random_sim_test(face.load_game(name, **params), num_sims=3, serialize=False,
                                verbose=False)


def test_ids_clones_and_information_states():
    game = face.load_game("goofspiel", num_cards=4)
    assert game.num_distinct_actions() == 2 ** 20 and game.num_players() == 2
    first = game.new_initial_state()
    second = game.new_initial_state()  # the next game: another seed
    assert first.meeplang_state.seed != second.meeplang_state.seed
    state = game.initial_state(5)
    action = state.legal_actions()[0]
    clone = state.clone()
    clone.apply_action(action)
    assert state.current_player() == 0 and clone.current_player() == 1
    assert state.meeplang_state.log != clone.meeplang_state.log
    seen = json.loads(clone.information_state_string(1))
    assert seen["history"] == [[0, None]]  # seat 0's bid is secret to seat 1
    assert json.loads(clone.information_state_string(0))["history"][0][1] == \
        clone.action_to_string(0, action)
    assert "history" not in json.loads(clone.observation_string(1))
    with pytest.raises(meeplang.MeeplangError, match="not legal here"):
        state.apply_action(12345)
    with pytest.raises(meeplang.MeeplangError, match="for 2 players, not 3"):
        face.load_game("goofspiel", players=3)
    with pytest.raises(meeplang.MeeplangError, match="returns must be"):
        face.load_game("pig", returns="money")


def test_a_variant_registers_under_its_own_name():
    assert face.register("pig:short") == "meeplang_pig_short"
    game = pyspiel.load_game("meeplang_pig_short(players=3)")
    assert game.num_players() == 3 and face.register("pig", "short") == "meeplang_pig_short"


def _mcts_bot(game, simulations: int, seed: int):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(game, 2.0, simulations, evaluator,
                        random_state=np.random.RandomState(seed))


def test_mctsbot_chooses_in_new_eden():
    game = face.load_game("new-eden", players=2)
    state = game.initial_state(1)
    action = _mcts_bot(game, 2, 0).step(state)
    assert action in state.legal_actions()
    state.apply_action(action)
    assert state.meeplang_state.log[-1]["option"] == state.action_to_string(0, action)


@pytest.mark.slow
def test_mctsbot_plays_a_game_of_new_eden():
    game = face.load_game("new-eden", players=2)
    state = game.initial_state(3)
    bot, rng = _mcts_bot(game, 3, 1), random.Random(1)
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert state.meeplang_state.winners is not None
