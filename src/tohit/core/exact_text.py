"""Exact probabilities as text: "p/q" while it is short enough to read, a decimal and digit counts beyond.

A fraction whose numerator or denominator has more than `MAX_FRACTION_DIGITS` digits is not written out:
Python refuses to turn an integer of more than 4,300 digits into text, and nobody reads one. Such a value
is shown as a decimal (`SIGNIFICANT` digits, exact, truncated) with the digit counts beside it; in JSON its
`fraction` is null and `decimal` and `digits` say the same.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

#: Longest numerator or denominator written out in full.
MAX_FRACTION_DIGITS = 1000
#: Significant digits of the decimal given instead.
SIGNIFICANT = 20
_LOG10_2 = math.log10(2)


def digit_count(n: int) -> int:
    """Decimal digits of |n| (1 for 0), without turning n into text."""
    n = abs(n)
    if n < 10:
        return 1
    d = int((n.bit_length() - 1) * _LOG10_2) + 1  # the count, or one less
    return d + 1 if n >= 10**d else d


def is_long(p: Fraction) -> bool:
    """Whether `p` is too long to write as p/q."""
    limit_bits = int(MAX_FRACTION_DIGITS / _LOG10_2) - 8
    if p.numerator.bit_length() < limit_bits and p.denominator.bit_length() < limit_bits:
        return False
    return max(digit_count(p.numerator), digit_count(p.denominator)) > MAX_FRACTION_DIGITS


def decimal_text(x: Fraction, significant: int = SIGNIFICANT) -> str:
    """`x` in scientific notation with `significant` digits, exact (truncated, not rounded)."""
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    shift = significant - (digit_count(x.numerator) - digit_count(x.denominator))
    q = x.numerator * 10**shift // x.denominator if shift >= 0 else x.numerator // (x.denominator * 10**-shift)
    digits = str(q)
    exponent = len(digits) - 1 - shift
    return f"{sign}{digits[0]}.{digits[1:significant]}e{exponent:+03d}"


def fraction_text(p: Fraction) -> str:
    """ "p/q", or for a fraction too long to write, its decimal and digit counts."""
    if not is_long(p):
        return f"{p.numerator}/{p.denominator}"
    return f"{decimal_text(p)} (exact fraction of {digit_count(p.numerator):,}/{digit_count(p.denominator):,} digits)"


def fraction_json(p: Fraction) -> dict[str, Any]:
    """A probability for JSON: the exact "p/q" and a float; for a fraction too long to write, `fraction` is
    null, with `decimal` and the `digits` of numerator and denominator."""
    if not is_long(p):
        return {"fraction": f"{p.numerator}/{p.denominator}", "float": float(p)}
    return {
        "fraction": None,
        "float": float(p),
        "decimal": decimal_text(p),
        "digits": [digit_count(p.numerator), digit_count(p.denominator)],
    }
