"""Bounds shared by the checker and the interpreter (docs/security.md lists every limit).

Whole numbers stay within ±MAX_INT: a number a game needs is far smaller, and without a bound
`repeat 40 times: let x = x * x` makes numbers of billions of digits (minutes, gigabytes).
"""
from __future__ import annotations

MAX_INT = 10 ** 18
MAX_PLAYERS = 100  # seats of one game, automa seats included


def int_too_large(value: int) -> str:
    """The message for a number out of bounds (never printed in full: it may be huge)."""
    sign = "-" if value < 0 else ""
    return (f"the number {sign}{short_number(abs(value))} is beyond the limit of ±{MAX_INT:,} "
            "(10**18)")


def short_number(value: int) -> str:
    """A number as text, or its size if it is too long to show."""
    if value.bit_length() < 200:
        return str(value)
    return f"{'-' if value < 0 else ''}2**{abs(value).bit_length() - 1} or more"


def bounds_text(lo: int | None, hi: int | None) -> str:
    """`1..10`, `at least 1`, `at most 10`: bounds in words, never `None`."""
    if lo is not None and hi is not None:
        return f"{lo}..{hi}"
    if lo is not None:
        return f"at least {lo}"
    if hi is not None:
        return f"at most {hi}"
    return f"within ±{MAX_INT:,}"
