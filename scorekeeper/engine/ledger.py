"""The club ledger's arithmetic (docs/club.md §3): debts carried from one evening to the next, in one currency.

An obligation is a transfer of a frozen pulka (docs/rules.md §15); a payment is a row of its own, never edited,
and taking one back is a further row, its reversal. Everything shown — balances, what is paid on an
obligation, what is still open on it, who owes and since when — is derived from the rows each time. Amounts
are whole cents (Decimal).

Who owes is read from the balances, never pair by pair: a club settles through whoever is at hand (Вера pays
Дима what she owed Борис while Дима pays Борис), so a pair's rows alone say nothing of what is owed.

Players and ids are opaque keys (the web layer's are strings); players are also sorted, which is what
makes every answer the same for the same rows in any order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from .cash import in_cash
from .settlement import Transfer
from .settlement import _transfers as fewest_payments

# Beyond this many nonzero balances (left once opposite pairs are matched), the subset DP's 2ⁿ sums no
# longer fit a request: settle_up falls back to the greedy rule. A count, not a clock: the engine has none.
EXACT_UP_TO = 20


class _Key(Protocol):
    def __hash__(self) -> int: ...
    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=_Key)  # a player
I = TypeVar("I", bound=Hashable)  # an id: of an obligation, a payment, a pulka
E = TypeVar("E", bound=_Key)  # when a pulka ended: what orders its obligations, and what `since` tells


class PaymentKind(StrEnum):
    PAYMENT = "payment"  # entered by hand
    MARK = "mark"  # made by marking an obligation paid: what unmarking takes back, and only that
    REVERSAL = "reversal"  # takes back the payment its `reverses` names


class ObligationStatus(StrEnum):
    PAID = "paid"  # the payments linked to it add up to its amount, or more
    SETTLED = "settled"  # nothing open: the rest of its debtor's rows cover it
    PART = "part"  # some of it open
    OPEN = "open"  # all of it open


def _cents(amount: Decimal) -> int:
    scaled = amount.scaleb(2)
    if not scaled.is_finite() or scaled != scaled.to_integral_value():
        raise ValueError(f"an amount is a whole number of cents, not {amount}")
    return int(scaled)


def _decimal(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


@dataclass(frozen=True)
class Obligation(Generic[K, I]):
    """`debtor` owes `creditor` `amount` (docs/club.md's `from` and `to`)."""
    id: I
    pulka: I
    debtor: K
    creditor: K
    amount: Decimal
    currency: str

    def __post_init__(self) -> None:
        if _cents(self.amount) <= 0 or self.debtor == self.creditor:
            raise ValueError("an obligation is a positive amount between two players")


@dataclass(frozen=True)
class Payment(Generic[K, I]):
    """`payer` paid `payee` `amount`, on `obligation` or on none. A reversal repeats the payer, payee,
    amount and obligation of the payment it takes back, and counts as minus it: so each row's effect is
    its own, whichever rows are listed with it."""
    id: I
    payer: K
    payee: K
    amount: Decimal
    currency: str
    obligation: I | None = None
    reverses: I | None = None
    kind: PaymentKind = PaymentKind.PAYMENT

    def __post_init__(self) -> None:
        if _cents(self.amount) <= 0 or self.payer == self.payee:
            raise ValueError("a payment is a positive amount between two players")
        if (self.kind is PaymentKind.REVERSAL) != (self.reverses is not None):
            raise ValueError("a reversal, and only a reversal, names the payment it takes back")

    @property
    def cents(self) -> int:
        """What the row adds to the payments from payer to payee, in cents."""
        cents = _cents(self.amount)
        return -cents if self.kind is PaymentKind.REVERSAL else cents


@dataclass(frozen=True)
class SettleUp(Generic[K]):
    payments: tuple[Transfer[K], ...]
    exact: bool  # the count is proven the fewest (False: the greedy rule, past EXACT_UP_TO)


def _check(obligations: Collection[Obligation[K, I]], payments: Collection[Payment[K, I]]) -> None:
    """Rows a ledger can be made of: one currency, distinct ids, each payment taken back at most once and
    by a reversal that repeats it (a reversal of a payment not listed is taken as it stands)."""
    if len({o.currency for o in obligations} | {p.currency for p in payments}) > 1:
        raise ValueError("a ledger is of one currency")
    if len({o.id for o in obligations}) < len(obligations) or len({p.id for p in payments}) < len(payments):
        raise ValueError("two rows with one id")
    by_id = {p.id: p for p in payments}
    reversed_ids: set[I] = set()
    for row in payments:
        if row.reverses is None:
            continue
        if row.reverses in reversed_ids:
            raise ValueError(f"payment {row.reverses!r} is taken back twice")
        reversed_ids.add(row.reverses)
        target = by_id.get(row.reverses)
        if target is not None and (target.kind is PaymentKind.REVERSAL or
                                   (target.payer, target.payee, target.amount, target.obligation) !=
                                   (row.payer, row.payee, row.amount, row.obligation)):
            raise ValueError(f"reversal {row.id!r} does not repeat the payment it takes back")


def balances(obligations: Collection[Obligation[K, I]], payments: Collection[Payment[K, I]]) -> dict[K, Decimal]:
    """What each player on a row is owed (positive) or owes (negative): obligations to him − obligations from
    him − payments received + payments made. Every player on a row is listed, even at 0, in sorted order;
    the amounts sum to exactly 0."""
    _check(obligations, payments)
    net: dict[K, int] = {}
    for p in payments:
        net[p.payer] = net.get(p.payer, 0) + p.cents
        net[p.payee] = net.get(p.payee, 0) - p.cents
    return _balances(obligations, net)


def balances_of(obligations: Collection[Obligation[K, I]], paid: Mapping[K, Decimal]) -> dict[K, Decimal]:
    """The balances, as `balances` gives them, from the obligations and what each player on a payment paid less
    what he received (`paid`, reversals counted as minus, each player on a payment listed, even at 0): what a
    database sums without handing over every payment."""
    return _balances(obligations, {player: _cents(amount) for player, amount in paid.items()})


def _balances(obligations: Collection[Obligation[K, I]], paid: Mapping[K, int]) -> dict[K, Decimal]:
    cents = dict(paid)
    for o in obligations:
        cents[o.creditor] = cents.get(o.creditor, 0) + _cents(o.amount)
        cents[o.debtor] = cents.get(o.debtor, 0) - _cents(o.amount)
    return {player: _decimal(cents[player]) for player in sorted(cents)}


def _paid_cents(obligation: Obligation[K, I], payments: Collection[Payment[K, I]]) -> int:
    _check((obligation,), payments)
    return sum(p.cents for p in payments if p.obligation == obligation.id)


def paid(obligation: Obligation[K, I], payments: Collection[Payment[K, I]]) -> Decimal:
    """The payments linked to the obligation, less their reversals. Who paid whom is not looked at: a
    payment is linked to an obligation by the one who records it."""
    return _decimal(_paid_cents(obligation, payments))


@dataclass(frozen=True)
class Open(Generic[K, I]):
    """An obligation as it stands among every row of the ledger: `paid` on it (its linked payments), `open`
    (what is still owed on it once its debtor's other rows are counted) and its status."""
    obligation: Obligation[K, I]
    paid: Decimal
    open: Decimal
    status: ObligationStatus


@dataclass(frozen=True)
class Owed(Generic[K, E]):
    """A player whose balance is below 0: he owes `amount` (−balance), since the end of the pulka of his
    oldest obligation with an open part (None when none has one: he owes on no obligation)."""
    player: K
    amount: Decimal
    since: E | None


@dataclass(frozen=True)
class LedgerStanding(Generic[K, I, E]):
    """The whole ledger as it stands: the balances (as `balances` gives them), who owes (by player), and each
    obligation as it stands (in the order given)."""
    balances: dict[K, Decimal]
    owed: tuple[Owed[K, E], ...]
    obligations: tuple[Open[K, I], ...]


def _id_order(id: Hashable) -> tuple[int, Any]:
    """Ids as the API writes them: numbers numerically, text by code point (numbers first)."""
    if isinstance(id, (int, Decimal)) and not isinstance(id, bool):
        return 0, id
    return 1, str(id)


def ledger_standing(obligations: Collection[Obligation[K, I]], payments: Collection[Payment[K, I]],
                    ended: Mapping[I, E]) -> LedgerStanding[K, I, E]:
    """Balances, who owes since when, and each obligation's `open` and status (docs/club.md §3); `ended`: when
    each obligation's pulka ended (by pulka id), which orders a debtor's obligations, the oldest first (then
    by id).

    Each obligation of a debtor starts with max(0, amount − paid) open. What his other rows cover,
    C = his balance + those open parts, closes them oldest first when C > 0. C is the contract's "payments he
    made on no obligation (or on one withdrawn since) + obligations others owe him − payments he received"
    whenever each payment on an obligation is made by its debtor; counted from the balance it also takes in
    a payment he made on another's obligation, and what he overpaid on one of his, so that the open parts
    add up to max(0, −balance) whenever C ≥ 0. When C < 0 (he was paid more than he was owed) nothing
    closes: the rest of his debt is owed on no obligation.
    """
    found = balances(obligations, payments)
    paid_cents = {o.id: 0 for o in obligations}
    for p in payments:
        if p.obligation in paid_cents:
            paid_cents[p.obligation] += p.cents
    own: dict[K, list[Obligation[K, I]]] = {}
    for o in sorted(obligations, key=lambda o: order_key(o, ended[o.pulka])):
        own.setdefault(o.debtor, []).append(o)
    left: dict[I, int] = {}
    since: dict[K, E] = {}
    for debtor, theirs in own.items():
        for o, still in zip(theirs, _left(_cents(found[debtor]), theirs, paid_cents)):
            left[o.id] = still
            if still and debtor not in since:
                since[debtor] = ended[o.pulka]
    owed = tuple(Owed(player, -amount, since.get(player)) for player, amount in found.items() if amount < 0)
    return LedgerStanding(found, owed, tuple(_open(o, paid_cents[o.id], left[o.id]) for o in obligations))


def debtor_standing(balance: Decimal, theirs: Sequence[Obligation[K, I]], paid: Mapping[I, Decimal]
                    ) -> tuple[Open[K, I], ...]:
    """One debtor's obligations as `ledger_standing` finds them, from his `balance` alone: `theirs`, every
    obligation of his in the currency, oldest first (by its pulka's end, then id); `paid`, what the payments
    linked to each paid (by id, none: 0). What a write answers for one obligation, without the other rows."""
    paid_cents = {o.id: _cents(paid.get(o.id, Decimal(0))) for o in theirs}
    return tuple(_open(o, paid_cents[o.id], still)
                 for o, still in zip(theirs, _left(_cents(balance), theirs, paid_cents)))


def _left(balance: int, theirs: Sequence[Obligation[K, I]], paid_cents: Mapping[I, int]) -> list[int]:
    """What is still open on each of a debtor's obligations (oldest first), in cents, `balance` his."""
    opens = [max(0, _cents(o.amount) - paid_cents[o.id]) for o in theirs]
    cover = balance + sum(opens)
    left = []
    for still in opens:
        closed = min(max(cover, 0), still)
        cover -= closed
        left.append(still - closed)
    return left


def order_key(obligation: Obligation[K, I], ended: E) -> tuple[E, tuple[int, Any]]:
    """Where an obligation stands among its debtor's: the oldest pulka first, then by id."""
    return ended, _id_order(obligation.id)


def _open(obligation: Obligation[K, I], paid_cents: int, left: int) -> Open[K, I]:
    amount = _cents(obligation.amount)
    if paid_cents >= amount:
        state = ObligationStatus.PAID
    elif not left:
        state = ObligationStatus.SETTLED
    else:
        state = ObligationStatus.PART if left < amount else ObligationStatus.OPEN
    return Open(obligation, _decimal(paid_cents), _decimal(left), state)


def reversal(payment: Payment[K, I], id: I) -> Payment[K, I]:
    """The row that takes `payment` back (it stays listed, and so does this one)."""
    if payment.kind is PaymentKind.REVERSAL:
        raise ValueError("a reversal is not taken back: the payment is made again")
    return replace(payment, id=id, reverses=payment.id, kind=PaymentKind.REVERSAL)


def mark_paid(obligation: Obligation[K, I], payments: Collection[Payment[K, I]], id: I) -> Payment[K, I] | None:
    """The payment, from debtor to creditor, of amount − paid (docs/club.md §3: what its own payments have not
    paid, whatever his other rows cover); None when paid ≥ amount, so that marking twice pays once."""
    left = _cents(obligation.amount) - _paid_cents(obligation, payments)
    if left <= 0:
        return None
    return Payment(id, obligation.debtor, obligation.creditor, _decimal(left), obligation.currency,
                   obligation=obligation.id, kind=PaymentKind.MARK)


def unmark(obligation: Obligation[K, I], payments: Collection[Payment[K, I]],
           new_id: Callable[[Payment[K, I]], I]) -> tuple[Payment[K, I], ...]:
    """The reversals of the payments marks made on the obligation that are not yet taken back, in the order
    of `payments`; `new_id` gives each reversal its id. Payments entered by hand stay."""
    _check((obligation,), payments)
    taken_back = {p.reverses for p in payments}
    return tuple(reversal(p, new_id(p)) for p in payments
                 if p.kind is PaymentKind.MARK and p.obligation == obligation.id and p.id not in taken_back)


def settle_up(balances: Mapping[K, Decimal], unit: Decimal | None = None) -> SettleUp[K]:
    """The fewest payments that bring every balance (cents, summing to 0) to 0; with a cash `unit`, that bring
    the balances rounded to it as a settlement's cash is (engine.cash) to 0, so each payment is whole units
    and what the rounding moved (less than a unit each) stays owed.

    Payments join players into groups, each summing to 0, and a group of g takes at least g − 1 of them, as
    g − 1 do (the largest debtor pays the largest creditor, docs/rules.md §15, ≤ g − 1 times): so the fewest are
    n − the most disjoint zero-sum groups of the n nonzero balances.
    The greedy rule alone is not minimal: +4 +3 +3 −6 −4 take it 4 payments, {+4 −4} {+3 +3 −6} three.
    Past EXACT_UP_TO balances left once opposite pairs are matched, those left settle by the greedy rule: the
    pairs and the rule each take O(n log n), so a club of thousands of open balances settles in a request.
    """
    players = sorted(balances)
    cents = [_cents(balances[player]) for player in players]
    if sum(cents):
        raise ValueError("balances to settle sum to 0")
    if unit is not None:
        cents = [_cents(amount) for amount in in_cash([Decimal(c).scaleb(-2) for c in cents], unit)]
    nonzero = [i for i, c in enumerate(cents) if c]
    groups, rest = _opposites(nonzero, cents)
    exact = len(rest) <= EXACT_UP_TO
    if exact:
        groups += [[rest[i] for i in group] for group in _most_zero_groups([cents[i] for i in rest])]
    elif rest:
        groups.append(rest)
    payoffs = [Transfer(players[group[t.payer]], players[group[t.payee]], t.amount)
               for group in groups for t in fewest_payments([cents[i] for i in group])]
    return SettleUp(tuple(sorted(payoffs, key=lambda p: (p.payer, p.payee))), exact)


def _opposites(indices: list[int], cents: list[int]) -> tuple[list[list[int]], list[int]]:
    """Pairs x, −x, each a group of its own, and the rest. Some best grouping has every such pair apart: a
    group holding both splits in two, and two groups holding one each regroup as the pair and the others."""
    waiting: dict[int, deque[int]] = {}  # a queue: the earliest waiting is matched first, in O(1)
    pairs = []
    for i in indices:
        match = waiting.get(-cents[i])
        if match:
            pairs.append([match.popleft(), i])
        else:
            waiting.setdefault(cents[i], deque()).append(i)
    paired = {i for pair in pairs for i in pair}
    return pairs, [i for i in indices if i not in paired]


def _most_zero_groups(values: list[int]) -> list[list[int]]:
    """The most disjoint groups of `values` (nonzero, summing to 0) that each sum to 0, as lists of indices.

    The DP over subsets: best(S) of a zero-sum set S is 1 + the best of the zero-sum sets strictly inside it,
    and the groups are the differences along the longest such chain ending at the whole. It is kept as
    its level sets, one bit per subset in a Python int: level k holds the zero-sum sets with best ≥ k,
    and level k + 1 is the zero-sum sets strictly above one of level k, which the superset transform
    finds with a shift per element (n big-int steps, not 2ⁿ·n Python ones).
    """
    n = len(values)
    if not n:
        return []
    sums = [0]
    for value in values:
        sums += [s + value for s in sums]  # bit i of a subset's index: values[i] in it
    bits = bytearray(1 << n >> 3 or 1)
    subset = 0
    while True:  # list.index searches in C: few subsets sum to 0, and a loop over all 2ⁿ would be the cost
        try:
            subset = sums.index(0, subset + 1)
        except ValueError:
            break
        bits[subset >> 3] |= 1 << (subset & 7)
    zero = int.from_bytes(bits, "little")
    without = [_without(i, n) for i in range(n)]  # the subsets without element i

    def strictly_above(sets: int) -> int:
        grown = 0
        for i in range(n):
            grown |= (sets & without[i]) << (1 << i)
        for i in range(n):
            grown |= (grown & without[i]) << (1 << i)
        return grown

    levels = [zero]
    while nxt := zero & strictly_above(levels[-1]):
        levels.append(nxt)
    groups = []
    whole = (1 << n) - 1  # zero-sum, and above every other zero-sum set: on the top level
    for level in reversed(levels[:-1]):
        inside = 1 << whole
        for i in range(n):
            if whole >> i & 1:
                inside |= inside >> (1 << i)
        below = level & inside & ~(1 << whole)
        lower = (below & -below).bit_length() - 1  # the smallest: the same answer every time
        groups.append(whole ^ lower)
        whole = lower
    groups.append(whole)
    return [[i for i in range(n) if group >> i & 1] for group in reversed(groups)]


def _without(i: int, n: int) -> int:
    """The bit set of the subsets of n elements that leave element i out (bit s: subset s)."""
    if i < 3:
        pattern = bytes([(0x55, 0x33, 0x0F)[i]])
    else:
        pattern = b"\xff" * (1 << i >> 3) + b"\x00" * (1 << i >> 3)
    return int.from_bytes(pattern * max(1, (1 << n >> 3) // len(pattern)), "little") & ((1 << (1 << n)) - 1)
