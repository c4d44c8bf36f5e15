"""Reading and writing pulkas. Every write builds the new deal list, replays it with
the engine, and stores it only if it replays, in one transaction."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import pulyafile
from ..engine import Deal, DealResult, PulkaError, Replay, Rules, Settlement, Sheet, replay, settle
from . import convert
from .db import Database
from .errors import NotFound, Refused, refused_from
from .models import DealRow, PlayerRow, PulkaRow, SeatRow, now


@dataclass(frozen=True, eq=False)
class State:
    """A pulka as stored, replayed. Immutable, so one copy serves every request until the next write."""

    id: int
    uid: str
    version: int
    name: str
    currency: str
    players: tuple[str, ...]
    first_dealer: int
    rules: Rules
    deals: tuple[Deal, ...]
    replay: Replay
    created_at: datetime
    updated_at: datetime
    cache: dict = field(default_factory=dict, repr=False)  # derived views, built once per version

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def sheet(self) -> Sheet:
        return self.replay.sheet

    @cached_property
    def settlement(self) -> Settlement:
        return settle(self.sheet, self.rules)

    def sheet_before(self, number: int) -> Sheet:
        """The sheet deal `number` (1-based) was written on."""
        return self.replay.results[number - 2].sheet if number > 1 else self.replay.start

    def result(self, number: int) -> DealResult:
        if not 1 <= number <= len(self.deals):
            raise NotFound("deal")
        return self.replay.results[number - 1]

    def pulka(self) -> pulyafile.Pulka:
        return convert.pulka_of(self.players, self.rules, self.deals, self.first_dealer)

    def replay_with(self, deals: Sequence[Deal], focus: int | None = None, what: str = "",
                    shift: int | None = None) -> Replay:
        try:
            return replay(self.rules, self.n, deals, self.first_dealer)
        except PulkaError as error:
            raise refused_from(error, self.players, focus, what, shift) from None

    def preview(self, deal: Deal, number: int | None = None) -> DealResult:
        """What `deal` would write as deal `number` (default: the next one); Refused if invalid."""
        deals = list(self.deals)
        if number is None:
            number = len(deals) + 1
            deals.append(deal)
        else:
            self.result(number)
            deals[number - 1] = deal
        # Only the deals up to this one matter for what it writes; later ones are checked on save.
        return self.replay_with(deals[:number], number).results[number - 1]


class StateCache:
    """Replays by (uid, version): a sheet request costs one small query while nothing changed."""

    def __init__(self, size: int = 128):
        self.size = size
        self._items: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> State | None:
        with self._lock:
            state = self._items.get(key)
            if state is not None:
                self._items.move_to_end(key)
            return state

    def put(self, state: State) -> None:
        with self._lock:
            self._items[(state.uid, state.version)] = state
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@dataclass(frozen=True)
class Summary:
    id: int
    name: str
    players: tuple[str, ...]
    deals: int
    updated_at: datetime


def _state(row: PulkaRow, deals: tuple[Deal, ...], replayed: Replay | None = None) -> State:
    players = convert.players_of(row)
    rules = convert.rules_of(row)
    if replayed is None:
        # Stored deals replayed once already; a failure here means the rows were changed by hand.
        replayed = replay(rules, len(players), deals, row.first_dealer)
    return State(row.id, row.uid, row.version, row.name, row.currency, players, row.first_dealer, rules, deals,
                 replayed, row.created_at, row.updated_at)


_KEY = select(PulkaRow.uid, PulkaRow.version).where(PulkaRow.id == bindparam("id"))


class Store:
    def __init__(self, db: Database, cache: StateCache | None = None):
        self.db = db
        self.cache = cache or StateCache()

    # -- reading ----------------------------------------------------------------------

    def get(self, pulka_id: int) -> State:
        # A plain connection for the version check: the ORM session costs more than the page it guards.
        with self.db.engine.connect() as connection:
            key = connection.execute(_KEY, {"id": pulka_id}).first()
        if key is None:
            raise NotFound()
        state = self.cache.get(tuple(key))
        if state is None:
            with self.db.Session() as session:
                state = self._load(session, pulka_id)
            self.cache.put(state)
        return state

    def _load(self, session: Session, pulka_id: int) -> State:
        row = session.get(PulkaRow, pulka_id)
        if row is None:
            raise NotFound()
        rows = session.scalars(select(DealRow).where(DealRow.pulka_id == pulka_id).order_by(DealRow.position))
        return _state(row, tuple(convert.deal_of(r) for r in rows))

    def summaries(self) -> list[Summary]:
        with self.db.Session() as session:
            counts = dict(session.execute(
                select(DealRow.pulka_id, func.count()).group_by(DealRow.pulka_id)).all())
            rows = session.scalars(select(PulkaRow).order_by(PulkaRow.updated_at.desc(), PulkaRow.id.desc()))
            return [Summary(r.id, r.name, convert.players_of(r), counts.get(r.id, 0), r.updated_at) for r in rows]

    def player_names(self) -> list[str]:
        with self.db.Session() as session:
            return list(session.scalars(select(PlayerRow.name).order_by(PlayerRow.name)))

    # -- writing ----------------------------------------------------------------------

    def create(self, name: str, players: Sequence[str], first_dealer: int, rules: Rules, currency: str = "",
               deals: Sequence[Deal] = ()) -> State:
        """A new pulka (an import brings its deals). Refused if the deals do not replay."""
        players = tuple(players)
        try:
            replayed = replay(rules, len(players), deals, first_dealer)
        except PulkaError as error:
            raise refused_from(error, players, error.deal) from None
        for attempt in (1, 2):
            try:
                with self.db.Session.begin() as session:
                    row = PulkaRow(uid=uuid.uuid4().hex, name=name, rules=rules.overrides(), currency=currency,
                                   first_dealer=first_dealer, version=1)
                    row.seats = [SeatRow(seat=seat, player=player)
                                 for seat, player in enumerate(self._players(session, players))]
                    session.add(row)
                    session.flush()
                    for position, deal in enumerate(deals, 1):
                        session.add(DealRow(pulka_id=row.id, position=position, **convert.deal_row_values(deal)))
                    session.flush()
                    state = _state(row, tuple(deals), replayed)
                break
            except IntegrityError:
                # Another phone added one of these new players at the same moment: the second
                # attempt finds him and reuses him.
                if attempt == 2:
                    raise
        self.cache.put(state)
        return state

    def _players(self, session: Session, names: tuple[str, ...]) -> list[PlayerRow]:
        known = {p.name: p for p in session.scalars(select(PlayerRow).where(PlayerRow.name.in_(names)))}
        return [known.get(name) or PlayerRow(name=name) for name in names]

    def _write(self, pulka_id: int, expected: int | None,
               change: Callable[[Session, State, list[DealRow]], State]) -> State:
        with self.db.Session.begin() as session:
            # Bumping the version first locks the pulka (row lock in PostgreSQL, write lock in
            # SQLite), so concurrent writes to one pulka queue up instead of interleaving.
            version = session.execute(
                update(PulkaRow).where(PulkaRow.id == pulka_id)
                .values(version=PulkaRow.version + 1, updated_at=now())
                .returning(PulkaRow.version)).scalar_one_or_none()
            if version is None:
                raise NotFound()
            if expected is not None and expected != version - 1:
                raise Refused(409, "version_conflict",
                              "the pulka changed since this page was opened (someone entered or edited a deal): "
                              "check the sheet and try again")
            row = session.get(PulkaRow, pulka_id)
            rows = list(session.scalars(
                select(DealRow).where(DealRow.pulka_id == pulka_id).order_by(DealRow.position)))
            deals = tuple(convert.deal_of(r) for r in rows)
            cached = self.cache.get((row.uid, version - 1))
            before = _state(row, deals, cached.replay if cached is not None and cached.deals == deals else None)
            state = change(session, before, rows)
            session.flush()
        self.cache.put(state)
        return state

    def add_deal(self, pulka_id: int, make: Callable[[State], Deal], expected: int | None = None) -> State:
        """Append the deal `make` builds from the current state (a form needs the sheet it is entered on)."""

        def change(session: Session, state: State, rows: list[DealRow]) -> State:
            deal = make(state)
            number = len(state.deals) + 1
            deals = (*state.deals, deal)
            replayed = state.replay_with(deals, number)
            session.add(DealRow(pulka_id=pulka_id, position=number, **convert.deal_row_values(deal)))
            return _next(state, deals, replayed)

        return self._write(pulka_id, expected, change)

    def edit_deal(self, pulka_id: int, number: int, make: Callable[[State], Deal], expected: int | None = None) -> State:
        def change(session: Session, state: State, rows: list[DealRow]) -> State:
            state.result(number)
            deal = make(state)
            deals = list(state.deals)
            deals[number - 1] = deal
            replayed = state.replay_with(deals, number, f"This change to deal {number}")
            for column, value in convert.deal_row_values(deal).items():
                setattr(rows[number - 1], column, value)
            return _next(state, tuple(deals), replayed)

        return self._write(pulka_id, expected, change)

    def delete_deal(self, pulka_id: int, number: int | None = None, expected: int | None = None) -> State:
        """Delete deal `number`; None deletes the last one (undo)."""

        def change(session: Session, state: State, rows: list[DealRow]) -> State:
            at = number or len(state.deals)
            if at == 0:
                raise Refused(409, "no_deals", "there is no deal to undo")
            state.result(at)
            deals = state.deals[:at - 1] + state.deals[at:]
            replayed = state.replay_with(deals, None, f"Deleting deal {at}", shift=at)
            session.delete(rows[at - 1])
            session.flush()
            # Two steps, because (pulka_id, position) is unique at every row update in PostgreSQL.
            later = (DealRow.pulka_id == pulka_id) & (DealRow.position > at)
            unsynced = {"synchronize_session": False}
            session.execute(update(DealRow).where(later).values(position=-DealRow.position),
                            execution_options=unsynced)
            session.execute(update(DealRow).where((DealRow.pulka_id == pulka_id) & (DealRow.position < 0))
                            .values(position=-DealRow.position - 1), execution_options=unsynced)
            return _next(state, deals, replayed)

        return self._write(pulka_id, expected, change)

    def update_settings(self, pulka_id: int, expected: int | None = None, *, name: str | None = None,
                        currency: str | None = None, rules: Rules | None = None,
                        players: Sequence[str] | None = None, first_dealer: int | None = None) -> State:
        """Name and currency change any time; rules, players and the first dealer only before the first deal."""

        def change(session: Session, state: State, rows: list[DealRow]) -> State:
            row = session.get(PulkaRow, pulka_id)
            frozen = rules is not None or players is not None or first_dealer is not None
            if frozen and rows:
                raise Refused(409, "rules_frozen",
                              "the rules, players and first dealer are fixed once the first deal is entered")
            if name is not None:
                row.name = name
            if currency is not None:
                row.currency = currency
            if rules is not None:
                row.rules = rules.overrides()
            if players is not None:
                names = tuple(players)
                found = self._players(session, names)
                for seat in list(row.seats):
                    session.delete(seat)
                session.flush()
                row.seats = [SeatRow(seat=seat, player=player) for seat, player in enumerate(found)]
            if first_dealer is not None:
                row.first_dealer = first_dealer
            session.flush()
            return _state(row, state.deals)

        return self._write(pulka_id, expected, change)

    def delete_pulka(self, pulka_id: int) -> None:
        with self.db.Session.begin() as session:
            row = session.get(PulkaRow, pulka_id)
            if row is None:
                raise NotFound()
            session.delete(row)


def _next(state: State, deals: Sequence[Deal], replayed: Replay) -> State:
    return State(state.id, state.uid, state.version, state.name, state.currency, state.players,
                 state.first_dealer, state.rules, tuple(deals), replayed, state.created_at, now())
