"""Opening what ``capacity`` measures: a server started here (its log lines captured), a server at a URL,
the SageMaker runtime emulator in front of a server started here, or an endpoint (live, or an emulator
someone else runs, given by ``--endpoint-url``)."""

from __future__ import annotations

import contextlib
import os
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kokoro_stream.endpoint import Endpoint

from .ladder import MetricRead
from .local_runtime import LOCAL_ENDPOINT, LocalRuntimeClient
from .server_log import CapturedLog, Telemetry, read_log_file
from .sessions import SpeechTarget

if TYPE_CHECKING:
    from kokoro_server.serving.background import BackgroundServer

LOCAL_SAMPLE_SECONDS = 1.0  # the load gauge of a server started here: finer than SageMaker's 10 s
LOCAL_EXTRA = "kokoro-stream-capacity[local]"


class NeedsLocalServer(ValueError):
    """A server or an emulator started here, where the package's ``local`` extra is not installed."""


def require_local(what: str, emulator: bool = False, instead: str = "--url (a running server) or --endpoint") -> None:
    """Fail with what to install, before anything starts, where the server (or the emulator) is missing."""
    needed = ("kokoro_server", "kokoro_tools") if emulator else ("kokoro_server",)
    if missing := [module for module in needed if find_spec(module) is None]:
        raise NeedsLocalServer(
            f"{what} starts {'a server and the emulator' if emulator else 'a server'} here, and "
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: install {LOCAL_EXTRA} "
            f"(with the server's and the tools' wheels: see the capacity guide), or give {instead}"
        )


@dataclass
class Opened:
    target: SpeechTarget
    description: dict[str, str]
    kind: str  # "local server", "emulator", "endpoint"
    telemetry: Telemetry | None = None
    metric: MetricRead | None = None
    metric_source: str = "none"
    extra: dict[str, Any] = field(default_factory=dict)


def any_credentials() -> None:
    """The emulator checks a signature's scope, not its secret: any credentials sign for it (real ones,
    when configured, are left alone)."""
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "AKIDLOCALEMULATOR")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "not-a-secret")


def telemetry_metric(telemetry: Telemetry) -> MetricRead:
    """The server's own load gauge as the concurrency metric: bidi sessions open, or POST utterances active."""

    def read(start: float, end: float, route: str) -> dict[str, float] | None:
        gauge = telemetry.gauge(start, end)
        if gauge is None:
            return None
        value = gauge["sessions_mean"] if route == "bidi" else gauge["active_utterances_mean"]
        return {"concurrency": value, "active_utterances_max": gauge["active_utterances_max"]}

    return read


def _read_later(server_log: Path, telemetry: Telemetry) -> MetricRead:
    """The log file is read at the first question, after the run: by then it has the whole run's lines."""
    read: list[MetricRead] = []

    def metric(start: float, end: float, route: str) -> dict[str, float] | None:
        if not read:
            read.append(telemetry_metric(read_log_file(server_log, telemetry)))
        return read[0](start, end, route)

    return metric


@contextlib.contextmanager
def _server_here(telemetry: Telemetry) -> Iterator[BackgroundServer]:
    from kokoro_server.serving.background import BackgroundServer
    from kokoro_server.settings import settings_from_env

    settings = settings_from_env(host="127.0.0.1", port=0, load_sample_seconds=LOCAL_SAMPLE_SECONDS)
    telemetry.sample_seconds = LOCAL_SAMPLE_SECONDS
    with CapturedLog(telemetry), BackgroundServer(settings) as server:
        yield server


def _websocket(url: str) -> SpeechTarget:
    from kokoro_stream.websocket_transport import WebSocketTransport

    url = url.rstrip("/")
    ws_url = url.replace("http://", "ws://").replace("https://", "wss://") + "/invocations-bidirectional-stream"
    try:
        with urllib.request.urlopen(f"{url}/ping", timeout=10) as response:
            response.read()
    except (OSError, ValueError) as error:  # refused, unreachable, not a URL, or not this server (an HTTP error)
        raise ValueError(
            f"no speech server answered at {url}/ping ({error}): is --url right, and is it running?"
        ) from None
    return SpeechTarget(lambda: WebSocketTransport(ws_url), LocalRuntimeClient(url), LOCAL_ENDPOINT)


def _endpoint_target(endpoint: Endpoint) -> SpeechTarget:
    return SpeechTarget(endpoint.bidi, endpoint.runtime_client(), endpoint.name)


@contextlib.contextmanager
def open_measured(
    url: str | None = None,
    endpoint: Endpoint | None = None,
    emulate: bool = False,
    server_log: Path | None = None,
    voice: str = "af_heart",
    variant: str = "AllTraffic",
) -> Iterator[Opened]:
    """The target and what can be read about its load. ``emulate``: a server and an emulator started here."""
    if sum((url is not None, endpoint is not None, emulate)) > 1:
        raise ValueError("give one of --url, --endpoint or --emulate")
    telemetry = Telemetry()
    if endpoint is not None:
        where = f"SageMaker endpoint {endpoint.name} ({endpoint.region})" + (
            f" at {endpoint.url}" if endpoint.url else ""
        )
        kind = "emulator" if endpoint.url else "endpoint"
        opened = Opened(_endpoint_target(endpoint), {"target": where}, kind)
        if kind == "endpoint":
            from .aws import cloudwatch_concurrency

            opened.metric = cloudwatch_concurrency(endpoint.name, endpoint.region, variant=variant)
            opened.metric_source = "CloudWatch ConcurrentRequestsPerModelHighResolution (Average, 10 s)"
        opened.target.voice = voice
        yield opened
        return
    if url is not None:
        opened = Opened(_websocket(url), {"target": f"server at {url}"}, "local server")
        opened.target.voice = voice
        if server_log is not None:
            opened.telemetry = telemetry
            opened.metric = _read_later(server_log, telemetry)
            opened.metric_source = f"the server's load gauge in {server_log}"
        yield opened
        return
    require_local("--emulate" if emulate else "measuring with no --url and no --endpoint", emulator=emulate)
    with _server_here(telemetry) as server:
        engine = os.environ.get("KOKORO_ENGINE", "kokoro")
        source = "the server's load gauge (Sessions / ActiveUtterances, 1 s samples)"
        if not emulate:
            opened = Opened(
                _websocket(server.url), {"target": f"local server started here (engine {engine})"}, "local server"
            )
        else:
            from kokoro_tools.emulator_host import emulating

            any_credentials()
            emulator = contextlib.ExitStack()
            running = emulator.enter_context(emulating(server.url, "kokoro-tts", "us-east-1"))
            endpoint = Endpoint("kokoro-tts", "us-east-1", running.url, running.ca_file)
            where = f"emulator at {running.url} in front of a local server started here (engine {engine})"
            opened = Opened(_endpoint_target(endpoint), {"target": where}, "emulator")
            opened.extra["close"] = emulator
        opened.target.voice = voice
        opened.telemetry, opened.metric, opened.metric_source = telemetry, telemetry_metric(telemetry), source
        try:
            yield opened
        finally:
            if "close" in opened.extra:
                opened.extra.pop("close").close()
