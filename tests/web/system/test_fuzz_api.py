"""Schemathesis against /api/v1/openapi.json, on each database: every operation with data that fits the
document and data that does not, as the owner of a pulka with deals and a share link (their ids in the
paths, so most requests reach a real pulka). Never a 500, and every answer as documented: its status code,
content type and body schema (the document must tell the truth).

Bounded for CI: a few examples an operation, derandomized (the same requests every run), no deadline.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from ..conftest import signed_in, sochi

pytestmark = pytest.mark.fuzz

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 20
# Slow operations get fewer examples (a PDF is rendered in a worker process).
FEWER = {"GET /api/v1/pulkas/{uid}/pdf": 3}
# What ends the session's pulka or token: fuzzed last, so the others meet real ones.
LAST = ("DELETE /api/v1/pulkas/{uid}", "DELETE /api/v1/tokens/current")


def fuzz(operation, mode, headers, path_parameters, examples):
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=path_parameters))
    def run(case):
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()


def test_the_api_as_documented_under_fuzzing(app):
    client = signed_in(app)
    uid = sochi(client, 6)
    share = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer", "label": "fuzz"}).json["id"]
    headers = {"Authorization": client.environ_base["HTTP_AUTHORIZATION"]}
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operations = sorted((result.ok() for result in schema.get_all_operations()),
                        key=lambda op: op.label in LAST)
    for operation in operations:
        names = {p.name for p in operation.path_parameters}
        # Data that fits the document meets the real pulka, its link and its deal 3 (deal numbers made up
        # would nearly all be 404); data that does not fits nothing, the pulka's id aside.
        real = {"uid": uid, "share_id": share, "number": 3}
        for mode, fixed in ((GenerationMode.POSITIVE, real), (GenerationMode.NEGATIVE, {"uid": uid})):
            parameters = {name: value for name, value in fixed.items() if name in names}
            fuzz(operation, mode, headers, parameters, FEWER.get(operation.label, EXAMPLES))
