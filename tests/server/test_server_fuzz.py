"""A bounded schemathesis run over the server's OpenAPI (issue 16): generated requests never get a 500, and
every response matches the schema the docs give for it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tohit.server.app import create_app  # noqa: E402
from tohit.server.settings import Settings  # noqa: E402
from tohit.store.db import open_store  # noqa: E402

DB = Path(tempfile.mkdtemp(prefix="tohit-fuzz-")) / "fuzz.db"


def _app():  # type: ignore[no-untyped-def]
    DB.unlink(missing_ok=True)
    return create_app(Settings(workers=0, admin_token="x"), open_store(f"sqlite:///{DB}"))


schema = schemathesis.openapi.from_asgi("/openapi.json", _app())


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_server_openapi_fuzz(case) -> None:  # type: ignore[no-untyped-def]
    """No 500 for any generated request; the status, content type and body are those the docs declare. (Schema-valid
    bodies may still be refused with a 422 naming the field: a scenario is checked by its game's own model.)"""
    case.call_and_validate(
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    )
