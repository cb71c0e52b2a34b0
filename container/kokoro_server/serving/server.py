"""Server lifecycle: listen at once, then verify, load and warm the model; drain on SIGTERM.

/ping answers 503 until the model is verified, loaded and warm, then 200. On SIGTERM (or
Ctrl-C) the server refuses new work, lets sessions finish their queued audio for up to
``drain_seconds``, closes what is left with 1001 (going away) and exits 0 — inside the 30 s
SageMaker allows before SIGKILL. Past the deadline nothing waits for the engine: an inference call
in flight is stopped at its next graph node, so the exit does not depend on how long a chunk takes.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

from aiohttp import web

from kokoro_core.lexicon import FILE_NAME as LEXICON_FILE
from kokoro_core.lexicon import NO_LEXICON, Lexicon, load_lexicon
from kokoro_core.model_cache import Manifest, verify_directory
from kokoro_server.engine.device import Plan, admission_bound, cuda_driver_version, load_on_device, text_threads
from kokoro_server.engine.speech_engine import SpeechEngine
from kokoro_server.openai_api.routes import add_openai_routes
from kokoro_server.settings import ServerSettings, SettingsError, settings_from_env

from . import telemetry
from .routes import RUNTIME, EngineSpeech, add_routes, json_error_middleware
from .runtime import Runtime
from .scheduler import Scheduler
from .session import GOING_AWAY

SHUTDOWN_SECONDS = 2.0  # after the drain deadline: how long open requests get before they are cut
ABORT_SECONDS = 1.0  # after the drain deadline: how long a client gets to answer the closing handshake
# After the drain deadline, the most the rest of a stop takes: the web server waits for a request still
# open (none should be: they were cut) once gracefully and once after canceling it.
CUT_SECONDS = ABORT_SECONDS + 2 * SHUTDOWN_SECONDS


def build_app(runtime: Runtime) -> web.Application:
    app = web.Application(client_max_size=runtime.settings.max_message_bytes, middlewares=[json_error_middleware()])
    app[RUNTIME] = runtime
    add_routes(app)
    add_openai_routes(app, EngineSpeech(runtime))  # for local use: SageMaker routes only /ping and /invocations*
    return app


def verified_model(settings: ServerSettings) -> tuple[Path, Manifest]:
    """The model directory (given, or the embedded default) with every file verified."""
    if settings.model_dir is not None:
        return settings.model_dir, verify_directory(settings.model_dir)
    from kokoro_server.engine.embedded_model import verified_model as embedded

    return embedded()


def load_engine(settings: ServerSettings) -> tuple[SpeechEngine, Plan]:
    """Verify every file, load the model and voices on the device the session really gets; raise on failure."""
    directory, manifest = verified_model(settings)
    engine, plan = load_on_device(settings, directory, manifest)
    telemetry.event(
        "model_loaded",
        directory=directory,
        source=manifest.source,
        interface=engine.interface.describe(),
        providers=engine.providers,
        cuda_driver=cuda_driver_version(),
        device=plan.device,
        workers=plan.workers,
        threads_per_worker=plan.threads_per_worker or "auto",
        max_batch=plan.max_batch,
        **({"note": plan.note} if plan.note else {}),
    )
    return engine, plan


def server_lexicon(settings: ServerSettings, engine: SpeechEngine) -> Lexicon:
    """The server-wide lexicon: the file set, else the model's lexicon.json, else none; raises if invalid."""
    path = settings.lexicon_file
    if path is None:
        if engine.model_dir is None or not (engine.model_dir / LEXICON_FILE).is_file():
            return NO_LEXICON
        path = engine.model_dir / LEXICON_FILE
    lexicon = load_lexicon(path, engine.phoneme_symbols)
    telemetry.event("lexicon_loaded", path=path, entries=len(lexicon))
    return lexicon


