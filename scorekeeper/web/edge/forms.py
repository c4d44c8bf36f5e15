"""The HTML forms (Flask-WTF gives them CSRF), and how a pulka's settings form reads its fields.

Fields are lenient on purpose: text that is not a number stays text, so the engine refuses it and names it
in its own words, the same words the API and the pulka file get. Only the page's version is checked here;
the deal form's fields become a deal in domain.deals, which the API's preview reads too.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, Field, HiddenField, PasswordField, SelectMultipleField, StringField, TextAreaField
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget

from ...engine import PARAMETER, PARAMETERS, PRESETS, Kind, Parameter, Preset, Rules, json_value
from ...i18n.words import Msg
from ..domain.deals import whole_number
from ..domain.reading import blank, digits, number_text, read_number
from ..domain.refusals import Refused

MAIN_PARAMETERS = ("pulya_size", "whist_price")
ADVANCED = tuple(p for p in PARAMETERS if p.name not in MAIN_PARAMETERS)
SEATS = range(4)


NOT_A_VERSION = Msg("version must be a whole number")


class VersionField(Field):
    """The pulka version the page showed: a write on a pulka that changed since is refused."""

    widget = HiddenInput()

    def process_formdata(self, valuelist: list[str]) -> None:
        text = valuelist[0].strip() if valuelist else ""
        try:
            self.data = read_number(text, "version") if text else None  # as the API reads it
        except Refused as error:
            raise ValueError(error.message) from None

    def _value(self) -> str:
        return "" if self.data is None else str(self.data)


class VersionedForm(FlaskForm):
    version = VersionField()

    def expected(self, default: int | None = None) -> int | None:
        """The version to write against; Refused when the field was sent but is not a version."""
        if self.version.errors or not self.validate():
            field, messages = next(iter(self.errors.items()))
            raise Refused(NOT_A_VERSION if field == "version" else messages[0], field)
        return self.version.data if self.version.data is not None else default


class ConfirmForm(VersionedForm):
    """Undo and delete: nothing but the CSRF token and the version the page showed."""


class LoginForm(FlaskForm):
    username = StringField()
    password = PasswordField()


class AccountForm(LoginForm):
    """A new account: on the register page, or the administrator's."""


class PasswordForm(FlaskForm):
    current = PasswordField()
    new = PasswordField()


class ShareForm(FlaskForm):
    role = StringField(default="viewer")
    label = StringField()
    player = StringField()


class ImportForm(FlaskForm):
    name = StringField()
    file = FileField()
    text = TextAreaField()


# -- a deal ---------------------------------------------------------------------------------------


class DealForm(VersionedForm):
    """Seats are numbers; w<seat> is a defender's word and t<seat> his tricks. `number`: the deal the form was
    opened for, so that a deal is never entered under another number than the one its phone showed."""

    number = HiddenField()
    type = StringField(default="game")
    declarer = StringField()
    level = StringField()
    strain = StringField()
    open = StringField(default="closed")

    def fields(self) -> dict[str, Any]:
        return {name: field.data for name, field in self._fields.items()
                if name not in ("csrf_token", "version", "number")}

    def number_sent(self) -> int | None:
        """The deal number the form was opened for; None when it says none (a script, an older page)."""
        return digits(self.number.data) if isinstance(self.number.data, str) else None


for _seat in SEATS:
    setattr(DealForm, f"w{_seat}", StringField())
    setattr(DealForm, f"t{_seat}", StringField())


# -- a pulka's settings ---------------------------------------------------------------------------


def _checkboxes(**kwargs: Any) -> SelectMultipleField:
    return SelectMultipleField(widget=ListWidget(prefix_label=False), option_widget=CheckboxInput(),
                               validate_choice=False, **kwargs)


