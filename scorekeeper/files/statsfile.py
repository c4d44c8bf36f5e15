"""The figures of players as JSON: a pulka's roles as its stored result keeps them (read back, checked, when
the result is read), and a player's statistics object as the API and the export write it (docs/club.md §2)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, cast

from ..engine.contracts import LEVELS
from ..engine.figures import PlayerStats, Whists
from ..engine.roles import Declarer, Defender, Misere, Raspasy, Roles
from ..engine.settlement import round_half_away

Names = Callable[[Any], str] | Mapping[Any, str]


def stored_roles(roles: Roles) -> dict[str, Any]:
    """JSON data of ints, as `read_roles` takes it back: the shape of docs/club.md §2 without the derived remiz."""
    return {"deals": roles.deals, **_roles_json(roles, remiz=False)}


def read_roles(data: object) -> Roles:
    """Roles from `stored_roles` data; ValueError for anything else, counts that no deals could give included."""
    top = _object(data, "roles", ("deals", "declarer", "defender", "raspasy"))
    declarer = _object(top["declarer"], "declarer", (*map(str, LEVELS), "misere"))
    levels = []
    for level in LEVELS:
        counts = _counts(declarer[str(level)], f"declarer.{level}", ("declared", "played", "made"))
        levels.append(Declarer(level, *counts))
    roles = Roles(_count(top["deals"], "deals"), tuple(levels),
                  Misere(*_counts(declarer["misere"], "declarer.misere", ("declared", "made"))),
                  Defender(*_counts(top["defender"], "defender", ("whist", "pass", "half", "short"))),
                  Raspasy(*_counts(top["raspasy"], "raspasy", ("deals", "tricks", "zero"))))
    if not roles.possible:
        raise ValueError(f"no deals give these counts: {data!r}")
    return roles


def _roles_json(roles: Roles, remiz: bool) -> dict[str, Any]:
    declarer: dict[str, Any] = {}
    for game in roles.declarer:
        counts = {"declared": game.declared, "played": game.played, "made": game.made}
        declarer[str(game.level)] = counts | ({"remiz": game.remiz} if remiz else {})
    declarer["misere"] = {"declared": roles.misere.declared, "made": roles.misere.made}
    d, r = roles.defender, roles.raspasy
    return {"declarer": declarer,
            "defender": {"whist": d.whist, "pass": d.pass_, "half": d.half, "short": d.short},
            "raspasy": {"deals": r.deals, "tricks": r.tricks, "zero": r.zero}}


def _object(data: object, name: str, keys: tuple[str, ...]) -> Mapping[str, object]:
    if not isinstance(data, Mapping) or set(data) != set(keys):
        raise ValueError(f"{name} must be an object of {', '.join(keys)}, not {data!r}")
    return cast("Mapping[str, object]", data)


def _count(value: object, name: str) -> int:
    if type(value) is not int or value < 0:  # a bool is an int, and no count
        raise ValueError(f"{name} must be a whole number, at least 0, not {value!r}")
    return value


def _counts(data: object, name: str, keys: tuple[str, ...]) -> list[int]:
    counts = _object(data, name, keys)
    return [_count(counts[key], f"{name}.{key}") for key in keys]


def stats_json(stats: PlayerStats[Any], name_of: Names) -> dict[str, Any]:
    """The stats object of docs/club.md §2, players as `{"id", "name"}` by `name_of` (a callable or a mapping).

    Whists are rounded half away from zero to 2 decimals once summed; money is summed cents, so exact.
    Either is a JSON number json.dumps writes: an int when whole, else the float of the 2-decimal value,
    which it writes as those 2 decimals (exactly, for amounts of up to 15 digits).
    """
    name = name_of.__getitem__ if isinstance(name_of, Mapping) else name_of
    return {"player": {"id": stats.player, "name": name(stats.player)},
            "pulkas": stats.pulkas, "won": stats.won, "lost": stats.lost, "deals": stats.deals,
            "net": _whists_json(stats.net), "money": {c: _number(m) for c, m in stats.money.items()},
            **_roles_json(stats.roles, remiz=True),
            "head_to_head": [{"opponent": {"id": h.opponent, "name": name(h.opponent)}, "pulkas": h.pulkas,
                              "net": _whists_json(h.net)} for h in stats.head_to_head]}


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _whists_json(net: Whists) -> dict[str, int | float]:
    return {preset: _number(round_half_away(whists)) for preset, whists in net.items()}
