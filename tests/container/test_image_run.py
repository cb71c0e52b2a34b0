"""The image built from container/Dockerfile, run in a real container engine as SageMaker runs it.

Both flavors: the CPU one (CPU instance types) and the GPU one, which on this GPU-less host must
land on the CPU cleanly. `docker run IMAGE serve` with the model cache mounted read-only at
/opt/ml/model, then the container contract: /ping, POST in every format, a WebSocket session,
SIGTERM from `docker stop`. Opt-in (`uv run pytest -m container`): the first build takes minutes.
Skipped where no engine runs.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import wave
from io import BytesIO
from pathlib import Path

import aiohttp
import pytest

from kokoro_tools.deploy_shaped import ANOTHER_USER, deploy_shaped, set_modes
from kokoro_tools.image_run import serve_command
from kokoro_tools.ports import free_port
from tests.server.serving.server_process import log_events, ping_statuses
from tests.speech import connect, plausible_duration, receive, run, until

pytestmark = [pytest.mark.container, pytest.mark.model]  # the image serves the real model

ROOT = Path(__file__).resolve().parents[2]  # the build context; the Dockerfile is container/Dockerfile
CPU_IMAGE_LIMIT_BYTES = 1_000_000_000
BIDI_LABEL = "com.amazonaws.sagemaker.capabilities.bidirectional-streaming"
HEALTH_CHECK_SECONDS = 600  # the endpoint's default container_startup_health_check_timeout (cdk.json)
SAGEMAKER_STOP_SECONDS = 30  # SageMaker, like `docker stop -t 30`, kills the container this long after SIGTERM


def docker(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], check=check, capture_output=True, text=True)


@pytest.fixture(scope="module", params=["cpu", "gpu"])
def image(request: pytest.FixtureRequest) -> str:
    if shutil.which("docker") is None or docker("info", check=False).returncode != 0:
        pytest.skip("no Docker engine is running here (`docker info` fails); these tests build and run the image")
    tag = f"kokoro-server:test-{request.param}"
    build = ["docker", "build", "--network", "host", "--build-arg", f"FLAVOR={request.param}", "-t", tag]
    if base := os.environ.get("KOKORO_BASE_IMAGE"):  # a local stand-in where no registry is reachable
        build += ["--build-arg", f"BASE_IMAGE={base}"]
    build += ["-f", str(ROOT / "container" / "Dockerfile"), str(ROOT)]
    subprocess.run(build, check=True)
    return tag


@pytest.fixture(scope="module")
def delivered_model(embedded_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The deploy-shaped model (the default model_source's interface and files) as SageMaker delivers it:
    read-only, owned by another user than the server's."""
    folder = tmp_path_factory.mktemp("opt-ml") / "model"
    shutil.copytree(deploy_shaped("onnx-community"), folder)
    set_modes(folder, read_only=True)
    return folder


@pytest.fixture(scope="module")
def container(image: str, delivered_model: Path):
    """The image serving the deploy-shaped model on a free port of this host, started as SageMaker starts it."""
    port = free_port()
    name = f"kokoro-test-{port}"
    command = serve_command(image, delivered_model, port, name)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    started = time.monotonic()
    try:
        statuses = ping_statuses(port, process, timeout=HEALTH_CHECK_SECONDS)  # the container goes, ready or not
        yield {
            "port": port,
            "name": name,
            "process": process,
            "statuses": statuses,
            "ready_after": time.monotonic() - started,
        }
    finally:
        docker("rm", "--force", name, check=False)


def test_image_config_carries_the_contract(image: str) -> None:
    (config,) = json.loads(docker("image", "inspect", image).stdout)
    if image.endswith("-cpu"):
        assert config["Size"] < CPU_IMAGE_LIMIT_BYTES, config["Size"]  # no CUDA in the CPU flavor
    settings = config["Config"]
    assert settings["Labels"][BIDI_LABEL] == "true"
    assert settings["Entrypoint"] == ["python", "-m", "kokoro_server"] and settings["Cmd"] == ["serve"]
    assert "8080/tcp" in settings["ExposedPorts"]
    assert settings["User"] in ("", "root") and settings["Env"].count("SM_MODEL_DIR=/opt/ml/model") == 1


