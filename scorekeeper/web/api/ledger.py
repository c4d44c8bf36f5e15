"""The club ledger (docs/club.md §3): the caller's ledger in one currency (its balances, who owes since when, each
obligation's open part and status), payments and their reversals, paid marks, the suggested settle-up recorded."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from flask import request, url_for
from flask.typing import ResponseReturnValue

from ...engine import Owed, Transfer
from ..domain.ledger import Ledger, Line, MarkPaid, Row, TakeBack, read_cash, read_payment, read_settle_up
from ..domain.limits import PAGE_ROWS
from ..domain.paging import CURSOR_MAX, Window, read_cursor, window
from ..edge.access import Need, needs
from ..edge.caller import actor, me
from ..edge.context import limits, store
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body
from ..services import ledger as ledger_service
from .blueprint import bp
from .openapi import describe
from .schema import IDEMPOTENCY_KEY, errors


def amount(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def debt_json(debt: Transfer[str]) -> dict[str, object]:
    return {"from": debt.payer, "to": debt.payee, "amount": amount(debt.amount)}


def owed_json(owed: Owed[str, datetime]) -> dict[str, object]:
    """A player whose balance is below 0: what he owes, since the date his oldest open obligation's pulka ended."""
    return {"player": owed.player, "amount": amount(owed.amount),
            "since": None if owed.since is None else owed.since.date().isoformat()}


def obligation_json(line: Line) -> dict[str, object]:
    entry, o = line.entry, line.entry.obligation
    return {"id": o.id, "pulka": o.pulka, "from": o.debtor, "to": o.creditor, "amount": amount(o.amount),
            "currency": o.currency, "title": entry.title, "date": entry.day.isoformat(), "paid": amount(line.paid),
            "open": amount(line.open), "status": line.status.value}


def payment_json(row: Row, taken_back: frozenset[str] = frozenset()) -> dict[str, object]:
    p = row.payment
    return {"id": p.id, "from": p.payer, "to": p.payee, "amount": amount(p.amount), "currency": p.currency,
            "obligation": p.obligation, "note": row.note, "kind": p.kind.value, "reverses": p.reverses,
            "reversed": p.id in taken_back, "by": row.by, "at": row.at.isoformat()}


def ledger_json(book: Ledger, shown: Window, cash: Decimal | None = None) -> dict[str, object]:
    """The whole ledger's figures, with one page (`shown`) of its obligations and payments."""
    settled = book.settle_up_in(cash)
    return {"currency": book.currency, "currencies": list(book.currencies),
            "players": [{"id": p.id, "name": p.name} for p in sorted(book.players.values(), key=lambda p: p.id)
                        if p.id in book.balances],
            "balances": {player: amount(value) for player, value in book.balances.items()},
            "owed": [owed_json(o) for o in book.owed],
            "obligations": [obligation_json(line) for line in shown.lines],
            "payments": [payment_json(row, book.taken_back) for row in shown.payments],
            "settle_up": [debt_json(p) for p in settled.payments], "exact": settled.exact,
            "cash": None if cash is None else amount(cash)}


@bp.get("/ledger")
@needs(Need.ACCOUNT)  # the account's, and the lines of pulkas shared with it
def ledger() -> ResponseReturnValue:
    """The ledger's figures, and a page of its obligations and payments (`cursor`: the page `next` names)."""
    cash = read_cash(request.args.get("cash"))
    start = read_cursor(request.args.get("cursor"))
    book = ledger_service.ledger(store().ledger, me(), request.args.get("currency"))
    shown = window(book, start, limits().page_rows)
    older = None if shown.older is None else url_for(".ledger", currency=book.currency,
                                                     cash=request.args.get("cash") or None, cursor=shown.older.text())
    return ledger_json(book, shown, cash) | {"next": older}


@bp.post("/ledger/payments")
@needs(Need.ACCOUNT)  # the ledger's owner writes, as the use case decides
@idempotent
def add_payment() -> ResponseReturnValue:
    command = read_payment(json_body())
    return write(lambda unit: ledger_service.pay(unit.ledger, me(), command, actor()),
                 lambda row: json_answer(201, payment_json(row)))


