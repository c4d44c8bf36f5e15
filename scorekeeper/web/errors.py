"""A refused request: the status, the engine's problem code and where it applies.

Pages show it on the form fields, the API returns it as the 4xx body; either
way nothing was stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Problem, PulkaError


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str, field: str = "", deal: int | None = None,
                 problems: Sequence[dict[str, Any]] = (), general: bool = False):
        super().__init__(message)
        # A problem in another deal than the form's: shown above the form, not on its fields.
        self.general = general
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.deal = deal
        # Every problem of the refused deal, so a form can mark each field.
        self.problems = list(problems) or [{"code": code, "field": field, "deal": deal, "message": message}]

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "field": self.field, "deal": self.deal, "message": self.message},
                "problems": self.problems}

    def field_errors(self) -> dict[str, list[str]]:
        if self.general:
            return {"": [self.message]}
        errors: dict[str, list[str]] = {}
        for problem in self.problems:
            errors.setdefault(problem["field"] or "", []).append(problem["message"])
        return errors


class NotFound(Refused):
    def __init__(self, what: str = "pulka"):
        super().__init__(404, "not_found", f"there is no such {what}")


def problem_json(problem: Problem, names: Sequence[str]) -> dict[str, Any]:
    # Field messages are shown beside the field, so without the "deal 3:" prefix.
    return {"code": problem.code.value, "field": problem.field, "deal": problem.deal,
            "message": problem.message.format(*names)}


def refused_from(error: PulkaError, names: Sequence[str], focus: int | None = None, what: str = "",
                 shift: int | None = None) -> Refused:
    """The engine's refusal. `focus` is the deal being written; a problem in another deal means the
    change breaks that later deal, and the message names it. After deleting deal `shift` the replayed
    deals from there on are numbered one lower: the message uses the numbers people see now."""
    first = error.problems[0]
    number = first.deal + 1 if shift is not None and first.deal is not None and first.deal >= shift else first.deal
    problems = [problem_json(p, names) | {"deal": number} for p in error.problems]
    if focus is not None and number == focus:
        return Refused(422, first.code.value, first.text(names), first.field, number, problems)
    text = f"deal {number}: {first.message.format(*names)}"
    message = f"{what or 'This change'} would make deal {number} invalid ({text}); nothing was changed"
    return Refused(422, first.code.value, message, "", number, problems, general=True)
