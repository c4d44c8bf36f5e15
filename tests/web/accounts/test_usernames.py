"""Accounts a hostile caller would make or break: exactly one administrator however many register at once;
usernames that look alike are one name (NFKC, casefolded), and one mixing Latin and Cyrillic is refused; a
stranger's wrong passwords never lock the owner out, while guessing from one address is still stopped."""

from __future__ import annotations

import threading
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, insert, select, text
from sqlalchemy.exc import IntegrityError

from scorekeeper.web.domain import accounts as rules
from scorekeeper.web.domain.accounts import check_username, username_key
from scorekeeper.web.domain.refusals import AccountInvalid
from scorekeeper.web.store.db import upgrade
from scorekeeper.web.store.models import AccountRow

from ..conftest import make_app, snapshot

PASSWORD = "a long password"
BOUNDED = settings(max_examples=60, derandomize=True, deadline=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture])


def register(client, username: str):
    return client.post("/api/v1/accounts", json={"username": username, "password": PASSWORD})


def token(client, username: str, password: str = PASSWORD, address: str = "127.0.0.1"):
    return client.post("/api/v1/tokens", json={"username": username, "password": password},
                       environ_base={"REMOTE_ADDR": address})


def _admins(app) -> list[str]:
    with app.extensions["scorekeeper"].db.engine.connect() as connection:
        return list(connection.scalars(select(AccountRow.username).where(AccountRow.is_admin)))


# -- 11. one administrator -------------------------------------------------------------------------


