"""HTML forms (Flask-WTF gives them CSRF). Fields are lenient on purpose: the engine validates,
so a form and the API refuse the same input with the same words."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, HiddenField, SelectMultipleField, StringField, TextAreaField
from wtforms.widgets import CheckboxInput, ListWidget

from .. import pulyafile
from ..engine import PARAMETERS, PRESETS, Kind, Preset, Rules, RulesError
from ..engine.rules import json_value
from .errors import Refused

MAIN_PARAMETERS = ("pulya_size", "whist_price")
ADVANCED = tuple(p for p in PARAMETERS if p.name not in MAIN_PARAMETERS)
SEATS = range(4)


class DealForm(FlaskForm):
    """Seats are numbers; w<seat> is a defender's word and t<seat> his tricks."""

    version = HiddenField()
    type = StringField(default="game")
    declarer = StringField()
    level = StringField()
    strain = StringField()
    open = StringField(default="closed")

    def deal_data(self) -> dict[str, Any]:
        return {name: field.data for name, field in self._fields.items() if name not in ("csrf_token", "version")}


for _seat in SEATS:
    setattr(DealForm, f"w{_seat}", StringField())
    setattr(DealForm, f"t{_seat}", StringField())


class ConfirmForm(FlaskForm):
    """Undo and delete: nothing but the CSRF token and the version the page showed."""

    version = HiddenField()


class ImportForm(FlaskForm):
    name = StringField()
    file = FileField()
    text = TextAreaField()


def _checkboxes(**kwargs: Any) -> SelectMultipleField:
    return SelectMultipleField(widget=ListWidget(prefix_label=False), option_widget=CheckboxInput(),
                               validate_choice=False, **kwargs)


class PulkaForm(FlaskForm):
    version = HiddenField()
    name = StringField()
    player0 = StringField()
    player1 = StringField()
    player2 = StringField()
    player3 = StringField()
    first_dealer = StringField(default="0")
    preset = StringField(default=Preset.SOCHI.value)
    # The preset whose values the advanced fields were filled with: a field still equal to it is
    # not an override, so choosing another preset without JavaScript takes all of that preset.
    shown_preset = HiddenField(default=Preset.SOCHI.value)
    pulya_size = StringField(default="20")
    whist_price = StringField(default="1")
    currency = StringField(default="₽")

    def fill_rules(self, rules: Rules) -> None:
        """Show `rules` in the fields (a GET, or after a preset change)."""
        self.preset.data = self.shown_preset.data = rules.preset.value
        self.pulya_size.data = str(rules.pulya_size)
        self.whist_price.data = text_of(rules.whist_price)
        for p in ADVANCED:
            getattr(self, f"p_{p.name}").data = field_value(p, getattr(rules, p.name))

    def players(self) -> list[str]:
        return [name for i in SEATS if (name := (getattr(self, f"player{i}").data or "").strip())]

    def read(self) -> tuple[dict[str, Any], dict[str, list[str]]]:
        """The pulka's settings from the fields, and the errors by field name."""
        errors: dict[str, list[str]] = {}
        players = self.players()
        why = pulyafile.check_players(players)
        if why:
            errors["players"] = [why]
        first = (self.first_dealer.data or "0").strip()
        if not first.isdigit() or (not why and int(first) >= len(players)):
            errors["first_dealer"] = ["the first dealer must be one of the players"]
        name = (self.name.data or "").strip()
        if len(name) > 80:
            errors["name"] = ["a name has at most 80 characters"]
        currency = (self.currency.data or "").strip()
        if len(currency) > 8:
            errors["currency"] = ["a currency has at most 8 characters"]
        rules = None
        try:
            rules = self.rules()
        except RulesError as error:
            for field, message in ((p.field, p.text(())) for p in error.problems):
                errors.setdefault(field if field in MAIN_PARAMETERS or field == "preset" else f"p_{field}",
                                  []).append(message)
        settings = {"name": name or ("Pulka of " + ", ".join(players))[:80], "players": players,
                    "first_dealer": int(first) if first.isdigit() else 0, "rules": rules, "currency": currency}
        return settings, errors

    def rules(self) -> Rules:
        preset = self.preset.data or ""
        shown = self.shown_preset.data if self.shown_preset.data in Preset.__members__.values() else preset
        base = PRESETS.get(shown) if shown in Preset.__members__.values() else None
        overrides: dict[str, Any] = {"pulya_size": _int(self.pulya_size.data),
                                     "whist_price": _decimal(self.whist_price.data)}
        for p in ADVANCED:
            value = parse_field(p, getattr(self, f"p_{p.name}").data)
            try:
                same = base is not None and p.parse(value) == getattr(base, p.name)
            except ValueError:
                same = False
            if not same:
                overrides[p.name] = value
        return Rules.of(preset, **overrides)


for _p in ADVANCED:
    if _p.kind is Kind.BOOL:
        _field = BooleanField()
    elif _p.kind is Kind.LEVELS:
        _field = _checkboxes(choices=[str(c) for c in _p.choices])
    else:
        _field = StringField()
    setattr(PulkaForm, f"p_{_p.name}", _field)


def text_of(value: Any) -> str:
    value = json_value(value)
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def field_value(p, value: Any) -> Any:
    if p.kind is Kind.BOOL:
        return bool(value)
    if p.kind is Kind.LEVELS:
        return [str(v) for v in value]
    return text_of(value)


def _int(text: object) -> object:
    text = str(text or "").strip()
    try:
        return int(text)
    except ValueError:
        return text


def _decimal(text: object) -> object:
    """'0,5' and '0.5' as Decimal('0.5'), as people type prices; other text stays text."""
    text = str(text or "").strip().replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    return number if number.is_finite() else text


def parse_field(p, data: Any) -> Any:
    """A field's text as the JSON-like value the engine parses; text it cannot read is kept
    so that the engine's message names it."""
    if p.kind is Kind.BOOL:
        return bool(data)
    if p.kind is Kind.LEVELS:
        return [_int(v) for v in data or []]
    if p.kind is Kind.INT:
        return _int(data)
    if p.kind is Kind.INT_LIST:
        items = [item for item in str(data or "").replace(",", " ").split() if item]
        return [_int(item) for item in items]
    if p.kind is Kind.MONEY:
        return _decimal(data)
    if p.kind is Kind.FACTOR:
        number = _decimal(data)
        return Fraction(number) if isinstance(number, Decimal) else number
    return str(data or "")


def refused_settings(errors: dict[str, list[str]]) -> Refused:
    field, messages = next(iter(errors.items()))
    code = "bad_players" if field in ("players", "first_dealer") else "bad_parameter"
    return Refused(422, code, messages[0], field,
                   problems=[{"code": code, "field": f, "deal": None, "message": m}
                             for f, ms in errors.items() for m in ms])
