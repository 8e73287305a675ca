"""exact_round.py: a rational rounded once to a binary format, for the tests' expected values."""
from fractions import Fraction


def rnd(q, p, emin):
    """q (a Fraction) rounded to nearest, ties to even, to p bits with least normal exponent emin
    (subnormals kept; no overflow to Inf)"""
    if q == 0:
        return 0.0
    s, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a: e -= 1
    while Fraction(2) ** (e + 1) <= a: e += 1
    qe = max(e - p + 1, emin - p + 1)
    return s * float(round(a / Fraction(2) ** qe) * Fraction(2) ** qe)
