"""A state's values in the exact chain (`chain_solve`): its chances of each absorbing outcome and its expected rounds,
held over one denominator (integer numerators and their least common denominator, GMP's integers through gmpy2), so
that a sum of such vectors costs one least common multiple per term and plain integer products, where a sum of
reduced rationals costs a greatest common divisor per entry per term. Each vector is reduced once made, so its
entries read back as the same reduced fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

from gmpy2 import gcd, lcm, mpq, mpz

#: A probability of the chain's edges (gmpy2's `mpq`; a `Fraction` does as well).
Rational: TypeAlias = "mpq | Fraction"


class Vector:
    """A state's values over one denominator: entry i is nums[i] / den, None where unknown (the expected rounds
    from a state whose fight may never end). Indexing reads an entry as a reduced rational (`mpq`) or None."""

    __slots__ = ("den", "nums")

    def __init__(self, nums: list[mpz | None], den: mpz) -> None:
        self.nums, self.den = nums, den

    def __getitem__(self, i: int) -> mpq | None:
        x = self.nums[i]
        return None if x is None else mpq(x, self.den)

    def __len__(self) -> int:
        return len(self.nums)


def mix(terms: list[tuple[Rational, Vector]], k: int) -> Vector:
    """The sum of p·v over the terms, over the least common denominator of its terms, reduced. An entry unknown
    (None) in any term is unknown in the sum."""
    den = mpz(1)
    scaled: list[tuple[mpz, mpz, Vector]] = []
    for p, v in terms:
        d = p.denominator * v.den
        den = lcm(den, d)
        scaled.append((p.numerator, d, v))
    nums: list[mpz | None] = [mpz(0)] * k
    for a, d, v in scaled:
        f = a * (den // d)
        for i, x in enumerate(v.nums):
            if x is None:
                nums[i] = None
            elif x:
                acc = nums[i]
                if acc is not None:
                    nums[i] = acc + f * x
    g = gcd(den, *[x for x in nums if x])
    if g != 1:
        den //= g
        nums = [None if x is None else x // g for x in nums]
    return Vector(nums, den)
