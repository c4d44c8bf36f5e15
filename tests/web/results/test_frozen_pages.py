"""A frozen pulka says what the caller can do, on every page that shows it, in both languages: its owner
reopens it (the button right there); a scorer's link enters and changes nothing more, and is told that only
the owner reopens; a viewer's link reads it. No page promises an edit or a delete it cannot make."""

from __future__ import annotations

import pytest

from ..conftest import SOCHI, add, sochi, text

OWNER_CAN = {"en": "To change a deal, reopen the pulka", "ru": "Чтобы исправить сдачу, откройте пульку снова"}
SCORER_CAN = {"en": "Only its owner can reopen it.", "ru": "Открыть пульку снова может только её владелец."}
# What a frozen pulka must never promise (the words of a finished pulka that is open again).
PROMISE = {"en": "You can still edit or delete", "ru": "Прежние сдачи ещё можно исправить или удалить"}
# Why the form is not shown, by how the pulka ended.
NO_MORE = {("finished", "en"): "The pulka is finished: no more deals.", ("finished", "ru"): "Пулька расписана: сдач больше нет.",
           ("closed", "en"): "The pulka is closed: no more deals.", ("closed", "ru"): "Пулька закрыта: сдач больше нет."}
NOT_NOW = {("finished", "en"): "The pulka is finished: its deals cannot be changed now.",
           ("finished", "ru"): "Пулька расписана: сдачи сейчас не изменить.",
           ("closed", "en"): "The pulka is closed: its deals cannot be changed now.",
           ("closed", "ru"): "Пулька закрыта: сдачи сейчас не изменить."}


def _phones(app, client, uid):
    """The owner's client, and a phone that opened a scorer link and one that opened a viewer link."""
    phones = {"owner": client}
    for role in ("scorer", "viewer"):
        token = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": role}).json["token"]
        phones[role] = app.test_client()
        assert phones[role].get(f"/s/{token}").status_code == 302
    return phones


@pytest.fixture(params=["finished", "closed"])
def frozen(request, app, client):
    """A pulka its last deal finished, or one its owner closed after four deals."""
    if request.param == "finished":
        uid = sochi(client)
    else:
        uid = sochi(client, 4)
        assert client.post(f"/api/v1/pulkas/{uid}/close").status_code == 200
    return uid, _phones(app, client, uid), request.param


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_role_is_told_what_it_can_do_on_the_sheet_and_the_history(frozen, language):
    uid, phones, ending = frozen
    lang = {"Accept-Language": language}
    for path in (f"/p/{uid}", f"/p/{uid}/history"):
        owner, scorer, viewer = (phones[role].get(path, headers=lang) for role in ("owner", "scorer", "viewer"))
        assert owner.status_code == scorer.status_code == viewer.status_code == 200
        owner_html, scorer_html, viewer_html = (r.get_data(as_text=True) for r in (owner, scorer, viewer))
        # the owner: what reopening does, and its button right there
        assert OWNER_CAN[language] in text(owner) and f'action="/p/{uid}/reopen"' in owner_html, path
        assert SCORER_CAN[language] not in text(owner)
        # a scorer's link: nothing more, and who can reopen; no button to reopen, edit, delete or undo
        assert SCORER_CAN[language] in text(scorer), path
        assert OWNER_CAN[language] not in text(scorer)
        for html in (scorer_html, viewer_html):
            assert f"/p/{uid}/reopen" not in html and f"/p/{uid}/deals/1/edit" not in html
            assert f"/p/{uid}/deals/1/delete" not in html and f'action="/p/{uid}/undo"' not in html
        # a viewer's link: neither, it changes nothing anyway
        assert SCORER_CAN[language] not in text(viewer) and OWNER_CAN[language] not in text(viewer)
        for response in (owner, scorer, viewer):
            assert PROMISE[language] not in text(response)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("role", ["owner", "scorer"])
def test_a_frozen_pulkas_forms_lead_to_the_page_that_says_why(frozen, role, language):
    """The deal form, an edit and a delete of a frozen pulka are not shown: the sheet or the history says
    why, and what this caller can do."""
    uid, phones, ending = frozen
    phone, lang = phones[role], {"Accept-Language": language}
    for path, to, said in ((f"/p/{uid}/deal", f"/p/{uid}", NO_MORE), (f"/p/{uid}/deals/2/edit", f"/p/{uid}/history", NOT_NOW),
                           (f"/p/{uid}/deals/2/delete", f"/p/{uid}/history", NOT_NOW)):
        response = phone.get(path, headers=lang)
        assert response.status_code == 302 and response.headers["Location"] == to, path
        page = text(phone.get(to, headers=lang))
        assert said[ending, language] in page and PROMISE[language] not in page
        assert (OWNER_CAN if role == "owner" else SCORER_CAN)[language] in page


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_refused_save_on_a_frozen_pulka_says_what_the_scorer_can_do(app, frozen, language):
    """A deal form opened before the pulka froze, saved after: refused (409), the form says so, and that only
    the owner reopens it."""
    uid, phones, ending = frozen
    from ..conftest import form_fields

    response = phones["scorer"].post(f"/p/{uid}/deal", data=form_fields(SOCHI["deals"][4]),
                                     headers={"Accept-Language": language})
    assert response.status_code == 409
    assert SCORER_CAN[language] in text(response) and PROMISE[language] not in text(response)


def test_a_reopened_finished_pulka_still_says_its_deals_can_be_changed(client):
    """Open again and finished still, its deals can be edited and deleted, and the deal form says so."""
    uid = sochi(client)
    assert client.post(f"/api/v1/pulkas/{uid}/reopen").status_code == 200
    response = client.get(f"/p/{uid}/deal")
    assert response.status_code == 302
    assert PROMISE["en"] in text(client.get(f"/p/{uid}"))
    assert f"/p/{uid}/deals/10/edit" in client.get(f"/p/{uid}/history").get_data(as_text=True)
    assert add(client, uid, SOCHI["deals"][0]).json["error"]["code"] == "pulka_finished"
