"""An agent of your own, in ten lines: Pig's classic "hold at 20" (roll until this turn holds 20
points, then stop), pitted against Meeplang's strongest agent, Monte Carlo tree search.

    python examples/hold_at_20.py [GAMES]

An agent is any callable given the decision (a meeplang.Choice: `player`, `kind`, `options`,
`labels`, `view`: what its seat sees) that answers an option, a label or an index.
"""
import sys

import meeplang


class HoldAt20:
    name = "hold-at-20"  # how reports name it (else the class's name)

    def __call__(self, choice):
        if "stop" in choice.labels and choice.view["counters"]["turn_total"] >= 20:
            return "stop"
        return "roll" if "roll" in choice.labels else "stop"  # roll is not legal at the target


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    pig = meeplang.load("pig")
    sim = pig.simulate(n=games, players=2, agents=[HoldAt20(), "mcts:100"], jobs=2)
    print(sim)  # win rates by seat: hold-at-20 first, mcts second
    swapped = pig.simulate(n=games, players=2, agents=["mcts:100", HoldAt20()], jobs=2)
    print(swapped)
