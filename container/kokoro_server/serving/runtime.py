"""What every route shares: settings, the engine once loaded, the scheduler, the server state."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial
from typing import Literal, Protocol

from kokoro_core.errors import ProtocolError
from kokoro_core.lexicon import Lexicon
from kokoro_core.markdown import spoken_from_markdown
from kokoro_core.options import SpeechOptions, check_text_length, default_options, resolve_options
from kokoro_core.protocol import Speak, SpeakRequest, SpeechOptionFields
from kokoro_core.speakable import language_of
from kokoro_core.ssml import is_ssml
from kokoro_server.engine.device import Plan
from kokoro_server.engine.speech_engine import SpeechEngine
from kokoro_server.settings import ServerSettings
from kokoro_server.text.script import plain_script

from . import telemetry
from .admission import Admission, Outcome
from .in_flight import InFlight
from .rendering import Rendered, render
from .scheduler import Busy, Scheduler
from .utterance import Request, Utterance, check_speakable, parse_script, script_of

State = Literal["starting", "ready", "draining"]


class OpenSession(Protocol):
    """What the server asks of a WebSocket session while it drains (``session.Session``)."""

    def close(self, code: int = 1000) -> None: ...

    async def abort(self) -> None: ...


@dataclass
class Runtime:
    settings: ServerSettings
    scheduler: Scheduler
    engine: SpeechEngine | None = None
    plan: Plan | None = None  # where the engine runs and how its work is split, once loaded
    lexicon: Lexicon = field(default_factory=Lexicon)  # server-wide pronunciations (lexicon.py)
    state: State = "starting"
    sessions: set[OpenSession] = field(default_factory=set)
    requests: InFlight = field(default_factory=InFlight)  # handlers streaming one utterance each
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _reported: tuple[int, int] = (0, 0)  # model calls and the chunks they spoke, at the last load sample

    @property
    def ready(self) -> bool:
        return self.state == "ready" and self.engine is not None

    def new_id(self, prefix: str) -> str:
        return f"{prefix}-{next(self._ids)}"

    def admit(
        self,
        request: Speak | SpeakRequest,
        utterance_id: str,
        session_id: str,
        defaults: SpeechOptions,
        first_chunk: tuple[int, bool] | None = None,
        context: str | None = None,
        stream_chars: int | None = None,
        markdown_read: bool = False,
    ) -> Utterance:
        """Check a speak (or a POST body) against this server and admit it; one path for both routes. The
        caller owns the admission: it settles it once (``admission``).

        The utterance holds the text as it is said: markdown marks, code blocks and URLs are read as words
        (``kokoro_core.markdown``), so word marks and captions name the words heard; a sentence a context cut is
        ``markdown_read`` (``kokoro_core.speech_text`` read it and found speech in it), and is not read again. An
        SSML document is parsed on a text thread from now on; ``parsed`` waits for it and refuses one it cannot read.
        Raises ``ProtocolError``: an option this server cannot honour, nothing to say, or ``busy``.
        """
        assert self.engine is not None
        text = check_text_length(request.text, self.settings.max_text_chars)
        options = self.resolve(request, defaults)
        ssml = is_ssml(text, request.ssml)
        if not ssml and not markdown_read:
            # Markdown is read as words (kokoro_core.markdown): linear passes, bounded by the length check.
            text = spoken_from_markdown(text)
            check_speakable(text, options.voice, options.foreign_script)
        try:
            ticket = self.scheduler.admit(session_id)
        except Busy as error:
            raise ProtocolError("busy", str(error)) from None
        asked = Request(utterance_id, session_id, options, context, stream_chars, first_chunk)
        admission = Admission(
            ticket.release, lambda outcome: self._report(utterance, outcome), ticket.last_chunk_spoken
        )
        utterance = Utterance(asked, admission, text)
        if ssml:
            utterance.parsing = self.scheduler.prepare(
                partial(parse_script, text, options.voice, self.engine.phoneme_symbols)
            )
        else:
            utterance.script = plain_script(text)
        return utterance

    async def parsed(self, utterance: Utterance) -> None:
        """Wait until the utterance's SSML is parsed; raises ``ProtocolError`` for a document it refuses."""
        await script_of(utterance)

    def resolve(self, fields: SpeechOptionFields, defaults: SpeechOptions) -> SpeechOptions:
        """``fields`` over ``defaults``, checked against this server's voices and the languages it reads."""
        assert self.engine is not None
        options = resolve_options(fields, defaults, self.engine.voices, self.engine.phoneme_symbols)
        if fields.voice is not None and (language := language_of(options.voice)) not in self.engine.languages:
            raise ProtocolError(
                "unknown_voice",
                f"voice {options.voice!r} speaks {language}, which this server cannot read (it was installed or "
                f"built without it); it reads: {', '.join(self.engine.languages)}",
            )
        return options

    def default_options(self) -> SpeechOptions:
        assert self.engine is not None
        return default_options(self.engine.default_voice, self.lexicon)

    def render(self, utterance: Utterance, first_chunk: tuple[int, bool]) -> AsyncIterator[Rendered]:
        """The utterance's audio chunk by chunk, on this server's engine, workers and chunk settings."""
        assert self.engine is not None
        settings = self.settings
        return render(utterance, self.engine, self.scheduler, first_chunk, settings.max_chunk_chars)

    def _report(self, utterance: Utterance, outcome: Outcome) -> None:
        telemetry.utterance_done(utterance, outcome, self.settings.metrics_namespace, self.settings.endpoint_name)

    def report_load(self) -> None:
        stats = self.scheduler.stats()
        calls, items = self.scheduler.calls, self.scheduler.items
        last_calls, last_items = self._reported
        self._reported = (calls, items)
        telemetry.load_sample(
            stats["queued_jobs"],
            stats["active_utterances"],
            len(self.sessions),
            round((items - last_items) / (calls - last_calls), 2) if calls > last_calls else 0.0,
            self.engine is not None and self.engine.device == "cuda",
            self.settings.metrics_namespace,
            self.settings.endpoint_name,
        )
