"""``kokoro-stream rehearse``: the first ``cdk deploy`` with the project's settings, offline, step by step, with
the code and the wire formats a deploy uses. No AWS account, no Docker, no GPU.

1. **The hub**: a loopback server answers as the hub does for the ``model_source`` repository and revision
   (``hub_standin``), with the deploy-shaped model (``deploy_shaped``): onnx-community's interface around the
   float graph rebuilt from the embedded weights, the very voice files the source pins. Its graph is not the
   pinned ``onnx/model.onnx``, so that one file's pin is its own sha256 and size; every other pin is cdk.json's.
2. **The model cache**: the populator's custom-resource handler (``on_event``, a Create event with the
   properties the stack gives it) fills the stack's prefix in an S3 stand-in that speaks the S3 API over HTTP
   (moto's server), manifest last.
3. **/opt/ml/model**: the prefix as SageMaker delivers an uncompressed ``S3Prefix``: each key less the prefix
   is a path. Read-only, and owned by another user where this runs as root.
4. **The container**: ``python -m kokoro_server serve``, as the image's entry point starts it, with the
   image's environment and the one the stack gives the instance type (``KOKORO_DEVICE=cuda`` on a GPU type:
   on a host without one, ``KOKORO_ALLOW_CPU_FALLBACK=1`` is added, and the GPU's batch size, so the server
   serves the GPU's plan on the CPU provider, its batch rewrite and checks included, and says why), on port 8080.
5. **In service**: ``/ping`` until 200, within the endpoint's health-check timeout; then speech through the
   SageMaker runtime emulator, in the client's wire formats: one POST (``InvokeEndpointWithResponseStream``)
   and one bidirectional stream, each sentence's word marks checked against its audio (``model_check``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import numpy as np

from kokoro_core.model_cache import read_manifest
from kokoro_server.engine.device import GPU_MAX_BATCH, gpu_usable
from kokoro_server.engine.model_check import mark_problems
from kokoro_server.text.word_timing import TimedWord
from kokoro_stream import SageMakerBidiTransport, SageMakerPostTransport, Speaker
from kokoro_stream.reply import AudioChunk

from .deploy_shaped import ANOTHER_USER, cdk_settings, deploy_shaped, set_modes, stacks_importable
from .emulator_host import emulating
from .hub_standin import serving_hub
from .ports import wait_ready

BUCKET = "kokoro-model-cache-rehearsal"
REGION = "us-east-1"
LAMBDA_SECONDS = 15 * 60  # the populator's function timeout: the handler paces itself against it
IMAGE_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}  # container/Dockerfile's ENV
# Never checked: the S3 stand-in takes any, and the runtime emulator checks a signature's scope, not its secret.
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "rehearsal", "AWS_SECRET_ACCESS_KEY": "rehearsal"}
POST_TEXT = "Your order 4 7 1 ships today."
BIDI_TEXT = "Thanks for waiting. Your refund of 42 dollars is on its way, and it should arrive by Friday."


class RehearsalFailed(RuntimeError):
    """A step of the first deploy failed; the message says which and why."""


@dataclass
class Rehearsal:
    """What each step did, in order, for the user and the tests."""

    steps: list[str] = field(default_factory=list)
    server_log: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``values`` in this process's environment while the block runs (the handler builds its own clients)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class _LambdaContext:
    def __init__(self) -> None:
        self._deadline = time.monotonic() + LAMBDA_SECONDS

    def get_remaining_time_in_millis(self) -> int:
        return int((self._deadline - time.monotonic()) * 1000)


def populate(settings: Any, model: Path, s3_url: str) -> tuple[str, dict[str, Any]]:
    """Step 1 and 2: the handler fills the stack's prefix from the hub stand-in; return the prefix and its reply."""
    stacks_importable()
    from stacks.constructs.model_cache import ModelCacheSettings
    from stacks.handlers.model_cache_populator import on_event

    properties = ModelCacheSettings.of(settings).populator_properties(BUCKET)
    source, pins = settings.model_source, properties["Files"]
    shaped = read_manifest(model).files[source.onnx]
    pins[source.onnx] = {"bytes": shaped.bytes, "sha256": shaped.sha256}  # the stand-in graph's own pin
    with (
        serving_hub(model, source.repo, source.revision, sorted(pins)) as hub,
        _environment({**CREDENTIALS, "AWS_DEFAULT_REGION": REGION, "AWS_ENDPOINT_URL_S3": s3_url}),
    ):
        boto3.client("s3").create_bucket(Bucket=BUCKET)
        event = {"RequestType": "Create", "ResourceProperties": {**properties, "HubEndpoint": hub}}
        reply = on_event(event, _LambdaContext())
    return settings.cache_prefix, reply


