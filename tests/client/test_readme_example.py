"""The README's client example runs as written against a real server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
LOCAL_URL = "ws://127.0.0.1:8080/invocations-bidirectional-stream"


def test_readme_client_example_speaks(server, idle_after):
    section = README.read_text().split("## The client", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
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
