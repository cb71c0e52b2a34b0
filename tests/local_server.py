"""A real speech server on a loopback port, with the embedded model, for server and client tests."""

from __future__ import annotations

from pathlib import Path

from kokoro_server.serving.background import BackgroundServer
from kokoro_server.settings import settings_from_env
from tests.waiting import HANG_GUARD_SECONDS, wait_until


class RunningServer(BackgroundServer):
    def stats(self) -> dict[str, int]:
        return self.call(self.server.runtime.scheduler.stats)


def start_server(model_dir: Path, **settings: object) -> RunningServer:
    """KOKORO_* variables apply (KOKORO_ENGINE_SLOWDOWN rehearses a slower machine); ``settings`` win."""
    return RunningServer(settings_from_env(host="127.0.0.1", port=0, model_dir=model_dir, **settings)).start()


def wait_until_idle(running: RunningServer, timeout: float = HANG_GUARD_SECONDS) -> dict[str, int]:
    """Wait for the server to settle after clients leave; return its scheduler counters (a hang guard of
    ``timeout`` seconds: a chunk left to finish takes many seconds on a slow CPU)."""

    def idle() -> dict[str, int] | None:
        stats = running.stats()
        return None if stats["active_utterances"] or stats["queued_jobs"] or stats["running_jobs"] else stats

    return wait_until(idle, "the server to settle: no utterance admitted, no job queued or running", timeout)
