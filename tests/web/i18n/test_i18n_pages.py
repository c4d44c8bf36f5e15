"""Every page in Russian, as Russian players write the pulya: the templates' headings, buttons, labels,
screen-reader texts and footnotes come from the catalog, the counts in the right plural form, and the PDF
too. Texts that come from Python (flashes, the engine's problems and reasons, the deal summaries) are
translated on their own and not checked here."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from ..conftest import add, create, signed_in, sochi
from ..pulkas.test_drawing import poppler

RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
# What a reader meets besides the text: announced by a screen reader, shown on hover, or shown by static/js.
SPOKEN = ("title", "aria-label", "alt", "placeholder", "data-ok", "data-bad", "data-unnamed")


class Visible(HTMLParser):
    """The text of a page a reader meets, without scripts, styles, <code>, the language switch and the drawing
    (its labels are Python's)."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style", "code", "svg") or (tag == "form" and "languages" in (attrs.get("class") or "")):
            self.skip += 1
        if self.skip:
            return
        self.parts += [attrs[name] for name in SPOKEN if attrs.get(name)]
        if tag == "template":  # what static/js/live.js says about a change
            self.parts += [value for name, value in attrs.items() if name.startswith("data-") and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code", "svg", "form") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible(response) -> str:
    assert response.status_code in (200, 404, 422), response.status_code
    parser = Visible()
    parser.feed(response.get_data(as_text=True))
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def speaks_russian(text: str, russian: list[str], english: list[str]) -> None:
    missing = [word for word in russian if word not in text]
    assert missing == [], f"missing {missing} in {text!r}"
    left = [word for word in english if re.search(rf"(?<![\w{{-]){re.escape(word)}(?![\w}}-])", text)]
    assert left == [], f"English left: {left} in {text!r}"


def test_the_sheet(client):
    pulka_id = sochi(client, deals=3)
    page = client.get(f"/p/{pulka_id}", headers=RU)
    assert '<html lang="ru">' in page.get_data(as_text=True)
    text = visible(page)
    speaks_russian(text, ["Пуля", "Гора", "Висты", "Баланс сейчас", "Игрок", "Деньги", "Сдача 4", "сдаёт",
                          "первая рука", "Записать сдачу 4", "Отменить сдачу 3", "Последняя сдача",
                          "Как на бумаге", "Как на столе", "Прямо", "История", "Расчёт", "Доступ", "3 сдачи",
                          "Сочи · пуля 10 · вист", "Записана сдача {deal} — {by}"],
                   ["Sheet", "History", "Settle", "Share", "Balance now", "Player", "Whists", "Money", "Pulya",
                    "Gora", "Enter deal", "Undo deal", "As on paper", "As at the table", "Upright", "first hand",
                    "Next deal", "Last deal", "The sheet", "Settings and files", "deals", "added by",
                    "This pulka is no longer shared with you."])
    assert re.search(r"(?i)пул[яь].*гор.*вист", text)


def test_the_finished_sheet_and_its_settlement(client):
    pulka_id = sochi(client)  # the 10 deals of docs/rules.md §10 finish it
    speaks_russian(visible(client.get(f"/p/{pulka_id}", headers=RU)),
                   ["Пулька расписана.", "Кто кому платит", "Ещё раз тем же составом", "пуля закрыта"],
                   ["The pulka is finished.", "See who pays whom", "Same players again", "closed"])
    speaks_russian(visible(client.get(f"/p/{pulka_id}/settlement", headers=RU)),
                   ["Расчёт", "Баланс", "Кто кому платит", "B → A", "Сумма", "Итого",  # no case to decline (issue 17)
                    "Проверка вручную (через амнистию)", "Наименьшая гора", "Стоимость виста", "в сумме ноль"],
                   ["Settlement", "Balances", "Who pays whom", "pays", "Sum", "Total", "Check it by hand",
                    "The smallest gora", "Whist price", "zero-sum", "PDF download"])


@pytest.mark.parametrize(("deals", "words"), [(1, "1 сдача"), (2, "2 сдачи"), (5, "5 сдач"), (11, "11 сдач"),
                                              (21, "21 сдача")])
def test_plurals_of_the_deals(client, deals, words):
    pulka_id = create(client, rules={"preset": "sochi", "pulya_size": 50, "whist_price": 1})
    for _ in range(deals):  # raspasy where everybody takes tricks: the pulka goes on
        assert add(client, pulka_id, {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}).status_code == 201
    sheet = visible(client.get(f"/p/{pulka_id}", headers=RU))
    assert re.search(rf"· {words}(?!\w)", sheet), sheet
    settlement = visible(client.get(f"/p/{pulka_id}/settlement", headers=RU))
    after = {1: "после 1 сдачи", 2: "после 2 сдач", 5: "после 5 сдач", 11: "после 11 сдач", 21: "после 21 сдачи"}
    assert after[deals] in settlement
    assert f"Распасы ×{deals} подряд" in sheet
    english = visible(client.get(f"/p/{pulka_id}"))
    assert f"· {deals} deal{'' if deals == 1 else 's'} " in english


def test_the_deal_form(client):
    pulka_id = sochi(client, deals=1)
    page = client.get(f"/p/{pulka_id}/deal", headers=RU)
    text = visible(page)
    speaks_russian(text, ["Сдача 2", "Что играли", "Игра", "Мизер", "Распасы", "Разыгрывающий", "Вист или пас",
                          "Взятки", "вист", "пас", "полвиста", "в тёмную", "в светлую", "1-я рука",
                          "Записать сдачу 2", "Просмотр", "Будет записано", "Пока нельзя записать",
                          "A: вист", "B: пас", "C, первая рука", "A: 1 взятка", "A: 2 взятки", "A: 5 взяток",
                          "A: 10 взяток", "A: 0 взяток", "Одного игрока оставьте пустым"],
                   ["Deal", "What was played", "Game", "Misère", "Raspasy", "Declarer", "Contract",
                    "Defenders' words", "Tricks", "whist", "pass", "half", "closed", "open", "1st hand", "Save deal",
                    "Preview", "Will be written", "Not yet", "trick", "tricks", "first hand", "deals"])
    edit = visible(client.get(f"/p/{pulka_id}/deals/1/edit", headers=RU))
    speaks_russian(edit, ["Правка сдачи 1", "Сохранить правку", "следующие сдачи пересчитываются"],
                   ["Edit deal", "Save the change", "Every later deal"])


def test_a_refused_deal_lists_its_problems_in_russian_words(client):
    pulka_id = create(client)
    page = client.post(f"/p/{pulka_id}/deal", headers=RU, data={"type": "game", "action": "save"})
    assert "Не сохранено" in visible(page) and "Not saved" not in visible(page)


def test_four_players_who_sits_out(client):
    pulka_id = create(client, ["Аня", "Борис", "Вера", "Гоша"])
    text = visible(client.get(f"/p/{pulka_id}/deal", headers=RU))
    speaks_russian(text, ["Аня сдаёт и сидит на прикупе", "на прикупе", "Аня (прикуп, распасы)",
                          "Аня (прикуп): 2 взятки"], ["sits out", "talon", "deals"])


def test_the_history(client):
    pulka_id = sochi(client, deals=2)
    text = visible(client.get(f"/p/{pulka_id}/history", headers=RU))
    speaks_russian(text, ["История", "Протокол в CSV", "Экспорт (файл pulya/1)", "Отменить сдачу 2", "Править",
                          "Удалить", "сдаёт A", "висты на игрока B: 12", "гора +12"],
                   ["History", "Protocol as CSV", "Export", "Undo deal", "Edit", "Delete", "deals"])
    empty = visible(client.get(f"/p/{create(client)}/history", headers=RU))
    assert "Сдач пока нет." in empty and "No deals yet" not in empty


def test_the_new_pulka_and_settings(client):
    text = visible(client.get("/new", headers=RU))
    speaks_russian(text, ["Новая пулька", "Игроки по часовой стрелке", "4 (только вчетвером)", "Первым сдаёт",
                          "игрок 1", "Правила", "Сочи", "Ленинград", "Ростов", "Размер пули", "Стоимость виста",
                          "Валюта", "Все параметры правил", "Начать пульку"],
                   ["New pulka", "Players", "First dealer", "Rules", "Sochi", "Leningrad", "Rostov",
                    "Pulya size", "Whist price", "Currency", "Every rule", "Start the pulka"])
    pulka_id = sochi(client, deals=1)
    settings = visible(client.get(f"/p/{pulka_id}/settings", headers=RU))
    speaks_russian(settings, ["Настройки", "Название", "Игроки", "первый сдающий — A", "Файлы", "Протокол (CSV)",
                              "PDF (пуля, протокол, расчёт)", "Удалить пульку", "Сохранить"],
                   ["Settings", "Name", "Players", "Preset", "Files", "Protocol", "Delete the pulka", "Save"])


def test_the_home_import_and_confirm(client):
    pulka_id = sochi(client, deals=2)
    home = visible(client.get("/", headers=RU))
    speaks_russian(home, ["Новая пулька", "Импорт из файла", "Пульки", "сдача 3", "впереди"],
                   ["New pulka", "Import a file", "Pulkas", "deal", "leads", "lead"])
    speaks_russian(visible(client.get("/import", headers=RU)),
                   ["Импорт пульки", "Файл", "или вставьте его текст", "Название (необязательно)", "Импорт"],
                   ["Import", "File", "or paste its text", "Name", "becomes a new pulka"])
    confirm = visible(client.get(f"/p/{pulka_id}/deals/2/delete", headers=RU))
    speaks_russian(confirm, ["Отмена", "Пуля", "История"], ["Cancel", "Sheet", "History"])


def test_the_shares(client):
    pulka_id = create(client)
    client.post(f"/p/{pulka_id}/shares", data={"role": "scorer", "label": ""}, headers=RU)
    text = visible(client.get(f"/p/{pulka_id}/shares", headers=RU))
    speaks_russian(text, ["Доступ к пульке", "Зритель", "записывающий", "Новая ссылка для", "зрителя",
                          "записывающего", "Создать ссылку", "Ссылки", "Ссылка для записи",
                          "Адрес ссылки для записи", "Создана", "ещё не открывалась", "Отозвать ссылку",
                          "«телефон Ани»"],
                   ["Share", "viewer", "A new link for", "Make the link", "Links", "Scorer link",
                    "Address", "Made", "not used yet", "Revoke this link"])


def test_the_accounts_pages(app, client):
    speaks_russian(visible(client.get("/account", headers=RU)),
                   ["Администратор этого сервера.", "Аккаунт с", "Смена пароля", "Текущий пароль", "Новый пароль",
                    "Сменить", "Выйти"],
                   ["Administrator", "Account since", "Change the password", "Current password", "New password",
                    "Change it", "Log out"])
    signed_in(app, "boris", "boris-password")
    speaks_russian(visible(client.get("/admin", headers=RU)),
                   ["Аккаунты", "Имя пользователя", "Создан", "Пульки", "(админ)", "Отключить",
                    "Отключить аккаунт boris", "Задать пароль", "Новый пароль для аккаунта boris", "Новый аккаунт",
                    "Завести аккаунт", "Регистрация открыта"],
                   ["Accounts", "Username", "Since", "Pulkas", "(admin)", "Disable", "Set password", "Set",
                    "New account", "Make the account", "Registration"])
    anonymous = app.test_client()
    speaks_russian(visible(anonymous.get("/login", headers=RU)),
                   ["Войти", "Имя пользователя", "Пароль", "Ещё нет аккаунта?", "Заведите", "аккаунт не нужен"],
                   ["Log in", "Username", "Password", "No account yet?", "Make one", "needs no account"])
    speaks_russian(visible(anonymous.get("/register", headers=RU)),
                   ["Новый аккаунт", "Имя пользователя", "Пароль (не короче 8 символов)", "Завести аккаунт",
                    "Уже есть аккаунт?", "Войдите"],
                   ["New account", "Username", "Password", "Make the account", "Have one?", "Log in"])


def test_not_found_and_offline(app, client):
    text = visible(client.get("/p/nothing-here", headers=RU))
    assert "К пулькам" in text and "To the pulkas" not in text
    offline = visible(app.test_client().get("/offline", headers=RU))
    speaks_russian(offline, ["Нет связи", "К пулькам"], ["No connection", "To the pulkas", "connection"])


def test_the_pdf_in_russian(client):
    pulka_id = sochi(client, deals=4)
    response = client.get(f"/p/{pulka_id}/pulka.pdf", headers=RU)
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    text = poppler("pdftotext", response.data)
    for words in ("пуля", "гора", "Пуля", "Гора", "Протокол сдач", "Расчёт на сейчас", "Игроки (по часовой стрелке)",
                  "Правила: Сочи", "Баланс", "Через амнистию", "Кто кому платит", "Правила полностью",
                  "Висты на игрока A", "Страница 1 из"):
        assert words in text, words
    for words in ("Protocol of deals", "Settlement", "Players (clockwise)", "Rules:", "Balances", "Amnesty form",
                  "Who pays whom", "Page 1 of", "Whists on"):
        assert words not in text, words
    english = poppler("pdftotext", client.get(f"/p/{pulka_id}/pulka.pdf").data)
    assert "Protocol of deals" in english and "Page 1 of" in english and "Протокол сдач" not in english


def test_the_script_has_no_words_of_its_own():
    """The scripts (every module under static/js) show only texts they read from the page (data attributes,
    #live-texts): no sentence of their own."""
    from scorekeeper.resources import STATIC_DIR

    scripts = sorted(path for path in (STATIC_DIR / "js").rglob("*") if path.is_file())
    assert scripts  # not an empty list passing for a quiet one
    code = re.sub(r"//[^\n]*", "", "\n".join(path.read_text() for path in scripts))
    literals = re.findall(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`]*`", code)
    words = [text for text in literals if re.search(r"[A-Za-z]{2,} [a-z]{2,}|^.[A-Z][a-z]+[ .!]|[A-Za-z]{3,} \$\{", text)]
    assert [text for text in words if text != '"use strict"' and not re.match(r"^.[.#\[]", text)] == []  # not selectors


def test_the_outbox_in_russian(client):
    """The notice of writes kept on the phone (templates/_outbox.html): each of Russian's three plural forms for
    static/js/outbox.js to choose by Intl.PluralRules, and the page a kept write leads to."""
    page = client.get("/", headers=RU).get_data(as_text=True)
    notice = re.search(r"<section class=\"outbox\"[^>]*>", page).group(0)
    for form, words in (("one", "{n}\u00a0сдача ждёт отправки"), ("few", "{n}\u00a0сдачи ждут отправки"),
                        ("many", "{n}\u00a0сдач ждут отправки"), ("refused-head", "Не отправлено"),
                        ("sent", "Отправлено: {label}"), ("waiting", "ждёт отправки"), ("unnamed", "Сдача")):
        assert f' data-{form}="{words}' in notice, (form, notice)
    assert "waiting to send" not in page and "Discard" not in page and ">Open<" not in page
    english = client.get("/").get_data(as_text=True)
    assert 'data-one="{n} deal waiting to send"' in english and 'data-many="{n} deals waiting to send"' in english
    speaks_russian(visible(client.get("/outbox", headers=RU)),
                   ["Сохранено на телефоне", "Сервер сейчас недоступен", "Записать следующую сдачу", "К пуле",
                    "К пулькам"],
                   ["Kept on this phone", "Enter the next deal", "The sheet", "To the pulkas"])


def test_no_english_word_is_left_on_the_russian_pages(client):
    """Nothing but the data (the pulka's name, made by the API in English) and the app's own name is in Latin
    letters: no code or English word of a rule, a choice or a heading (a rule's meaning once named its
    choices «greedy» and «gentleman» in Russian)."""
    uid = sochi(client, 3)
    allowed = {"scorekeeper", "owner", "Pulka", "pulya"}  # the app, the caller, the name, pulya/1 (a file format)
    for path in ["/", "/new", "/import", "/paper", "/players", "/ledger", "/account", "/admin", f"/p/{uid}",
                 f"/p/{uid}/deal", f"/p/{uid}/history", f"/p/{uid}/settlement", f"/p/{uid}/settings",
                 f"/p/{uid}/shares", f"/p/{uid}/deals/1/edit", f"/p/{uid}/close", f"/p/{uid}/remove"]:
        text = re.sub(r"\{[a-z_]+\}", "", visible(client.get(path, headers=RU)))  # static/js fills these in
        latin = set(re.findall(r"[A-Za-z]{4,}", text)) - allowed
        assert latin == set(), (path, latin)
