"""An independent reference scorer for `pulya/1` pulkas.

Written from docs/rules.md (§14 parameters, §15 settlement; §1-§10 for
explanation) and docs/files.md only - it does not look at the production
engine's scoring code. It is deliberately plain: one function per
kind of deal, exact Fractions everywhere, no cleverness.

Input: an already valid `pulya/1` dict. Output: a dict shaped like the
`sheet` / `finished` / `settlement` parts of `pulya-result/1`, plus per-deal
net deltas (see `Reference.deal_deltas`).

Readings of places where the documents leave room (each marked READING below):

* READING dealer/active: the dealer of deal i is i seats clockwise from
  first_dealer. With 3 players everybody is active; with 4 the dealer sits
  out. "First hand" is the active player after the dealer clockwise. The
  first defender is the active player after the declarer clockwise (skipping a
  sitting-out dealer), the second defender the remaining one (§1.5 W1, W8).
* READING streak: `streak` counts the raspasy since the last deal that ends a
  streak. A raspasy is scored with k = streak + 1 and then streak += 1. Under
  `raspasy_exit_on: made` a game or misère that is made (including a game won
  without play: both pass, or a half-whist accepted) resets streak to 0; a
  failed one leaves it. Under `any` every game and misère resets it. The
  exit minimum for a game is raspasy_exit[min(streak, 3) - 1] when streak > 0.
* READING "made": a game is made when the declarer takes at least the
  contract level (checked or whisted), or when it was not played; a misère
  when the declarer takes 0 tricks.
* READING raspasy with several pulya writes: zero-trick players write their
  pulya one at a time from first hand clockwise, the 4-player dealer
  (pulya_one) last, each with its overflow resolved before the next (§14).
  Gora entries of the raspasy do not interact with overflow, so their order
  does not matter.
* READING `raspasy_dealer: pulya_one` writes exactly 1 point (§14 says "the
  dealer writes 1 into his pulya"), not raspasy_zero_pulya[k].
* Raspasy `whists` scoring at 4 players with `raspasy_dealer: talon` (§14,
  `raspasy_whists_per_trick`, stated): the fewest is sought among the three
  active players only; the sitting-out dealer never writes, and his talon
  tricks are written on him like anyone's. The dealer gets no zero-trick pulya
  under `talon`. READING: the three active players tied for fewest (3-3-3 with
  one talon trick) is not covered by the rules; the generator never produces
  it, and this code treats it like the two-way tie generalised (each of the
  three writes 1/3 (split) or all (full) of the whists on the dealer).
* READING help order: among the players other than the helper whose pulya
  is below pulya_size, the largest pulya first; ties: nearest clockwise from
  the helper. Each is filled up to pulya_size; the rest is written off the
  helper's gora (writeoff_gora_per_point per point).
* READING money: §15 says money = Net × whist_price from the exact Net (not
  from the rounded balance); docs/files.md's "balance × whist_price" is read as a
  description, and §15 (normative) wins.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction
from typing import Any

# --------------------------------------------------------------------------------------------
# §14 parameters, typed in from the table

PRESETS: dict[str, dict[str, Any]] = {
    "sochi": dict(
        pulya_size=20, whist_price=1, pulya_point_whists=10, gora_point_whists=10,
        whist_factor=1, remiz_factor=1, consolation_factor=1, consolation_min=0,
        consolation_by_passer=True, consolation_by_dealer=True,
        single_whist_made="whister_all", single_whist_remiz="greedy",
        shortfall_factor=1, shortfall_split="personal", q1_responsible="second_whister",
        half_whist=[6, 7], stalingrad=False, ten_checked=True, checked_ten_whists=True,
        misere_gora_per_trick=10, raspasy_scoring="gora", raspasy_gora=[1, 2, 3],
        raspasy_zero_pulya=[1, 2, 3], raspasy_whists_per_trick=5, raspasy_tie="split",
        raspasy_exit=[6, 6, 6], raspasy_exit_on="made", raspasy_dealer="talon",
        pulka_end="all_closed", overflow="help_then_writeoff", help_whists_per_point=10,
        writeoff_gora_per_point=1,
    ),
    "leningrad": dict(
        pulya_size=20, whist_price=1, pulya_point_whists=20, gora_point_whists=10,
        whist_factor=2, remiz_factor=2, consolation_factor=2, consolation_min=0,
        consolation_by_passer=True, consolation_by_dealer=True,
        single_whist_made="whister_all", single_whist_remiz="gentleman",
        shortfall_factor=1, shortfall_split="personal", q1_responsible="second_whister",
        half_whist=[6, 7], stalingrad=False, ten_checked=True, checked_ten_whists=True,
        misere_gora_per_trick=20, raspasy_scoring="gora", raspasy_gora=[2, 4, 6],
        raspasy_zero_pulya=[1, 2, 3], raspasy_whists_per_trick=5, raspasy_tie="split",
        raspasy_exit=[6, 7, 7], raspasy_exit_on="made", raspasy_dealer="talon",
        pulka_end="total", overflow="help_then_writeoff", help_whists_per_point=20,
        writeoff_gora_per_point=2,
    ),
    "rostov": dict(
        pulya_size=20, whist_price=1, pulya_point_whists=10, gora_point_whists=10,
        whist_factor=1, remiz_factor=1, consolation_factor=1, consolation_min=10,
        consolation_by_passer=True, consolation_by_dealer=True,
        single_whist_made="whister_all", single_whist_remiz="gentleman",
        shortfall_factor=Fraction(1, 2), shortfall_split="personal", q1_responsible="second_whister",
        half_whist=[6, 7], stalingrad=False, ten_checked=True, checked_ten_whists=True,
        misere_gora_per_trick=10, raspasy_scoring="whists", raspasy_gora=[1],
        raspasy_zero_pulya=[1], raspasy_whists_per_trick=5, raspasy_tie="split",
        raspasy_exit=[6, 6, 6], raspasy_exit_on="made", raspasy_dealer="pulya_one",
        pulka_end="all_closed", overflow="help_then_writeoff", help_whists_per_point=10,
        writeoff_gora_per_point=1,
    ),
}

PARAMETER_NAMES = tuple(PRESETS["sochi"])

# §1.2 and §1.5 W2
STRAINS = ("S", "C", "D", "H", "NT")
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
MISERE_PRICE = 10


def price(level: int) -> int:
    return 2 * (level - 5)


def parse_contract(text: str) -> tuple[int, str]:
    return int(text[:-2] if text.endswith("NT") else text[:-1]), text[-2:] if text.endswith("NT") else text[-1]


def resolve_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """The preset with its overrides, numbers made exact."""
    resolved = dict(PRESETS[rules["preset"]])
    for key, value in rules.items():
        if key != "preset":
            resolved[key] = value
    resolved["shortfall_factor"] = Fraction(str(resolved["shortfall_factor"]))
    resolved["whist_price"] = Fraction(Decimal(str(resolved["whist_price"])))
    return resolved


def by_k(values: list[int], k: int) -> int:
    """A list indexed by the streak k = 1, 2, 3 … repeats its last element (§14)."""
    return values[min(k, len(values)) - 1]


# --------------------------------------------------------------------------------------------
# the sheet


class Reference:
    def __init__(self, data: dict[str, Any]):
        self.players: list[str] = list(data["players"])
        self.n = len(self.players)
        self.seat = {name: i for i, name in enumerate(self.players)}
        self.first_dealer = self.seat[data.get("first_dealer", self.players[0])]
        self.r = resolve_rules(data["rules"])
        self.P = self.r["pulya_size"]
        n = self.n
        self.pulya = [Fraction(0)] * n
        self.gora = [Fraction(0)] * n
        self.whists = [[Fraction(0)] * n for _ in range(n)]
        self.streak = 0
        self.deals_done = 0
        self.deal_deltas: list[dict[tuple, Fraction]] = []
        self._delta: dict[tuple, Fraction] = {}

    # ---- seats

    def dealer(self, index: int | None = None) -> int:
        index = self.deals_done if index is None else index
        return (self.first_dealer + index) % self.n

    def active(self) -> list[int]:
        """The three seats playing the next deal, from first hand clockwise."""
        d = self.dealer()
        seats = [(d + i) % self.n for i in range(1, self.n + 1)]
        if self.n == 4:
            seats.remove(d)
        return seats  # at 3 players the dealer is last (he is third hand)

    def sitting_out(self) -> int | None:
        return self.dealer() if self.n == 4 else None

    def defenders(self, declarer: int) -> tuple[int, int]:
        """(first defender = declarer's left, second defender = declarer's right)."""
        act = self.active()
        i = act.index(declarer)
        return act[(i + 1) % 3], act[(i + 2) % 3]

    def exit_minimum(self) -> int:
        if self.streak == 0:
            return 6
        return self.r["raspasy_exit"][min(self.streak, 3) - 1]

    @property
    def finished(self) -> bool:
        if self.r["pulka_end"] == "total":
            return sum(self.pulya) >= self.n * self.P
        return all(p == self.P for p in self.pulya)

    # ---- writing on the sheet

    def _note(self, key: tuple, points) -> None:
        self._delta[key] = self._delta.get(key, Fraction(0)) + Fraction(points)

    def write_gora(self, who: int, points) -> None:
        self.gora[who] += Fraction(points)
        self._note((who, "gora", None), points)

    def write_whists(self, who: int, on: int, points) -> None:
        assert who != on
        self.whists[who][on] += Fraction(points)
        self._note((who, "whists", on), points)

    def _add_pulya(self, who: int, points) -> None:
        self.pulya[who] += Fraction(points)
        self._note((who, "pulya", None), points)

    def write_pulya(self, who: int, points) -> None:
        """A pulya write with the overflow rules of §8 / §14."""
        points = Fraction(points)
        if self.r["pulka_end"] == "total":
            self._add_pulya(who, points)
            return
        room = max(Fraction(0), self.P - self.pulya[who])
        own = min(points, room)
        if own:
            self._add_pulya(who, own)
        surplus = points - own
        if surplus <= 0:
            return
        if self.r["overflow"] == "help_then_writeoff":
            while surplus > 0:
                needy = [s for s in range(self.n) if s != who and self.pulya[s] < self.P]
                if not needy:
                    break
                # largest pulya first; ties: nearest clockwise from the helper
                helped = min(needy, key=lambda s: (-self.pulya[s], (s - who) % self.n))
                give = min(surplus, self.P - self.pulya[helped])
                self._add_pulya(helped, give)
                self.write_whists(who, helped, give * self.r["help_whists_per_point"])
                surplus -= give
        if surplus > 0:
            self.write_gora(who, -surplus * self.r["writeoff_gora_per_point"])

    # ---- deals

    def apply(self, deal: dict[str, Any]) -> None:
        self._delta = {}
        kind = deal["type"]
        if kind == "game":
            made = self._game(deal)
        elif kind == "misere":
            made = self._misere(deal)
        else:
            self._raspasy(deal)
            made = None
        if kind != "raspasy":
            if made or self.r["raspasy_exit_on"] == "any":
                self.streak = 0
        self.deals_done += 1
        self.deal_deltas.append({k: v for k, v in self._delta.items() if v != 0})

    def _tricks(self, deal: dict[str, Any]) -> dict[int, int]:
        return {self.seat[name]: count for name, count in (deal.get("tricks") or {}).items()}

    def _consolation(self, declarer: int, writers: list[int], undertricks: int, p: int) -> None:
        per = max(self.r["consolation_factor"] * p, self.r["consolation_min"])
        for w in writers:
            self.write_whists(w, declarer, per * undertricks)

    def _game(self, deal: dict[str, Any]) -> bool:
        r = self.r
        d = self.seat[deal["declarer"]]
        level, _strain = parse_contract(deal["contract"])
        p = price(level)
        wp = r["whist_factor"] * p  # whists per defender trick
        sp = r["shortfall_factor"] * p  # gora per missing trick of a whister
        first, second = self.defenders(d)
        dealer_out = self.sitting_out()
        tricks = self._tricks(deal)

        # checked ten: no words, always played, no obligation
        if level == 10 and r["ten_checked"]:
            if tricks[d] >= 10:
                self.write_pulya(d, p)
                return True
            u = level - tricks[d]
            self.write_gora(d, r["remiz_factor"] * p * u)
            writers = [first, second] + ([dealer_out] if dealer_out is not None and r["consolation_by_dealer"] else [])
            self._consolation(d, writers, u, p)
            if r["checked_ten_whists"]:
                for x in (first, second):
                    if tricks[x]:
                        self.write_whists(x, d, wp * tricks[x])
            return False

        words = {self.seat[name]: word for name, word in deal["whist"].items()}
        w1, w2 = words[first], words[second]
        whisters = [x for x in (first, second) if words[x] == "whist"]
        q = OBLIGATION[level]

        if not whisters:
            # both pass, or a half-whist accepted: no play, the contract counts as made
            self.write_pulya(d, p)
            if w2 == "half":
                assert w1 == "pass"
                self.write_whists(second, d, Fraction(q, 2) * wp)
            return True

        t_def = tricks[first] + tricks[second]
        if tricks[d] >= level:
            # made
            self.write_pulya(d, p)
            short = max(0, q - t_def)
            if len(whisters) == 1:
                w = whisters[0]
                passer = second if w == first else first
                if r["single_whist_made"] == "whister_all":
                    if t_def:
                        self.write_whists(w, d, wp * t_def)
                else:  # each_own
                    for x in (w, passer):
                        if tricks[x]:
                            self.write_whists(x, d, wp * tricks[x])
                if short:
                    self.write_gora(w, short * sp)
            else:
                for x in (first, second):
                    if tricks[x]:
                        self.write_whists(x, d, wp * tricks[x])
                if short:
                    if q >= 2:
                        quota = q // 2
                        for x in (first, second):
                            deficit = max(0, quota - tricks[x])
                            pen = deficit if r["shortfall_split"] == "personal" else min(deficit, short)
                            if pen:
                                self.write_gora(x, pen * sp)
                    else:  # q == 1, both took 0 tricks
                        mode = r["q1_responsible"]
                        if mode == "second_whister":
                            self.write_gora(second, sp)
                        elif mode == "split":
                            self.write_gora(first, sp / 2)
                            self.write_gora(second, sp / 2)
                        else:  # both
                            self.write_gora(first, sp)
                            self.write_gora(second, sp)
            return True

        # remiz
        u = level - tricks[d]
        self.write_gora(d, r["remiz_factor"] * p * u)
        if len(whisters) == 1:
            w = whisters[0]
            passer = second if w == first else first
            writers = [w] + ([passer] if r["consolation_by_passer"] else [])
        else:
            writers = [first, second]
        if dealer_out is not None and r["consolation_by_dealer"]:
            writers.append(dealer_out)
        self._consolation(d, writers, u, p)
        if len(whisters) == 1:
            if t_def:
                if r["single_whist_remiz"] == "greedy":
                    self.write_whists(w, d, wp * t_def)
                else:  # gentleman: split equally between whister and passer
                    self.write_whists(w, d, Fraction(wp * t_def, 2))
                    self.write_whists(passer, d, Fraction(wp * t_def, 2))
        else:
            for x in (first, second):
                if tricks[x]:
                    self.write_whists(x, d, wp * tricks[x])
        return False

    def _misere(self, deal: dict[str, Any]) -> bool:
        d = self.seat[deal["declarer"]]
        taken = self._tricks(deal)[d]
        if taken == 0:
            self.write_pulya(d, MISERE_PRICE)
            return True
        self.write_gora(d, self.r["misere_gora_per_trick"] * taken)
        return False

    def _raspasy(self, deal: dict[str, Any]) -> None:
        r = self.r
        k = self.streak + 1
        act = self.active()
        tricks = self._tricks(deal)
        dealer_out = self.sitting_out()
        talon = dealer_out is not None and r["raspasy_dealer"] == "talon"
        participants = act + ([dealer_out] if talon else [])
        t = {x: tricks.get(x, 0) for x in participants}

        if r["raspasy_scoring"] == "gora":
            per = by_k(r["raspasy_gora"], k)
            for x in participants:
                if t[x]:
                    self.write_gora(x, per * t[x])
        else:
            per = r["raspasy_whists_per_trick"]
            least = min(t[x] for x in act)  # the dealer's talon tricks do not compete for fewest
            lows = [x for x in act if t[x] == least]
            others = [x for x in participants if x not in lows]
            share = Fraction(1, len(lows)) if r["raspasy_tie"] == "split" else Fraction(1)
            for low in lows:
                for x in others:
                    if t[x]:
                        self.write_whists(low, x, per * t[x] * share)

        # pulya writes, one at a time, first hand clockwise, dealer last
        bonus = by_k(r["raspasy_zero_pulya"], k)
        for x in act:
            if t[x] == 0 and bonus:
                self.write_pulya(x, bonus)
        if dealer_out is not None and r["raspasy_dealer"] == "pulya_one":
            self.write_pulya(dealer_out, 1)
        self.streak += 1

    # ---- settlement (§15)

    def net(self) -> list[Fraction]:
        n = self.n
        gmean = sum(self.gora) / n
        pmean = sum(self.pulya) / n
        G, Pw = self.r["gora_point_whists"], self.r["pulya_point_whists"]
        return [
            sum((self.whists[i][j] - self.whists[j][i] for j in range(n) if j != i), Fraction(0))
            + G * (gmean - self.gora[i])
            + Pw * (self.pulya[i] - pmean)
            for i in range(n)
        ]

    def settlement(self) -> dict[str, Any]:
        net = self.net()
        balance = [round_half_away(x, 2) for x in net]
        money_cents = largest_remainder_cents([x * self.r["whist_price"] for x in net])
        transfers = greedy_transfers(money_cents)
        names = self.players
        return {
            "balance": {names[i]: balance[i] for i in range(self.n)},
            "money": {names[i]: Decimal(money_cents[i]) / 100 for i in range(self.n)},
            "transfers": [{"from": names[a], "to": names[b], "amount": Decimal(c) / 100} for a, b, c in transfers],
        }

    def result(self) -> dict[str, Any]:
        names = self.players
        n = self.n
        return {
            "finished": self.finished,
            "sheet": {
                "pulya": {names[i]: self.pulya[i] for i in range(n)},
                "gora": {names[i]: self.gora[i] for i in range(n)},
                "whists": {names[i]: {names[j]: self.whists[i][j] for j in range(n) if j != i} for i in range(n)},
            },
            "settlement": self.settlement(),
        }

    def named_deltas(self) -> list[dict[tuple, Fraction]]:
        """Per deal: {(player, column, on or None): net points}, names instead of seats."""
        names = self.players
        return [
            {(names[p], col, names[on] if on is not None else None): v for (p, col, on), v in delta.items()}
            for delta in self.deal_deltas
        ]


def round_half_away(x: Fraction, places: int) -> Decimal:
    """Round an exact number half away from zero."""
    scaled = abs(x) * 10**places
    whole = int(scaled)  # floor of a non-negative number
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    value = Decimal(whole) / Decimal(10**places)
    return -value if x < 0 else value


def largest_remainder_cents(amounts: list[Fraction]) -> list[int]:
    """§15: floor every amount to the cent, then give the missing cents to the largest remainders."""
    scaled = [a * 100 for a in amounts]
    floors = [x.numerator // x.denominator for x in scaled]
    missing = -sum(floors)  # the exact amounts sum to zero
    assert 0 <= missing < len(amounts) or not amounts
    order = sorted(range(len(amounts)), key=lambda i: (-(scaled[i] - floors[i]), i))
    for i in order[:missing]:
        floors[i] += 1
    return floors


def greedy_transfers(cents: list[int]) -> list[tuple[int, int, int]]:
    """§15: the largest debtor pays the largest creditor, repeatedly; ties: earlier seat."""
    left = list(cents)
    out = []
    while True:
        debtors = [i for i in range(len(left)) if left[i] < 0]
        creditors = [i for i in range(len(left)) if left[i] > 0]
        if not debtors or not creditors:
            break
        debtor = min(debtors, key=lambda i: (left[i], i))  # most negative
        creditor = min(creditors, key=lambda i: (-left[i], i))
        amount = min(-left[debtor], left[creditor])
        out.append((debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return out


def replay(data: dict[str, Any]) -> Reference:
    ref = Reference(data)
    for deal in data["deals"]:
        ref.apply(deal)
    return ref


def reference_result(data: dict[str, Any]) -> dict[str, Any]:
    return replay(copy.deepcopy(data)).result()
