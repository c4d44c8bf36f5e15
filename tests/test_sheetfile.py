"""scorekeeper/sheetfile.py and the `opening` of pulyafile: the paper sheet's file as docs/files.md §4 and §5
describe them."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.files import pulyafile, sheetfile
from scorekeeper.files.pulyafile import FileError

MM = {
    "format": "pulya-sheet/1",
    "players": ["Аня", "Борис", "Вера"],
    "rules": {"preset": "sochi", "whist_price": 0.5},
    "pulya": {"Аня": 20, "Борис": 14, "Вера": 20},
    "gora": {"Аня": 42, "Борис": 96, "Вера": 132},
    "whists": {"Аня": {"Борис": 170, "Вера": 60},
               "Борис": {"Аня": 64, "Вера": 178},
               "Вера": {"Аня": 88, "Борис": 95}},
}


def sheet(**changes) -> dict:
    data = copy.deepcopy(MM)
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


def error(data: object) -> tuple[str, str]:
    with pytest.raises(FileError) as caught:
        sheetfile.parse(data)
    return caught.value.problem.code.value, caught.value.problem.field


def test_the_result_of_the_format_example():
    result = sheetfile.result_json(sheetfile.parse(MM))
    assert list(result) == ["format", "players", "rules", "sheet", "settlement"]
    assert result["format"] == "pulya-result/1" and result["rules"]["pulya_point_whists"] == 10
    assert result["sheet"] == {k: MM[k] for k in ("pulya", "gora", "whists")}
    s = result["settlement"]
    assert s["amnesty"] == 42
    assert s["pairwise"] == {"Аня": {"Борис": 306, "Вера": 272}, "Борис": {"Аня": -306, "Вера": 183},
                             "Вера": {"Аня": -272, "Борис": -183}}
    assert s["balance"] == {"Аня": 578, "Борис": -123, "Вера": -455}
    assert s["money"] == {"Аня": 289, "Борис": -61.5, "Вера": -227.5}
    assert s["transfers"] == [{"from": "Вера", "to": "Аня", "amount": 227.5},
                              {"from": "Борис", "to": "Аня", "amount": 61.5}]


def test_pulya_and_whists_may_be_left_out():
    result = sheetfile.result_json(sheetfile.parse(sheet(pulya=None, whists=None)))
    assert result["sheet"]["pulya"] == {"Аня": 0, "Борис": 0, "Вера": 0}
    # gora alone: ḡ = 90; 10·(90 − g) = 480, −60, −420
    assert result["settlement"]["balance"] == {"Аня": 480, "Борис": -60, "Вера": -420}


def test_a_pulya_counted_down():
    down = sheet(pulya={"Аня": 0, "Борис": 6, "Вера": 0}, pulya_counts_down=True)
    assert sheetfile.result_json(sheetfile.parse(down)) == sheetfile.result_json(sheetfile.parse(MM))
    assert error(down | {"pulya": {"Аня": 0, "Борис": 21, "Вера": 0}}) == ("bad_number", "pulya.Борис")
    assert error(sheet(pulya_counts_down="yes")) == ("bad_format", "pulya_counts_down")


def test_halves_and_a_negative_gora():
    data = sheet(rules={"preset": "rostov"}, gora={"Аня": -4.5, "Борис": 6, "Вера": 1.5},
                 whists={"Аня": {"Борис": 12.5}})
    result = sheetfile.result_json(sheetfile.parse(data))
    assert result["settlement"]["amnesty"] == -4.5
    assert result["sheet"]["gora"]["Аня"] == -4.5 and result["sheet"]["whists"]["Аня"]["Борис"] == 12.5
    assert result["sheet"]["whists"]["Борис"] == {"Аня": 0, "Вера": 0}


@pytest.mark.parametrize("changes,expected", [
    ({"pulya": {"Аня": -1, "Борис": 14, "Вера": 20}}, ("bad_number", "pulya.Аня")),
    ({"pulya": {"Аня": 20, "Борис": 14.5, "Вера": 20}}, ("bad_number", "pulya.Борис")),
    ({"pulya": {"Аня": 20, "Борис": "14", "Вера": 20}}, ("bad_number", "pulya.Борис")),
    ({"pulya": {"Аня": 20, "Борис": True, "Вера": 20}}, ("bad_number", "pulya.Борис")),
    ({"pulya": {"Аня": 20, "Борис": 10001, "Вера": 20}}, ("bad_number", "pulya.Борис")),
    ({"pulya": {"Аня": 20, "Вера": 20}}, ("bad_number", "pulya.Борис")),
    ({"gora": {"Аня": 42, "Вера": 132}}, ("bad_number", "gora.Борис")),
    ({"gora": {"Аня": 42.3, "Борис": 96, "Вера": 132}}, ("bad_number", "gora.Аня")),
    ({"gora": {"Аня": -10000.5, "Борис": 96, "Вера": 132}}, ("bad_number", "gora.Аня")),
    ({"gora": {"Аня": None, "Борис": 96, "Вера": 132}}, ("bad_number", "gora.Аня")),
    ({"whists": {"Аня": {"Вера": -1}}}, ("bad_number", "whists.Аня.Вера")),
    ({"whists": {"Аня": {"Вера": 1000000.5}}}, ("bad_number", "whists.Аня.Вера")),
    ({"whists": {"Аня": {"Аня": 0}}}, ("self_whists", "whists.Аня.Аня")),
    ({"whists": {"Аня": {"Гена": 5}}}, ("unknown_player", "whists.Аня.Гена")),
    ({"whists": {"Гена": {"Аня": 5}}}, ("unknown_player", "whists.Гена")),
    ({"gora": {"Аня": 42, "Борис": 96, "Вера": 132, "Гена": 0}}, ("unknown_player", "gora.Гена")),
    ({"whists": {"Аня": [1, 2]}}, ("bad_format", "whists.Аня")),
    ({"gora": [42, 96, 132]}, ("bad_format", "gora")),
    ({"gora": None}, ("bad_format", "gora")),
    ({"deals": []}, ("bad_format", "deals")),
    ({"format": "pulya/1"}, ("bad_format", "format")),
    ({"players": ["Аня", "Борис"]}, ("bad_players", "players")),
    ({"rules": {"preset": "kiev"}}, ("unknown_preset", "rules.preset")),
    ({"rules": {"preset": "sochi", "gora_point_whists": -1}}, ("bad_parameter", "rules.gora_point_whists")),
])
def test_every_value_is_checked_on_its_field(changes, expected):
    assert error(sheet(**changes)) == expected


def test_the_first_code_in_the_order_wins():
    # bad_number before self_whists before unknown_player (docs/files.md §5)
    data = sheet(gora={"Аня": 42, "Борис": 96, "Вера": 132, "Гена": 1}, whists={"Аня": {"Аня": 0, "Вера": -1}})
    assert error(data) == ("bad_number", "whists.Аня.Вера")
    assert error(sheet(gora={"Аня": 42, "Борис": 96, "Вера": 132, "Гена": 1}, whists={"Вера": {"Вера": 1}})) == \
        ("self_whists", "whists.Вера.Вера")


def test_the_message_names_the_cell_as_players_do_and_the_field_its_path():
    with pytest.raises(FileError) as caught:
        sheetfile.parse(sheet(pulya={"Аня": 20, "Борис": 14.5, "Вера": 20}))
    assert caught.value.problem.field == "pulya.Борис"
    assert caught.value.message == "Борис's pulya takes a whole number from 0 to 10000, not 14.5"


@pytest.mark.parametrize("text", ['{"gora": NaN}', '{"a": Infinity}', '[-Infinity]'])
def test_nan_and_infinity_are_not_json(text):
    with pytest.raises(FileError) as caught:
        sheetfile.loads(text)
    assert caught.value.problem.code.value == "bad_json"
    with pytest.raises(FileError) as caught:
        pulyafile.loads(text)
    assert caught.value.problem.code.value == "bad_json"


def test_a_sheet_is_written_back_as_it_was_read():
    paper = sheetfile.parse(sheet(name="Пятница", currency="₽"))
    again = sheetfile.loads(sheetfile.dumps(paper))
    assert again == paper


# -- the opening of a pulya/1 pulka (docs/files.md §5) -------------------------------

OPENING = {"pulya": {"Аня": 20, "Борис": 10, "Вера": 0}, "gora": {"Аня": 4, "Борис": 30},
           "whists": {"Аня": {"Борис": 48}}}


def pulka(opening: object = OPENING, **top) -> dict:
    return {"format": "pulya/1", "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi"},
            "opening": opening, "deals": []} | top


def pulka_error(data: dict) -> tuple[str, str]:
    with pytest.raises(FileError) as caught:
        pulyafile.parse(data)
    return caught.value.problem.code.value, caught.value.problem.field


def test_an_opening_is_where_the_sheet_starts():
    result = pulyafile.result_json(pulyafile.parse(pulka()))
    assert result["sheet"]["pulya"] == OPENING["pulya"]
    assert result["sheet"]["gora"] == {"Аня": 4, "Борис": 30, "Вера": 0}
    assert result["sheet"]["whists"]["Аня"] == {"Борис": 48, "Вера": 0}
    assert not result["finished"]


def test_help_works_on_the_openings_closed_pulya():
    # Аня's pulya is closed on paper: her 6♠ (2 points), both passing, helps Борис (10 → 12) for 10 whists a point
    deal = {"type": "game", "declarer": "Аня", "contract": "6S", "whist": {"Борис": "pass", "Вера": "pass"}}
    result = pulyafile.result_json(pulyafile.parse(pulka(deals=[deal], first_dealer="Вера")))
    assert result["sheet"]["pulya"] == {"Аня": 20, "Борис": 12, "Вера": 0}
    assert result["sheet"]["whists"]["Аня"]["Борис"] == 48 + 20


def test_an_opening_may_finish_the_pulka():
    done = {"pulya": {"Аня": 20, "Борис": 20, "Вера": 20}, "gora": {"Аня": 4}}
    assert pulyafile.result_json(pulyafile.parse(pulka(done)))["finished"]
    raspasy = {"type": "raspasy", "tricks": {"Аня": 0, "Борис": 4, "Вера": 6}}
    with pytest.raises(FileError) as caught:
        pulyafile.parse(pulka(done, deals=[raspasy])).replay()
    assert caught.value.problem.code.value == "pulka_finished"
    assert pulka_error(pulka({"gora": {"Аня": 4}}, deals=[raspasy, {"type": "bogus"}]))[0] == "bad_format"


@pytest.mark.parametrize("opening,expected", [
    ({"pulya": {"Аня": 21, "Борис": 0, "Вера": 0}}, ("bad_opening", "opening.pulya.Аня")),
    ({"pulya": {"Аня": 2.5}}, ("bad_number", "opening.pulya.Аня")),
    ({"gora": {"Аня": 0.25}}, ("bad_number", "opening.gora.Аня")),
    ({"whists": {"Вера": {"Вера": 0}}}, ("self_whists", "opening.whists.Вера.Вера")),
    ({"whists": {"Вера": {"Гена": 1}}}, ("unknown_player", "opening.whists.Вера.Гена")),
    ({"pulya_counts_down": False}, ("bad_format", "opening.pulya_counts_down")),
    ({"gora": 5}, ("bad_format", "opening.gora")),
    ([], ("bad_format", "opening")),
])
def test_an_openings_problems(opening, expected):
    assert pulka_error(pulka(opening)) == expected


# Two faults at once, in one cell or in two: §3's order of codes says which is reported (bad_format,
# bad_number, self_whists, bad_opening, unknown_player), whatever the order of the keys.
@pytest.mark.parametrize("opening,expected", [
    ({"whists": {"Аня": {"Аня": "x"}}}, ("bad_number", "opening.whists.Аня.Аня")),
    ({"whists": {"Аня": {"Аня": -1}}}, ("bad_number", "opening.whists.Аня.Аня")),
    ({"whists": {"Аня": {"Аня": 0}}, "gora": {"Борис": "x"}}, ("bad_number", "opening.gora.Борис")),
    ({"gora": {"Борис": 0.3}, "whists": {"Аня": {"Аня": 0}}}, ("bad_number", "opening.gora.Борис")),
    ({"whists": {"Аня": {"Аня": 0, "Борис": "x"}}}, ("bad_number", "opening.whists.Аня.Борис")),
    ({"pulya": {"Аня": 21}, "whists": {"Вера": {"Вера": 0}}}, ("self_whists", "opening.whists.Вера.Вера")),
    ({"pulya": {"Аня": 21}, "gora": {"Борис": "x"}}, ("bad_number", "opening.gora.Борис")),
    ({"gora": {"Гена": 1}, "whists": {"Аня": {"Аня": 0}}}, ("self_whists", "opening.whists.Аня.Аня")),
    ({"gora": {"Гена": 1}, "pulya": {"Аня": 21}}, ("bad_opening", "opening.pulya.Аня")),
    ({"gora": {"Гена": "x"}}, ("bad_number", "opening.gora.Гена")),
    ({"whists": {"Аня": {"Гена": "x"}}}, ("bad_number", "opening.whists.Аня.Гена")),
    ({"whists": {"Гена": {"Аня": "x"}}}, ("bad_number", "opening.whists.Гена.Аня")),
    ({"whists": {"Гена": 5}}, ("bad_format", "opening.whists.Гена")),
    ({"whists": {"Аня": {"Аня": 0}}, "gora": 5}, ("bad_format", "opening.gora")),
])
def test_of_two_faults_the_first_in_the_order_of_codes_is_reported(opening, expected):
    assert pulka_error(pulka(opening)) == expected
    reversed_keys = {key: value for key, value in reversed(opening.items())}
    assert pulka_error(pulka(reversed_keys)) == expected


@pytest.mark.parametrize("changes,expected", [
    ({"whists": {"Аня": {"Аня": "x"}}}, ("bad_number", "whists.Аня.Аня")),
    ({"whists": {"Аня": {"Аня": 0}}, "gora": {"Аня": 42, "Борис": "x", "Вера": 132}}, ("bad_number", "gora.Борис")),
    ({"whists": {"Аня": {"Аня": 0}}, "gora": {"Аня": 42, "Борис": 96}}, ("bad_number", "gora.Вера")),
    ({"gora": {"Аня": 42, "Борис": 96, "Вера": 132, "Гена": "x"}}, ("bad_number", "gora.Гена")),
])
def test_a_sheets_two_faults_too(changes, expected):
    assert error(sheet(**changes)) == expected


def test_bad_opening_only_where_a_pulya_stops_at_its_size():
    leningrad = pulka({"pulya": {"Аня": 35, "Борис": 0, "Вера": 0}}, rules={"preset": "leningrad"})
    assert pulyafile.result_json(pulyafile.parse(leningrad))["sheet"]["pulya"]["Аня"] == 35


def test_the_openings_problems_come_before_a_deals():
    assert pulka_error(pulka({"gora": {"Аня": "x"}}, deals=[{"type": "bogus"}])) == ("bad_number", "opening.gora.Аня")


def test_export_writes_the_opening():
    read = pulyafile.parse(pulka())
    written = pulyafile.to_json(read)
    assert written["opening"]["pulya"] == OPENING["pulya"] and list(written)[-1] == "deals"
    assert pulyafile.loads(pulyafile.dumps(read)) == read
    assert "opening" not in pulyafile.to_json(pulyafile.parse({k: v for k, v in pulka().items() if k != "opening"}))


cells = st.integers(0, 400).map(lambda h: h / 2)


@st.composite
def paper(draw: st.DrawFn) -> dict:
    players = ["Аня", "Борис", "Вера", "Гена"][:draw(st.sampled_from([3, 4]))]
    preset = draw(st.sampled_from(["sochi", "leningrad", "rostov"]))
    size = 20
    data = {"format": "pulya-sheet/1", "players": players,
            "rules": {"preset": preset, "whist_price": draw(st.sampled_from([0.5, 1, 0.1, 2.5]))},
            "gora": {p: draw(st.integers(-40, 400)) / 2 for p in players},
            "whists": {p: {q: draw(cells) for q in players if q != p} for p in players}}
    if draw(st.booleans()):
        data["pulya"] = {p: draw(st.integers(0, size)) for p in players}
    return data


@settings(max_examples=100, deadline=None)
@given(paper())
def test_settle_is_the_replay_of_the_sheet_as_an_opening_with_no_deals(data):
    settled = sheetfile.result_json(sheetfile.parse(data))
    opening = {key: data[key] for key in ("pulya", "gora", "whists") if key in data}
    as_pulka = {"format": "pulya/1", "players": data["players"], "rules": data["rules"], "opening": opening,
                "deals": []}
    replayed = pulyafile.result_json(pulyafile.loads(json.dumps(as_pulka)))
    assert replayed["settlement"] == settled["settlement"]
    assert replayed["sheet"] == settled["sheet"]
    money = settled["settlement"]["money"]
    assert round(sum(money.values()), 2) == 0
