"""Paying from counters, the way rulebooks word it: a payment from one counter of a family that
is short is made up by the rules from the family's other counters (`transfer:`), each source used
paying its fee, so no player has to remember a transfer; payees are credited.

A slot is what `Compiled.counter_slot` gives: (holder dict, state key, spec, seat or None).
"""
from __future__ import annotations

from meeplang.dsl.errors import Impossible, RuleError
from meeplang.dsl.model import member_name


def floor_of(spec) -> int:
    return spec.min if spec.min is not None else 0


def plan(c, fam, holder: dict, key: str, need: int) -> list:
    """The transfers that bring `need` more into `holder[key]`: [(source key, amount, fee)], the
    sources in the family's `transfer: from:` order, each giving what it can beyond its fee;
    shorter than needed when the sources together cannot."""
    t = fam.transfer
    if t is None or need <= 0 or key not in [member_name(fam.name, k) for k in t.into]:
        return []
    fee = c.eng.prog.transfer_fee[fam.name](c)
    if type(fee) is not int or fee < 0:
        raise RuleError(f"the transfer fee of {fam.name} must be a whole number >= 0, not "
                        f"{fee!r}", t.pos)
    members = c.eng.game.counter_members
    out = []
    for k in t.sources:
        src = member_name(fam.name, k)
        if src == key:
            continue
        spare = holder[src] - floor_of(members[src]) - fee
        if spare <= 0:
            continue
        take = min(need, spare)
        out.append((src, take, fee))
        need -= take
        if need == 0:
            break
    return out


def allowed(fam, src: str, dest: str) -> bool:
    """May money go from one member to another (`transfer: from:` and `into:`)?"""
    t = fam.transfer
    return src in [member_name(fam.name, k) for k in t.sources] and dest in [
        member_name(fam.name, k) for k in t.into]


def funds(c, fam, slot) -> int:
    """What a counter can pay now: above its floor, plus what transfers can bring (net of fees)."""
    holder, key, spec, _ = slot
    own = holder[key] - floor_of(spec)
    if fam is None or fam.transfer is None:
        return own
    return own + sum(take for _, take, _ in plan(c, fam, holder, key, 1 << 62))


def pay(c, fam, slot, n: int, pos) -> None:
    """Take `n` from a counter, transferring into it first when it is short; an error (at the
    rule) when even transfers cannot make it up."""
    holder, key, spec, seat = slot
    short = n - (holder[key] - floor_of(spec))
    if short > 0 and fam is not None:
        moves = plan(c, fam, holder, key, short)
        if sum(take for _, take, _ in moves) < short:
            raise Impossible(f"player {seat} cannot pay {n} from {key}: has {holder[key]}, and "
                            "transfers cannot make up the rest", pos)
        for src, take, fee in moves:
            move(c, fam, holder, src, key, take, fee, seat)
    elif short > 0:
        who = f"player {seat}" if seat is not None else "the game"
        raise Impossible(f"{who} cannot pay {n} {key}: has {holder[key]}", pos)
    holder[key] -= n


def move(c, fam, holder: dict, src: str, dest: str, amount: int, fee: int, seat) -> None:
    """A transfer between two counters of a family: the source pays the amount and the fee."""
    holder[src] -= amount + fee
    holder[dest] += amount
    to = fam.transfer.fee_to
    if to is not None:
        c.s["counters"][to] += fee
    if c.eng.record:
        c.eng.events.append({"event": "transfer", "player": seat, "from": src, "to": dest,
                             "amount": amount, "fee": fee})
