"""What every route shares: settings, the engine once loaded, the scheduler, the server state."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from kokoro_core.lexicon import Lexicon
from kokoro_core.options import SpeechOptions, default_options

from . import telemetry
from .scheduler import Scheduler
from .settings import ServerSettings
from .speech_engine import SpeechEngine
from .utterance import Utterance

if TYPE_CHECKING:
    from .session import Session

State = Literal["starting", "ready", "draining"]


@dataclass
class Runtime:
    settings: ServerSettings
    scheduler: Scheduler
    engine: SpeechEngine | None = None
    lexicon: Lexicon = field(default_factory=Lexicon)  # server-wide pronunciations (lexicon.py)
    state: State = "starting"
    sessions: set[Session] = field(default_factory=set)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def ready(self) -> bool:
        return self.state == "ready" and self.engine is not None

    def new_id(self, prefix: str) -> str:
        return f"{prefix}-{next(self._ids)}"

    def default_options(self) -> SpeechOptions:
        assert self.engine is not None
        return default_options(self.engine.default_voice, self.lexicon)

    def finished(self, utterance: Utterance, outcome: str) -> None:
        """Release the utterance's admission slot and log it; safe to call once per utterance."""
        if utterance.ticket.released:
            return
        utterance.ticket.release()
        telemetry.utterance_done(utterance, outcome, self.settings.metrics_namespace, self.settings.endpoint_name)

    def report_load(self) -> None:
        stats = self.scheduler.stats()
        telemetry.load_sample(
            stats["queued_jobs"],
            stats["active_utterances"],
            len(self.sessions),
            self.settings.metrics_namespace,
            self.settings.endpoint_name,
        )
