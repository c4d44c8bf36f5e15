"""Accounts and API tokens."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask.typing import ResponseReturnValue

from ...i18n.words import Msg
from ..domain.accounts import TOKEN_PREFIX, read_account
from ..domain.idempotency import Answer
from ..domain.limits import USERNAME_MAX
from ..domain.refusals import Refused
from ..edge.access import Need, needs
from ..edge.caller import caller
from ..edge.context import store
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body
from ..services import accounts as account_service
from .blueprint import bp
from .openapi import describe
from .schema import IDEMPOTENCY_KEY, answer, errors, ref


@bp.post("/accounts")
@needs(Need.ANYONE)  # open registration, or the administrator: decided by the use case
@idempotent
def create_account() -> ResponseReturnValue:
    """A new account: while registration is open, or by the administrator's token (whose key it may bring;
    one registering has no keys: edge.caller.scope)."""
    data = json_body()
    command = read_account(data.get("username"), data.get("password"))
    return write(lambda unit: account_service.register(unit.accounts, command, by=caller().account,
                                                       open_registration=current_app.config["REGISTRATION"] == "open"),
                 lambda account: json_answer(201, {"username": account.username, "admin": account.is_admin}))


@bp.post("/tokens")
@needs(Need.ANYONE)
def create_token() -> ResponseReturnValue:
    """A token for `Authorization: Bearer`, in exchange for the username and password. Not a unit of work's
    write: a failed log-in is counted whether or not anything else is written, and the answer, the token
    itself, is never stored (only its hash is), so no idempotency key keeps it."""
    data = json_body()
    account = account_service.authenticate(store().accounts, data.get("username"), data.get("password"),
                                    request.remote_addr or "")
    return jsonify({"token": account_service.new_token(store().accounts, account), "username": account.username}), 201


@bp.delete("/tokens/current")
@needs(Need.ACCOUNT)
@idempotent
def revoke_token() -> ResponseReturnValue:
    """Revoke the token this request carries."""
    token = caller().bearer
    if not token or not token.startswith(TOKEN_PREFIX):
        raise Refused(Msg("call this with the token to revoke, as Authorization: Bearer <token>"), "Authorization")
    return write(lambda unit: account_service.revoke_token(unit.accounts, token), lambda _: Answer(204))


# This module's part of the API's document (openapi.py assembles the parts).
describe({
    "/api/v1/accounts": {
        "post": {"summary": "A new account (while registration is open, or by the administrator's token); "
                            "the first account of a server is its administrator", "parameters": [IDEMPOTENCY_KEY],
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("Credentials")}}},
                 "responses": {"201": {"description": "created"}} | errors(400, 403, 415, 422)}},
    "/api/v1/tokens": {
        "post": {"summary": "A bearer token for the API, in exchange for a username and password",
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("Credentials")}}},
                 "responses": {"201": answer({"type": "object", "required": ["token"], "properties": {
                     "token": {"type": "string"}, "username": {"type": "string"}}}, "the token")}
                              | errors(400, 401, 415, 429)}},
    "/api/v1/tokens/current": {
        "delete": {"summary": "Revoke the token this request is made with", "parameters": [IDEMPOTENCY_KEY],
                   "responses": {"204": {"description": "revoked"}} | errors(400, 422)}},
}, {
    "Credentials": {"type": "object", "required": ["username", "password"], "properties": {
        "username": {"type": "string", "minLength": 1, "maxLength": USERNAME_MAX},
        "password": {"type": "string", "minLength": 8, "maxLength": 200}}},
})