class PulkaForm(VersionedForm):
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
    currency = StringField(default="")
    played_on = StringField(default="")  # a date input's value (2026-11-28), or as typed (28.11.2026)

    def fill(self, name: str, currency: str, players: tuple[str, ...], first_dealer: int, rules: Rules,
             played_on: date | None = None) -> None:
        """Show settings in the fields (a GET)."""
        self.name.data, self.currency.data, self.first_dealer.data = name, currency, str(first_dealer)
        self.played_on.data = played_on.isoformat() if played_on else ""
        for seat, player in enumerate(players):
            getattr(self, f"player{seat}").data = player
        self.fill_rules(rules)

    def fill_rules(self, rules: Rules) -> None:
        self.preset.data = self.shown_preset.data = rules.preset.value
        self.pulya_size.data = str(rules.pulya_size)
        self.whist_price.data = text_of(rules.whist_price)
        for p in ADVANCED:
            getattr(self, f"p_{p.name}").data = field_value(p, getattr(rules, p.name))

    def names_and_currency(self) -> dict[str, object]:
        """What may change after the first deal (the name, the currency, the date played), as typed
        (domain.read_settings reads it); a name left empty keeps the pulka's, a blank date says none."""
        data: dict[str, object] = {"currency": self.currency.data or "",
                                   "played_on": (self.played_on.data or "").strip()}
        if not blank(name := self.name.data or ""):
            data["name"] = name
        return data

    def settings_data(self) -> dict[str, object]:
        """Every setting as `domain.read_settings` takes it (players by name, rules as in the pulka file); a seat
        left empty (nothing but spaces) has no player."""
        players = [name for i in SEATS if not blank(name := getattr(self, f"player{i}").data or "")]
        first = whole_number(self.first_dealer.data or "0")
        return self.names_and_currency() | {
            "players": players,
            "first_dealer": players[first] if isinstance(first, int) and first < len(players) else None,
            "rules": self.rules_data(),
        }

    def rules_data(self) -> dict[str, object]:
        presets = {preset.value for preset in Preset}
        shown = self.shown_preset.data if self.shown_preset.data in presets else self.preset.data
        base = PRESETS[Preset(shown)] if isinstance(shown, str) and shown in presets else None
        rules: dict[str, object] = {"preset": self.preset.data or "", "pulya_size": whole_number(self.pulya_size.data),
                                    "whist_price": _decimal(self.whist_price.data)}
        for p in ADVANCED:
            value = parse_field(p, getattr(self, f"p_{p.name}").data)
            try:
                same = base is not None and p.parse(value) == getattr(base, p.name)
            except ValueError:
                same = False
            if not same:
                rules[p.name] = value
        return rules


def form_field(field: str) -> str:
    """The form field that shows a settings problem's `field` (rules.whist_factor → p_whist_factor)."""
    if not field.startswith("rules."):
        return field
    name = field.removeprefix("rules.")
    return name if name in (*MAIN_PARAMETERS, "preset") else f"p_{name}"


for _p in ADVANCED:
    if _p.kind is Kind.BOOL:
        _field: Field = BooleanField()
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


def bounds(name: str) -> str:
    """The HTML min and max of a number parameter's field: the engine's bounds, shown to the browser."""
    p = PARAMETER[name]
    return f'min="{p.low}" max="{p.high}"'


def field_value(p: Parameter, value: Any) -> Any:
    if p.kind is Kind.BOOL:
        return bool(value)
    if p.kind is Kind.LEVELS:
        return [str(v) for v in value]
    return text_of(value)


def _decimal(text: object) -> object:
    """'0,5' and '0.5' as Decimal('0.5'), as people type prices (reading.number_text: no rule takes a sign);
    other text stays text, for the engine to name in its message."""
    number = number_text(str(text or ""))
    return str(text or "").strip() if number is None else number


def parse_field(p: Parameter, data: Any) -> Any:
    """A field's text as the JSON-like value the engine parses; text it cannot read is kept
    so that the engine's message names it."""
    if p.kind is Kind.BOOL:
        return bool(data)
    if p.kind is Kind.LEVELS:
        return [whole_number(v) for v in data or []]
    if p.kind is Kind.INT:
        return whole_number(data)
    if p.kind is Kind.INT_LIST:
        return [whole_number(item) for item in str(data or "").replace(",", " ").split()]
    if p.kind is Kind.MONEY:
        return _decimal(data)
    if p.kind is Kind.FACTOR:
        number = _decimal(data)
        return Fraction(number) if isinstance(number, Decimal) else number
    return str(data or "")