@bp.delete("/ledger/payments/<payment>")
@needs(Need.ACCOUNT)
@idempotent
def take_back_payment(payment: str) -> ResponseReturnValue:
    return write(lambda unit: ledger_service.take_back(unit.ledger, me(), TakeBack(payment), actor()),
                 lambda row: json_answer(200, payment_json(row)))


@bp.post("/ledger/obligations/<obligation>/paid")
@needs(Need.ACCOUNT)
@idempotent
def mark_paid(obligation: str) -> ResponseReturnValue:
    json_body(optional=True)  # none is needed; one sent must still be JSON, as on every POST
    return write(lambda unit: ledger_service.mark(unit.ledger, me(), MarkPaid(obligation), actor()),
                 lambda line: json_answer(200, obligation_json(line)))


@bp.delete("/ledger/obligations/<obligation>/paid")
@needs(Need.ACCOUNT)
@idempotent
def unmark_paid(obligation: str) -> ResponseReturnValue:
    return write(lambda unit: ledger_service.mark(unit.ledger, me(), MarkPaid(obligation, paid=False), actor()),
                 lambda line: json_answer(200, obligation_json(line)))


@bp.post("/ledger/settle-up")
@needs(Need.ACCOUNT)
@idempotent
def record_settle_up() -> ResponseReturnValue:
    body = json_body()
    command = read_settle_up(body.get("currency", ""), body.get("note"), body.get("cash"), body.get("pulka"))
    return write(lambda unit: ledger_service.settle(unit.ledger, me(), command, actor()),
                 lambda rows: json_answer(201, {"payments": [payment_json(row) for row in rows]}))


# This module's part of the API's document (openapi.py assembles the parts).
# docs/club.md §3: the caller's ledger in one currency, its payments, paid marks and the settle-up.
AMOUNT = {"oneOf": [{"type": "number"}, {"type": "string"}],
          "description": "above 0, in whole cents: a JSON number, or text of ASCII digits with one decimal separator "
                         "('.' or ','), no sign, exponent, underscore or space inside"}
# A cash unit (10: tens of roubles): each balance rounded to it first, so every payment is whole units.
CASH = AMOUNT | {"description": "a cash unit to settle up in (whole cents); none: to the cent"}
PAYMENT = {"type": "object", "required": ["from", "to", "amount"], "properties": {
    "from": {"type": "string", "description": "a player id of the caller's circle"}, "to": {"type": "string"},
    "amount": AMOUNT, "currency": {"type": "string", "maxLength": 8, "description": (
        "one line of characters that show; one of the caller's ledger or pulkas, or a new one, never one of them "
        "written otherwise (eur for EUR)")},
    "obligation": {"type": ["string", "null"]}, "note": {"type": "string", "maxLength": 200}}}
OBLIGATION = {"name": "obligation", "in": "path", "required": True, "schema": {"type": "string"}}
MONEY = {"type": "number", "description": "exact, to the cent"}
OBLIGATION_ROW = {"type": "object", "required": ["id", "pulka", "from", "to", "amount", "currency", "paid", "open",
                                                 "status"], "properties": {
    "id": {"type": "string"}, "pulka": {"type": "string"}, "from": {"type": "string", "description": "owes"},
    "to": {"type": "string"}, "amount": MONEY, "currency": {"type": "string"},
    "paid": MONEY | {"description": "the payments linked to it, less their reversals"},
    "open": MONEY | {"description": "what is still owed on it once its debtor's other rows are counted"},
    "status": {"type": "string", "enum": ["paid", "settled", "part", "open"]},
    "title": {"type": "string"}, "date": {"type": "string", "format": "date"}}}
