"""The Glicko-2 rating system, as Mark Glickman describes it ("Example of the Glicko-2
system", 2012): a rating, its deviation (RD: how uncertain the rating is) and a volatility
(how erratic the player's results are).

The host rates each game as a rating period of its own, as online game servers do, after
first widening the deviation for the days a player sat out (Glickman's step 6 for each
idle period). ``RATING_PERIOD`` is one day.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Glicko-2's scale factor between the displayed scale (1500 = average) and its own.
SCALE = 173.7178
TAU = 0.5  # the system constant: how fast the volatility may change (Glickman: 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of step 5
START = (1500.0, 350.0, 0.06)  # a new player: rating, deviation, volatility
MAX_RD = 350.0  # the deviation never grows past a new player's
PROVISIONAL_RD = 110.0  # a rating whose deviation is larger is marked provisional ("?")
RATING_PERIOD = 24 * 3600.0  # seconds


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation and volatility on the displayed scale."""

    rating: float = START[0]
    rd: float = START[1]
    vol: float = START[2]

    @property
    def provisional(self) -> bool:
        """Too uncertain to mean much yet (shown with a "?")."""
        return self.rd > PROVISIONAL_RD

    def idle(self, periods: float) -> Rating:
        """The rating after ``periods`` rating periods without a game (step 6 for each):
        only the deviation grows, never past a new player's."""
        if periods <= 0:
            return self
        phi = self.rd / SCALE
        phi = math.sqrt(phi * phi + periods * self.vol * self.vol)
        return Rating(self.rating, min(MAX_RD, phi * SCALE), self.vol)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results``: (the opponent's
    rating before the period, the score: 1 a win, 0.5 a draw, 0 a loss). Steps 2 to 8 of
    Glickman's description; with no results, only the deviation grows (step 6)."""
    if not results:
        return player.idle(1)
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.rd / SCALE, player.vol
    opponents = [((o.rating - 1500.0) / SCALE, o.rd / SCALE, s) for o, s in results]
    v_inverse, total = 0.0, 0.0
    for mu_j, phi_j, score in opponents:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * total
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(SCALE * new_mu + 1500.0, min(MAX_RD, SCALE * new_phi), new_sigma)