def deliver(s3: Any, prefix: str, target: Path) -> int:
    """Step 3: every object under ``prefix`` at its path under ``target`` (as SageMaker lays out an uncompressed
    S3Prefix), then made read-only and, as root, given to another user. Returns the number of files."""
    keys = [
        item["Key"]
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
        for item in page.get("Contents", [])
    ]
    for key in keys:
        path = target / key.removeprefix(prefix)
        path.parent.mkdir(parents=True, exist_ok=True)
        s3.download_file(BUCKET, key, str(path))
    set_modes(target, read_only=True)
    return len(keys)


def container_environment(settings: Any, model_dir: Path, port: int) -> tuple[dict[str, str], str]:
    """Step 4's environment: the image's, the stack's for the instance type, where SageMaker puts the model;
    and a note when this host cannot give the server the GPU the instance type would."""
    stacks_importable()
    from stacks.constructs.endpoint import server_environment

    env = {**IMAGE_ENV, **server_environment(settings.endpoint_name, settings.instance_type, settings.container_env)}
    env.update({"SM_MODEL_DIR": str(model_dir), "KOKORO_PORT": str(port), "KOKORO_HOST": "127.0.0.1"})
    note = ""
    if env.get("KOKORO_DEVICE") == "cuda" and not gpu_usable():
        # The GPU's plan on the CPU provider: its batch rewrite, the rewrite's checks and batched calls.
        env.setdefault("KOKORO_MAX_BATCH", str(GPU_MAX_BATCH))
        env["KOKORO_ALLOW_CPU_FALLBACK"] = "1"
        note = (
            f"{settings.instance_type} gets KOKORO_DEVICE=cuda; no GPU here, so KOKORO_ALLOW_CPU_FALLBACK=1 is added, "
            f"and KOKORO_MAX_BATCH={env['KOKORO_MAX_BATCH']} for the GPU's batched calls"
        )
    return env, note


def checked(chunks: list[AudioChunk], route: str) -> list[str]:
    """Each sentence's audio and word marks, checked as ``model check`` checks them; a line per sentence."""
    utterances: dict[str, list[AudioChunk]] = {}
    for chunk in chunks:
        utterances.setdefault(chunk.utterance_id, []).append(chunk)
    if not utterances:
        raise RehearsalFailed(f"{route}: no audio came back")
    lines = []
    for parts in utterances.values():
        sentence, per_ms = parts[0].text, parts[0].sample_rate / 1000
        audio = np.frombuffer(b"".join(part.audio for part in parts), dtype="<i2").astype(np.float32) / 32768
        words = [
            TimedWord(word.text, round(word.start_ms * per_ms), round(word.end_ms * per_ms))
            for part in parts
            for word in part.words
        ]
        problems = mark_problems(audio, words, sentence)
        if problems:
            raise RehearsalFailed(f"{route}: {sentence!r}: " + "; ".join(problems))
        seconds = len(audio) / parts[0].sample_rate
        lines.append(f"{route}: {sentence!r}: {seconds:.1f} s of audio, {len(words)} word marks on it")
    return lines


async def _spoken(transport: Any, text: str) -> list[AudioChunk]:
    async with Speaker(transport, format="pcm16", sample_rate=24000, marks=True, timeout=120) as speaker:
        return [chunk async for chunk in speaker.speak(text)]