class Server:
    """A running server; ``start`` returns once it listens, ``ready`` once it can synthesize."""

    def __init__(self, settings: ServerSettings, engine: SpeechEngine | None = None) -> None:
        """``engine``: one already made (a test's fake engine, say) instead of loading one from ``settings``;
        ``KOKORO_ENGINE=fake`` makes the deterministic fake engine, with no model."""
        self.settings = settings
        if engine is None and settings.engine == "fake":
            from kokoro_server.engine.fake_engine import FakeEngine

            engine = FakeEngine()
        self._given_engine = engine
        self.runtime = Runtime(settings, Scheduler(settings.max_active_utterances))  # the bound is set at start
        self.ready = asyncio.Event()
        self.failed: BaseException | None = None
        self._runner: web.AppRunner | None = None
        self._load_reporter: asyncio.Task[None] | None = None
        self.port = settings.port

    async def start(self) -> None:
        started = time.perf_counter()
        self._runner = web.AppRunner(
            build_app(self.runtime), handler_cancellation=True, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        telemetry.event("listening", host=self.settings.host, port=self.port)
        try:
            if self._given_engine is not None:
                engine = self._given_engine
                wait = (self.settings.batch_wait_ms or 0.0) if engine.max_batch > 1 else 0.0
                plan = Plan(
                    engine.device,
                    self.settings.workers or 1,
                    1,
                    "an engine without a model to load",
                    engine.max_batch,
                    wait,
                )
            else:
                engine, plan = await asyncio.to_thread(load_engine, self.settings)
            self.runtime.lexicon = server_lexicon(self.settings, engine)
            warm_seconds = await asyncio.to_thread(engine.warm_up)
        except BaseException as error:
            self.failed = error
            self.ready.set()
            raise
        self.runtime.engine = engine
        self.runtime.plan = plan
        scheduler = self.runtime.scheduler
        scheduler.max_active = admission_bound(self.settings, plan)
        scheduler.start(engine, plan.workers, plan.batch_wait_ms / 1000, text_threads(plan))
        self.runtime.state = "ready"
        telemetry.event(
            "ready",
            seconds=round(time.perf_counter() - started, 2),
            warm_up_seconds=round(warm_seconds, 2),
            device=engine.device,
            workers=scheduler.workers,
            max_batch=scheduler.max_batch,
            batch_wait_ms=plan.batch_wait_ms,
            max_active_utterances=scheduler.max_active,
            voices=len(engine.voices),
        )
        self._load_reporter = asyncio.create_task(self._report_load())
        self.ready.set()

    async def _report_load(self) -> None:
        """The load gauge, from ready until draining: scaling and instance health read it."""
        while self.runtime.ready:
            self.runtime.report_load()
            await asyncio.sleep(self.settings.load_sample_seconds)

    async def stop(self) -> int:
        """Drain: refuse new work, let sessions finish within the deadline, cut the rest.

        Returns how many inference calls were stopped part-way by the cut.
        """
        runtime = self.runtime
        runtime.state = "draining"
        if self._load_reporter is not None:
            self._load_reporter.cancel()
        for session in list(runtime.sessions):
            session.close(GOING_AWAY)
        deadline = time.monotonic() + self.settings.drain_seconds
        while runtime.scheduler.stats()["active_utterances"] and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        telemetry.event("stopping", unfinished=runtime.scheduler.stats()["active_utterances"])
        engine = runtime.engine
        interrupted_before = engine.interrupted_calls if engine is not None else 0
        # Closing a session cancels its utterance, which stops its inference call in flight; so does
        # canceling a request's handler (the drain was its grace). Both end here, at once, not in the web
        # server's graceful wait (in_flight.py).
        requests_cut = asyncio.create_task(runtime.requests.end(grace_seconds=0, cut_seconds=ABORT_SECONDS))
        aborts = [asyncio.create_task(session.abort()) for session in list(runtime.sessions)]
        if aborts:
            _, late = await asyncio.wait(aborts, timeout=ABORT_SECONDS)
            for task in late:  # a client that never answers the close frame: drop its connection
                task.cancel()
            await asyncio.gather(*aborts, return_exceptions=True)
        await requests_cut
        if self._runner is not None:
            await self._runner.shutdown()
            await self._runner.cleanup()
        if engine is not None:
            engine.stop()  # whatever still runs ends at its next graph node; nothing new starts
        await runtime.scheduler.stop()
        return engine.interrupted_calls - interrupted_before if engine is not None else 0


async def serve(settings: ServerSettings) -> int:
    """Run until SIGTERM or SIGINT; return the exit status."""
    server = Server(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    starting = asyncio.create_task(server.start())
    stopped = asyncio.create_task(stop.wait())
    await asyncio.wait({starting, stopped}, return_when=asyncio.FIRST_COMPLETED)
    if starting.done() and starting.exception() is not None:
        telemetry.event("fatal", error=str(starting.exception()))
        await server.stop()
        return 1
    await stopped
    signaled = time.monotonic()
    starting.cancel()
    await asyncio.gather(starting, return_exceptions=True)
    interrupted = await server.stop()
    telemetry.event(
        "stopped",
        interrupted_inference_calls=interrupted,
        seconds=round(time.monotonic() - signaled, 3),
        bound_seconds=settings.drain_seconds + CUT_SECONDS,
    )
    return 0


def run_server(host: str | None = None, port: int | None = None, model_dir: Path | None = None) -> int:
    """Entry point for ``python -m kokoro_server serve`` and ``kokoro-stream serve``; returns the exit status."""
    telemetry.configure_logging()
    try:
        settings = settings_from_env(host=host, port=port, model_dir=model_dir)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return asyncio.run(serve(settings))