LEDGER = {"type": "object", "required": ["currency", "balances", "owed", "obligations", "payments", "settle_up",
                                         "next"],
          "properties": {
    "currency": {"type": "string"},
    "balances": {"type": "object", "additionalProperties": MONEY,
                 "description": "by player id: owed to him (+) or owed by him (−); they sum to 0"},
    "owed": {"type": "array", "description": "each player whose balance is below 0 (none when all are 0)",
             "items": {"type": "object", "required": ["player", "amount", "since"], "properties": {
                 "player": {"type": "string"}, "amount": MONEY | {"description": "−balance"},
                 "since": {"type": ["string", "null"], "format": "date",
                           "description": "when the pulka of his oldest obligation with an open part ended"}}}},
    "obligations": {"type": "array", "items": OBLIGATION_ROW,
                    "description": f"a page of them, at most {PAGE_ROWS}, the latest pulka first"},
    "payments": {"type": "array", "items": {"type": "object"},
                 "description": f"a page of them, at most {PAGE_ROWS}, the latest first"},
    "next": {"type": ["string", "null"],
             "description": "the address (on this server) of the next page: the obligations and payments older "
                            "than this page's, and the same figures; null on the page of the oldest rows"},
    "settle_up": {"type": "array", "description": "the fewest payments that bring every balance to 0",
                  "items": {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"},
                                                             "amount": MONEY}}}}}
describe({
    "/api/v1/ledger": {"get": {
        "summary": "The caller's ledger in one currency: balances, who owes (from the balances, with since when), "
                   "obligations with what is open on each and its status, payments, the fewest payments to settle "
                   "(docs/club.md §3); the obligations and payments a page at a time, `next` leading to the rest",
        "parameters": [{"name": "currency", "in": "query", "schema": {"type": "string", "maxLength": 8},
                        "description": "none: the currency used last"},
                       {"name": "cash", "in": "query", "schema": CASH},
                       {"name": "cursor", "in": "query", "schema": {"type": "string", "maxLength": CURSOR_MAX},
                        "description": "where the page starts, from the `next` of the page before (none: the "
                                       "latest rows)"}],
        "responses": {"200": {"description": "the ledger", "content": {"application/json": {"schema": LEDGER}}}}
        | errors(400)}},
    "/api/v1/ledger/payments": {"post": {
        "summary": "Record a payment (between players of the caller's own circle)", "parameters": [IDEMPOTENCY_KEY],
        "requestBody": {"required": True, "content": {"application/json": {"schema": PAYMENT}}},
        "responses": {"201": {"description": "the payment"}} | errors(400, 403, 415, 422)}},
    "/api/v1/ledger/payments/{payment}": {"parameters": [
        {"name": "payment", "in": "path", "required": True, "schema": {"type": "string"}}], "delete": {
        "summary": "Take a payment back: a reversing row is added, both stay listed",
        "parameters": [IDEMPOTENCY_KEY],
        "responses": {"200": {"description": "the reversal"}} | errors(403, 404, 409, 422)}},
    "/api/v1/ledger/obligations/{obligation}/paid": {"parameters": [OBLIGATION], "post": {
        "summary": "Pay amount − paid on the obligation, from its debtor to its creditor (a second call changes "
                   "nothing)",
        "parameters": [IDEMPOTENCY_KEY],
        "responses": {"200": {"description": "the obligation", "content": {"application/json": {
            "schema": OBLIGATION_ROW}}}} | errors(400, 403, 404, 415, 422)},
        "delete": {"summary": "Reverse the payments the obligation's paid marks made", "parameters": [IDEMPOTENCY_KEY],
                   "responses": {"200": {"description": "the obligation", "content": {"application/json": {
                       "schema": OBLIGATION_ROW}}}} | errors(403, 404, 422)}},
    "/api/v1/ledger/settle-up": {"post": {
        "summary": "Record the suggested settle-up of a currency as payments: of everyone, or of one pulka's "
                   "players when they owe only each other (docs/club.md §4)", "parameters": [IDEMPOTENCY_KEY],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object",
                        "properties": {"currency": {"type": "string"}, "note": {"type": "string"},
                                       "cash": CASH, "pulka": {
                                           "type": ["string", "null"],
                                           "description": "a pulka's id: settle its players alone"}}}}}},
        "responses": {"201": {"description": "the payments recorded"}} | errors(400, 403, 404, 415, 422)}},
})
