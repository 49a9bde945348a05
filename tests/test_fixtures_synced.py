"""The bundled conformance copy must equal ../shared/conformance wherever that folder exists."""

from __future__ import annotations

import pytest

from conformance import FIXTURES, SHARED


def test_bundled_fixtures_exist() -> None:
    names = sorted(p.name for p in FIXTURES.glob("*.jsonl"))
    assert names == ["design_doc_projects.jsonl", "json_repair.jsonl", "open_models.jsonl"]


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/conformance is not beside this clone")
def test_bundled_fixtures_equal_shared() -> None:
    shared = sorted(p.name for p in SHARED.glob("*.jsonl"))
    assert shared == sorted(p.name for p in FIXTURES.glob("*.jsonl"))
    for name in shared:
        assert (FIXTURES / name).read_bytes() == (SHARED / name).read_bytes(), (
            f"tests/fixtures/conformance/{name} differs from ../shared/conformance/{name}: "
            "copy it again"
        )