def test_ping_turns_200_within_the_health_check_budget(container) -> None:
    statuses = container["statuses"]
    assert statuses and statuses[-1] == 200, statuses
    assert set(statuses) <= {503, 200}
    assert container["ready_after"] < HEALTH_CHECK_SECONDS


def test_the_server_runs_as_root_as_sagemaker_expects_and_reads_the_read_only_mount(container) -> None:
    assert docker("exec", container["name"], "id", "-u").stdout.strip() == "0"
    owner = docker("exec", container["name"], "stat", "-c", "%u %a", "/opt/ml/model/onnx/model.onnx").stdout.split()
    assert owner == [str(ANOTHER_USER if os.geteuid() == 0 else os.geteuid()), "444"]  # read-only, another's as root
    written = docker("exec", container["name"], "touch", "/opt/ml/model/x", check=False)
    assert written.returncode != 0 and "Read-only file system" in written.stderr


@pytest.mark.parametrize(
    ("audio_format", "rate", "width"), [("pcm16", 24000, 2), ("wav", 24000, 2), ("mulaw", 8000, 1)]
)
def test_post_speaks_in_every_format(container, audio_format, rate, width) -> None:
    text = "Your table for four is booked for seven tonight."

    async def post() -> tuple[dict, bytes]:
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{container['port']}/invocations"
            async with session.post(url, json={"text": text, "format": audio_format}) as response:
                assert response.status == 200, await response.text()
                return dict(response.headers), await response.read()

    headers, body = run(post())
    assert headers["X-Audio-Format"] == audio_format and headers["X-Sample-Rate"] == str(rate)
    if audio_format == "wav":
        with wave.open(BytesIO(body)) as reader:
            assert (reader.getframerate(), reader.getsampwidth(), reader.getnchannels()) == (24000, 2, 1)
        body = body[44:]
    assert len(body) % width == 0
    assert plausible_duration(text, len(body) / width / rate)


def test_websocket_session_plays_pipelined_utterances_in_order_and_cancels(container) -> None:
    async def session_scenario():
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{container['port']}/invocations-bidirectional-stream"
            ws = await connect(session, url)
            for utterance_id, text in [("u1", "Good morning."), ("u2", "Your order ships today."), ("u3", "Dropped.")]:
                marks = utterance_id == "u2"  # word times: the image exposes the model's durations at load
                await ws.send_json({"type": "speak", "id": utterance_id, "text": text, "marks": marks})
            await ws.send_json({"type": "cancel", "id": "u3"})
            events = await until(ws, "done", "u2")
            await ws.send_json({"type": "close"})
            while await receive(ws) is not None:
                pass
            return events, ws.close_code

    events, close_code = run(session_scenario())
    control = [(event.type, event.message.get("id")) for event in events if event.type != "audio"]
    assert ("canceled", "u3") in control and ("start", "u3") not in control
    assert [item for item in control if item[0] in ("start", "done")] == [
        ("start", "u1"), ("done", "u1"), ("start", "u2"), ("done", "u2"),
    ]  # fmt: skip
    words = [word for event in events if event.type == "marks" for word in event.message["words"]]
    assert [word["text"] for word in words] == ["Your", "order", "ships", "today."]
    assert 0 <= words[0]["start_ms"] < words[-1]["end_ms"] <= events[-1].message["audio_ms"] + 25
    assert close_code == 1000


def test_the_image_reads_kanji_mandarin_and_espeak_languages_from_its_wheels(container) -> None:
    """The readers and their dictionaries are in the image: kanji, Mandarin and a Latin word among them are
    said, from a cold start (the first text of each language loads its reader)."""
    replies = {
        "jf_alpha": "東京駅から新幹線で行きます。",
        "zf_xiaobei": "我用iPhone打电话。",
        "ef_dora": "Vale 3.5 euros hoy.",
    }

    async def spoken() -> tuple[list[str], dict[str, bytes]]:
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{container['port']}"
            ws = await session.ws_connect(f"{base}/invocations-bidirectional-stream")
            ready = json.loads((await ws.receive()).data)
            await ws.close()
            audio = {}
            for voice, text in replies.items():
                async with session.post(f"{base}/invocations", json={"text": text, "voice": voice}) as response:
                    assert response.status == 200, await response.text()
                    audio[voice] = await response.read()
            return ready["languages"], audio

    languages, audio = run(spoken())
    assert {"cmn", "ja", "es"} <= set(languages)
    assert all(len(pcm) / 48_000 > 0.5 for pcm in audio.values()), {voice: len(pcm) for voice, pcm in audio.items()}