def test_registrations_at_once_make_one_administrator(app):
    names = [f"player{i}" for i in range(12)]
    start, answers = threading.Barrier(len(names)), {}

    def one(name: str) -> None:
        client = app.test_client()
        start.wait(timeout=30)
        answers[name] = register(client, name)

    threads = [threading.Thread(target=one, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(answers) == sorted(names) and {r.status_code for r in answers.values()} == {201}
    admins = [name for name, response in answers.items() if response.json["admin"]]
    assert len(admins) == 1 and _admins(app) == admins


def test_the_database_itself_refuses_a_second_administrator(app):
    register(app.test_client(), "anna")
    with pytest.raises(IntegrityError), app.extensions["scorekeeper"].db.engine.begin() as connection:
        connection.execute(insert(AccountRow).values(username="boris", username_key="boris", password_hash="x",
                                                     is_admin=True, disabled=False, session_epoch=1))


def test_the_upgrade_keeps_the_first_of_several_administrators(database_url, tmp_path):
    engine = create_engine(database_url)
    upgrade(engine, "0006")  # before the one administrator
    with engine.begin() as connection:
        for i, name in enumerate(["Anna", "Boris", "ａｎｎａ", "Vera"], 1):  # fullwidth: a homoglyph of Anna's
            connection.execute(text("INSERT INTO accounts (id, username, username_key, password_hash, is_admin, "
                                    "disabled, session_epoch, created_at) VALUES (:id, :name, :key, 'x', :admin, "
                                    "false, 1, CURRENT_TIMESTAMP)"),
                               {"id": i, "name": name, "key": name.casefold(), "admin": i < 4})
    engine.dispose()
    app = make_app(database_url, tmp_path)
    assert _admins(app) == ["Anna"]
    with app.extensions["scorekeeper"].db.engine.connect() as connection:
        keys = dict(connection.execute(select(AccountRow.username, AccountRow.username_key)).all())
    assert keys["Anna"] == "anna" and keys["Boris"] == "boris" and keys["ａｎｎａ"] != "anna"
    assert register(app.test_client(), "ANNA").status_code == 422
    app.extensions["scorekeeper"].db.engine.dispose()


# -- 12. names that look alike ---------------------------------------------------------------------

ALIKE = ["anna", "ANNA", "Anna", "ａｎｎａ", "ＡＮＮＡ", " anna ", "ａnna"]
RING = ["Ånna", "A\u030anna", "\u212bnna", "å\u0301nna"[:0] + "ånna", "a\u030anna"]
MIXED = ["аnna", "annа", "Аnna", "pаssword", "Jоhn", "Вopис", "αnna"]


def test_names_that_look_alike_are_one_account(app):
    client = app.test_client()
    assert register(client, "anna").status_code == 201
    assert register(client, "Ånna").status_code == 201
    for name in ALIKE[1:] + RING:
        response = register(client, name)
        assert (response.status_code, response.json["error"]["field"]) == (422, "username"), name
    assert token(client, "ＡＮＮＡ").status_code == 201  # and either spelling logs in
    assert token(client, "\u212bnna").status_code == 201


def test_a_name_mixing_latin_and_cyrillic_is_refused(app):
    client = app.test_client()
    before = snapshot(app)
    for name in MIXED:
        response = register(client, name)
        assert (response.status_code, response.json["error"]["code"], response.json["error"]["field"]) == (
            422, "bad_account", "username"), name
        assert client.post("/register", data={"username": name, "password": PASSWORD}).status_code == 422
    assert snapshot(app) == before
    for name in ("Анна", "Борис Петров", "anna_1", "Zoë", "Ёжик", "Αθηνά", "名前"):
        assert register(client, name).status_code == 201, name


@BOUNDED
@given(name=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=45))
def test_the_name_kept_is_the_name_compared(name):
    try:
        kept = check_username(name)
    except AccountInvalid:
        return
    assert kept == unicodedata.normalize("NFKC", kept) and len(kept) <= 40
    assert username_key(kept) == username_key(name) == username_key(username_key(kept))
    assert len(username_key(kept)) <= 120  # the column's size
    assert username_key(kept.upper()) == username_key(kept.lower()) or not kept.isascii()


def test_a_name_nfkc_writes_long_fits_its_column(app):
    client = app.test_client()
    response = register(client, "\ufdfa" * 40)  # each is 18 letters in NFKC
    assert (response.status_code, response.json["error"]["field"]) == (422, "username")
    assert register(client, "\ufdfa").status_code == 201  # kept as its 18 letters, which fit


# -- 13. a stranger cannot lock the owner out ----------------------------------------------------


def test_a_stranger_s_failures_never_lock_the_owner_out(app):
    client = app.test_client()
    register(client, "anna")
    for attempt in range(rules.FAILURES_PER_ADDRESS):
        assert token(client, "anna", "wrong password", "10.6.6.6").status_code in (401, 429)
    assert token(client, "anna", address="10.6.6.6").status_code == 429  # the guesser is stopped
    assert token(client, "anna", address="10.0.0.1").status_code == 201  # the owner, elsewhere, is not
    response = client.post("/login", data={"username": "anna", "password": PASSWORD},
                           environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert response.status_code == 302


def test_guessing_from_many_addresses_meets_the_ceiling_but_not_the_owner(app):
    client = app.test_client()
    register(client, "anna")
    per = rules.FAILURES_PER_PAIR - 1  # each address stays under its own limit
    for i in range(rules.FAILURES_PER_ACCOUNT // per + 1):
        for _ in range(per):
            token(client, "anna", "wrong password", f"10.7.{i // 250}.{i % 250}")
    response = token(client, "anna", address="10.7.0.0")  # an address that failed: past the ceiling it waits
    assert (response.status_code, response.json["error"]["code"]) == (429, "too_many_attempts")
    assert response.headers["Retry-After"] == str(int(rules.WINDOW.total_seconds()))
    assert token(client, "anna", address="10.9.9.9").status_code == 201  # one that never failed logs in


def test_a_right_password_after_failures_clears_only_that_address(app):
    client = app.test_client()
    register(client, "anna")
    for _ in range(rules.FAILURES_PER_PAIR - 1):
        token(client, "anna", "wrong password", "10.1.1.1")
        token(client, "anna", "wrong password", "10.2.2.2")
    assert token(client, "anna", address="10.1.1.1").status_code == 201
    for _ in range(rules.FAILURES_PER_PAIR - 1):
        assert token(client, "anna", "wrong password", "10.1.1.1").status_code == 401
    token(client, "anna", "wrong password", "10.2.2.2")
    assert token(client, "anna", address="10.2.2.2").status_code == 429
    page = client.post("/login", data={"username": "anna", "password": PASSWORD},
                       environ_base={"REMOTE_ADDR": "10.2.2.2"})
    assert page.status_code == 429 and page.headers["Retry-After"]