def speak_through_runtime(port: int, endpoint_name: str) -> list[str]:
    """Step 5's speech: the real client over the SageMaker runtime emulator, POST then bidirectional."""
    with _environment(CREDENTIALS), emulating(f"http://127.0.0.1:{port}", endpoint_name, REGION) as emulator:
        runtime = boto3.client(
            "sagemaker-runtime", region_name=REGION, endpoint_url=emulator.url, verify=str(emulator.ca_file)
        )
        post = asyncio.run(_spoken(SageMakerPostTransport(endpoint_name, runtime), POST_TEXT))
        bidi_transport = SageMakerBidiTransport(
            endpoint_name, REGION, endpoint_uri=emulator.url, ca_file=emulator.ca_file
        )
        bidi = asyncio.run(_spoken(bidi_transport, BIDI_TEXT))
    return checked(post, "POST /invocations") + checked(bidi, "WS /invocations-bidirectional-stream")


def rehearse(port: int = 8080, say: Callable[[str], None] = print) -> Rehearsal:
    """The first deploy, step by step; ``say`` gets a line per step. Raises ``RehearsalFailed``."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the S3 stand-in's access log
    rehearsal = Rehearsal()

    def step(line: str) -> None:
        rehearsal.steps.append(line)
        say(line)

    settings = cdk_settings()
    model = deploy_shaped("onnx-community")
    step(f"hub: {settings.model_source.source}, served on loopback from {model}")
    s3_server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    s3_server.start()
    try:
        host, s3_port = s3_server.get_host_and_port()
        s3_url = f"http://{host}:{s3_port}"
        prefix, reply = populate(settings, model, s3_url)
        step(
            f"model cache: the populator wrote {reply['Data']['Files']} files and the manifest to s3://{BUCKET}/{prefix}"
        )
        with tempfile.TemporaryDirectory(prefix="kokoro-rehearsal-") as scratch:
            model_dir = Path(scratch) / "opt/ml/model"
            try:
                with _environment(CREDENTIALS):
                    s3 = boto3.client("s3", region_name=REGION, endpoint_url=s3_url)
                    files = deliver(s3, prefix, model_dir)
                owner = f"owned by uid {ANOTHER_USER}" if os.geteuid() == 0 else "owned by this user (not root)"
                step(f"/opt/ml/model: {files} files at {model_dir}, read-only, {owner}")
                _serve_and_speak(settings, model_dir, port, step, rehearsal)
            finally:
                set_modes(model_dir, read_only=False)  # so that the scratch folder can be removed, whatever failed
    finally:
        s3_server.stop()
    return rehearsal


def _serve_and_speak(
    settings: Any, model_dir: Path, port: int, step: Callable[[str], None], rehearsal: Rehearsal
) -> None:
    env, note = container_environment(settings, model_dir, port)
    if note:
        step(f"container: {note}")
    with socket.socket() as probe:  # a server already there would answer the health check for this one
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise RehearsalFailed(f"port {port} is in use: stop what listens there, or rehearse with --port")
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as log:  # a file, not a pipe: a pipe nobody reads fills and stalls the server
        process = subprocess.Popen(
            [sys.executable, "-m", "kokoro_server", "serve"],
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            try:  # /ping until 200, as SageMaker's health check polls it
                wait_ready(f"http://127.0.0.1:{port}", process, settings.health_check_timeout_seconds)
            except (RuntimeError, TimeoutError) as failed:
                log.seek(0)
                raise RehearsalFailed(f"{failed}; the server's log ends:\n{log.read()[-3000:]}") from None
            step(f"container: /ping answered 200 after {time.monotonic() - started:.0f} s, port {port}")
            for line in speak_through_runtime(port, settings.endpoint_name):
                step(line)
        finally:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.seek(0)
            output = log.read()
            rehearsal.server_log = output
            rehearsal.events = [json.loads(line) for line in output.splitlines() if line.startswith('{"event"')]
    if process.returncode != 0:
        raise RehearsalFailed(f"the server exited with status {process.returncode} on SIGTERM:\n{output[-3000:]}")
    loaded = next((event for event in rehearsal.events if event["event"] == "model_loaded"), None)
    if loaded is not None:
        step(f"container: model_loaded {json.dumps({k: v for k, v in loaded.items() if k != 'event'})}")
