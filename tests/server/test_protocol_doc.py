"""docs/protocol.md keeps up with the code: every message type, field and error code is documented."""

from __future__ import annotations

import re
from pathlib import Path

from kokoro_server.protocol import MESSAGE_FIELDS, OPTION_FIELDS

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "protocol.md").read_text(encoding="utf-8")
SERVER = "\n".join(path.read_text(encoding="utf-8") for path in (REPO / "container" / "kokoro_server").glob("*.py"))


def test_every_error_code_the_server_can_send_is_documented() -> None:
    codes = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', SERVER)) | set(
        re.findall(r'_error\(\s*\d+,\s*"([a-z_]+)"', SERVER)
    )
    assert {"invalid_lexicon", "busy", "not_ready"} <= codes  # the patterns find them
    assert sorted(code for code in codes if f"`{code}`" not in DOC) == []


def test_every_message_type_and_field_is_documented() -> None:
    for kind, fields in MESSAGE_FIELDS.items():
        assert f"`{kind}`" in DOC, kind
        assert sorted(field for field in fields if f"`{field}`" not in DOC) == [], kind
    assert sorted(option for option in OPTION_FIELDS if f"| `{option}` |" not in DOC) == []
    for kind in ("ready", "configured", "start", "done", "canceled", "error"):
        assert f"`{kind}`" in DOC, kind
