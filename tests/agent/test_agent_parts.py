"""The agent's settings, its image, and its AgentCore Runtime client, without the speech server."""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from kokoro_agent.runtime_invoke import invoke_runtime
from kokoro_agent.settings import AgentSettingsError, agent_settings_from_env
from tests.image_imports import image_modules, imported_in_image

ROOT = Path(__file__).resolve().parents[2]
AGENT = ROOT / "agent"


def test_settings_need_one_text_source_and_one_speech_server() -> None:
    with pytest.raises(AgentSettingsError, match="set exactly one of KOKORO_AGENT_MODEL_ID .* and KOKORO_AGENT_SCRIPT"):
        agent_settings_from_env({"KOKORO_AGENT_TTS_URL": "ws://127.0.0.1:8080/x"})
    with pytest.raises(AgentSettingsError, match="set exactly one of KOKORO_AGENT_TTS_ENDPOINT"):
        agent_settings_from_env({"KOKORO_AGENT_SCRIPT": "Hi."})
    with pytest.raises(AgentSettingsError, match="KOKORO_AGENT_TTS_ENDPOINT needs a region: set AWS_REGION"):
        agent_settings_from_env({"KOKORO_AGENT_MODEL_ID": "amazon.nova-lite-v1:0", "KOKORO_AGENT_TTS_ENDPOINT": "tts"})
    with pytest.raises(AgentSettingsError, match="KOKORO_AGENT_TOKENS_PER_SECOND='fast' is invalid"):
        agent_settings_from_env(
            {"KOKORO_AGENT_SCRIPT": "Hi.", "KOKORO_AGENT_TTS_URL": "ws://h/x", "KOKORO_AGENT_TOKENS_PER_SECOND": "fast"}
        )
    with pytest.raises(AgentSettingsError, match="sample_rate 44100 is not supported; choose one of: 8000, 16000"):
        agent_settings_from_env(
            {"KOKORO_AGENT_SCRIPT": "Hi.", "KOKORO_AGENT_TTS_URL": "ws://h/x", "KOKORO_AGENT_SAMPLE_RATE": "44100"}
        )
    deployed = agent_settings_from_env(
        {
            "KOKORO_AGENT_MODEL_ID": "amazon.nova-lite-v1:0",
            "KOKORO_AGENT_TTS_ENDPOINT": "tts",
            "AWS_REGION": "eu-west-1",
        }
    )
    assert (deployed.model_id, deployed.tts_endpoint, deployed.region) == ("amazon.nova-lite-v1:0", "tts", "eu-west-1")


def test_serve_with_invalid_settings_exits_2_naming_them() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kokoro_agent", "serve"],
        env={"PATH": "/usr/bin:/bin", "KOKORO_AGENT_SCRIPT": "Hi."},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 2, result.stderr
    assert "KOKORO_AGENT_TTS_ENDPOINT" in result.stderr and "Traceback" not in result.stderr


def test_runtime_client_reads_the_event_stream_as_it_arrives() -> None:
    client = boto3.client(
        "bedrock-agentcore", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    events = [{"type": "text", "text": "Hi."}, {"type": "audio", "seq": 0, "audio": "AAA="}, {"type": "done"}]
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    arn = "arn:aws:bedrock-agentcore:us-east-1:123456789012:runtime/kokoro_tts_agent-abc123"
    session = "kokoro-agent-0123456789abcdef0123456789abcdef"
    with Stubber(client) as stub:
        stub.add_response(
            "invoke_agent_runtime",
            {
                "response": StreamingBody(io.BytesIO(body), len(body)),
                "contentType": "text/event-stream",
                "runtimeSessionId": session,
                "statusCode": 200,
            },
            {
                "agentRuntimeArn": arn,
                "runtimeSessionId": session,
                "qualifier": "live",
                "contentType": "application/json",
                "accept": "text/event-stream",
                "payload": json.dumps({"prompt": "Hello"}).encode(),
            },
        )

        async def collect():
            return [
                event
                async for event in invoke_runtime(arn, {"prompt": "Hello"}, session, qualifier="live", client=client)
            ]

        assert asyncio.run(collect()) == events


def requirement_pins(path: Path) -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s\\]+)", path.read_text(), re.MULTILINE)
    return {name.lower().replace("_", "-"): version for name, version in pins}


def test_agent_image_pins_match_the_tests_and_install_by_hash() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    locked = {package["name"]: package["version"] for package in lock["package"]}
    for name, version in requirement_pins(AGENT / "requirements.in").items():
        assert locked[name] == version, f"{name}: image {version}, uv.lock {locked[name]}"
    dockerfile = (AGENT / "Dockerfile").read_text()
    assert "--require-hashes" in dockerfile and "--no-deps" in dockerfile
    assert dockerfile.index("requirements.txt") < dockerfile.index("COPY agent/kokoro_agent/")
    assert '["python", "-m", "kokoro_agent"]' in dockerfile


def test_every_module_the_agent_imports_is_installed_by_its_image() -> None:
    """Import the agent as its image would (tests/image_imports.py); it copies the core, client and agent."""
    image = requirement_pins(AGENT / "requirements.txt")
    allowed = image_modules(lambda name: name in image, ("kokoro_agent", "kokoro_stream", "kokoro_core"))
    parts = ("app", "cli", "invoke", "runtime_invoke", "scripted_model", "settings", "turn")
    modules = [f"kokoro_agent.{part}" for part in parts]
    loaded = imported_in_image(modules, allowed)
    assert "onnxruntime" not in loaded and "kokoro_server" not in loaded  # the agent never loads the speech engine