def test_docker_stop_drains_and_exits_0_before_the_kill(container) -> None:
    """Last: it stops the container. `docker stop -t 30` is SageMaker's SIGTERM, then SIGKILL at 30 s."""
    port, process = container["port"], container["process"]

    async def speak_then_stop():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, f"http://127.0.0.1:{port}/invocations-bidirectional-stream")
            await ws.send_json({"type": "speak", "id": "last", "text": "Finishing this sentence before I go."})
            assert (await receive(ws, timeout=300)).type == "start"
            stopping = subprocess.Popen(["docker", "stop", "--time", str(SAGEMAKER_STOP_SECONDS), container["name"]])
            started = time.monotonic()
            events = []
            while (event := await receive(ws, timeout=300)) is not None:
                events.append(event)
            stopping.wait(timeout=SAGEMAKER_STOP_SECONDS + 30)
            return events, ws.close_code, started

    events, close_code, started = run(speak_then_stop())
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 0, output[-2000:]  # 137 would mean SIGKILL: the drain overran
    assert time.monotonic() - started < SAGEMAKER_STOP_SECONDS
    assert [event.type for event in events if event.type != "audio"] == ["done"] and close_code == 1001
    logged = {event["event"]: event for event in log_events(output)}
    assert logged["stopped"]["interrupted_inference_calls"] == 0
    # One clear line about the device, decided from what the session runs on: no GPU here, so the
    # CPU's plan (workers of two threads), and no failed attempt at CUDA on the way.
    cpu_workers = max(1, len(os.sched_getaffinity(0)) // 2)
    assert (logged["model_loaded"]["device"], logged["model_loaded"]["workers"]) == ("cpu", cpu_workers)
    assert logged["model_loaded"]["interface"].startswith("tokens=input_ids, style=style, speed=speed, audio=waveform")
    assert logged["ready"]["device"] == "cpu" and "EP Error" not in output


def test_emulate_image_runs_it_as_sagemaker_does_and_the_sdk_speaks_through_it(
    image: str, embedded_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`kokoro-stream emulate --image`: the image started in the engine, fronted by the runtime stand-in,
    the pinned SDK's bidirectional stream through both; Ctrl-C removes the container."""
    from kokoro_stream import Speaker
    from kokoro_tools.emulator_host import RunningEmulator
    from tests.tools.emulated import any_credentials, bidi

    port, ca_file = free_port(), tmp_path / "ca.pem"
    command = ["emulate", "--image", image, "--model-dir", str(embedded_model_dir), "--port", str(port)]
    any_credentials(monkeypatch)
    process = subprocess.Popen(
        [sys.executable, "-c", "from kokoro_stream.cli import main; main()", *command, "--ca-out", str(ca_file)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        first_line = process.stdout.readline() if process.stdout else ""  # once the image serves
        assert f"https://127.0.0.1:{port}" in first_line, first_line
        emulator = RunningEmulator(f"https://127.0.0.1:{port}", ca_file)

        async def speak() -> list:
            async with Speaker(bidi(emulator), timeout=120, marks=True) as speaker:
                return [chunk async for chunk in speaker.speak("Your table is booked for seven.")]

        chunks = run(speak())
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=90) == 0
    audio = b"".join(chunk.audio for chunk in chunks)
    assert plausible_duration("Your table is booked for seven.", len(audio) / 2 / 24000)
    assert " ".join(word.text for chunk in chunks for word in chunk.words) == "Your table is booked for seven."
    assert docker("ps", "--all", "--quiet", "--filter", "name=kokoro-emulated-").stdout.strip() == ""
