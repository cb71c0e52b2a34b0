"""docs/protocol.md keeps up with the typed protocol: every message type, field and error code is
documented, and every code the server can send is one the protocol declares."""

from __future__ import annotations

import re
from pathlib import Path

from kokoro_core.errors import ERROR_CODES
from kokoro_core.protocol import CLIENT_MESSAGES, SpeechOptionFields
from kokoro_core.server_messages import SERVER_MESSAGES

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "protocol.md").read_text(encoding="utf-8")
SOURCES = [*(REPO / "container" / "kokoro_server").rglob("*.py"), *(REPO / "core" / "kokoro_core").glob("*.py")]
CODE = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)


def test_every_error_code_is_declared_and_documented() -> None:
    raised = set(re.findall(r'(?:ProtocolError|_refuse)\(\s*"([a-z_]+)"', CODE))
    raised |= set(re.findall(r'_error\(\s*\d+,\s*"([a-z_]+)"', CODE))
    raised |= set(re.findall(r'return\s+"([a-z_]+)",\s*"', CODE))  # a (code, message) reason
    assert {"invalid_lexicon", "busy", "not_ready", "invalid_speed"} <= raised  # the patterns find them
    assert sorted(raised - set(ERROR_CODES)) == []
    assert sorted(code for code in ERROR_CODES if f"`{code}`" not in DOC) == []


def test_every_message_type_and_field_is_documented() -> None:
    for kind, model in {**CLIENT_MESSAGES, **SERVER_MESSAGES}.items():
        assert f"`{kind}`" in DOC, kind
        assert sorted(field for field in model.model_fields if f"`{field}`" not in DOC) == [], kind
    options = sorted(option for option in SpeechOptionFields.model_fields if f"| `{option}` |" not in DOC)
    assert options == []
