"""The README's client example runs as written against a real server, and the client page of the
documentation shows the same example."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
CLIENT_PAGE = REPO / "docs" / "client.md"
LOCAL_URL = "ws://127.0.0.1:8080/invocations-bidirectional-stream"


def first_python_block(text: str) -> str:
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match, "no python example"
    return match.group(1)


def readme_example() -> str:
    return first_python_block(README.read_text(encoding="utf-8").split("## The client", 1)[1])


def test_readme_client_example_speaks(server, idle_after):
    example = readme_example()
    assert LOCAL_URL in example
    result = subprocess.run(
        [sys.executable, "-c", example.replace(LOCAL_URL, server.ws_url)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Sure, I can help with that.") and "pcm16 24000" in lines[0]
    assert any(line.startswith("Your order ships today.") for line in lines)


def test_client_page_shows_the_readme_example():
    assert first_python_block(CLIENT_PAGE.read_text(encoding="utf-8")) == readme_example()
