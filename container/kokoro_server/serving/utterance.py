"""One utterance: what was asked (``Request``, fixed at admission), what its script is (text, or an SSML
document's runs, pauses and marks, parsed on a text thread), and how far it has got (``Progress``, which only
the event loop writes). Its admission (``admission``) is settled once by whoever runs it.

Both routes use it: POST /invocations speaks one utterance per request, a WebSocket session many in a row.
How it is spoken is ``rendering``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection
from concurrent.futures import Future
from dataclasses import dataclass, field

from kokoro_core.audio_format import wav_header
from kokoro_core.errors import ProtocolError
from kokoro_core.options import SpeechOptions
from kokoro_core.segmenter import join_words
from kokoro_core.server_messages import Word
from kokoro_core.speakable import has_speech, language_of
from kokoro_core.ssml import SsmlError, parse_ssml
from kokoro_server.engine.speech_engine import Interruption
from kokoro_server.text.script import Run, Script, ssml_script

from .admission import Admission


@dataclass(frozen=True)
class Request:
    """What was asked, as admitted."""

    id: str
    session: str
    options: SpeechOptions
    # A sentence of a text stream (``contexts``): its context, and how far into the context's text it reaches.
    context: str | None = None
    stream_chars: int | None = None
    # The first chunk's limit in characters and whether it must fit (cut between words if need be): set by the
    # client when it resumes an utterance, else planned when synthesis starts.
    first_chunk: tuple[int, bool] | None = None
    received: float = field(default_factory=time.perf_counter)


@dataclass
class Progress:
    """How far the utterance has got, and what it has cost: written on the event loop only (work done on other
    threads comes back as their result)."""

    first_chunk: tuple[int, bool] | None = None  # as planned when synthesis started
    audio_bytes: int = 0
    first_audio_at: float | None = None
    words: list[Word] = field(default_factory=list)  # of the chunks rendered so far
    synth_seconds: float = 0.0  # the model's share of its calls, and rendering the audio for the wire
    text_seconds: float = 0.0  # on text threads: planning chunks and preparing them for the model
    planning_seconds: float = 0.0  # spent reading the text to plan its chunks (part of text_seconds)


@dataclass
class Utterance:
    request: Request
    admission: Admission
    text: str  # as written (an SSML document's without its markup, once parsed)
    # What is said, in order; an SSML document's is made on a text thread (``parsing``) before it is spoken.
    script: Script | None = None
    parsing: Future[Script] | None = None
    interruption: Interruption = field(default_factory=Interruption)
    progress: Progress = field(default_factory=Progress)

    @property
    def id(self) -> str:
        return self.request.id

    @property
    def session(self) -> str:
        return self.request.session

    @property
    def options(self) -> SpeechOptions:
        return self.request.options

    @property
    def context(self) -> str | None:
        return self.request.context

    @property
    def stream_chars(self) -> int | None:
        return self.request.stream_chars

    @property
    def sent_text(self) -> str:
        """The written words whose audio has all been sent."""
        return join_words(word.text for word in self.progress.words if word.end_ms <= self.audio_ms)

    def sent(self, audio_bytes: int) -> None:
        progress = self.progress
        if progress.first_audio_at is None and audio_bytes:
            progress.first_audio_at = time.perf_counter()
        progress.audio_bytes += audio_bytes

    @property
    def header(self) -> bytes:
        """Bytes that precede the audio on the wire (the WAV header); not counted as audio."""
        return wav_header(self.options.format.sample_rate) if self.options.format.encoding == "wav" else b""

    @property
    def ttfa_ms(self) -> float | None:
        first = self.progress.first_audio_at
        return None if first is None else round(1000 * (first - self.request.received), 1)

    @property
    def audio_ms(self) -> float:
        return round(self.options.format.duration_ms(self.progress.audio_bytes), 1)

    @property
    def rtf(self) -> float | None:
        return round(self.progress.synth_seconds / (self.audio_ms / 1000), 4) if self.audio_ms else None


async def script_of(utterance: Utterance) -> Script:
    """The utterance's script, once its SSML is parsed; raises ``ProtocolError`` for a document it refuses."""
    if utterance.script is None:
        assert utterance.parsing is not None
        utterance.script = await asyncio.wrap_future(utterance.parsing)
        utterance.text = utterance.script.text
    return utterance.script


def parse_script(document: str, voice: str, symbols: Collection[str]) -> Script:
    """An SSML document's script for ``voice``, on a text thread: linear and bounded (``kokoro_core.ssml``)."""
    try:
        script = ssml_script(parse_ssml(document), language_of(voice), symbols)
    except SsmlError as error:
        raise ProtocolError("invalid_ssml", f"{error}; see docs/ssml.md for the SSML this server reads") from None
    language = language_of(voice)
    if not any(not isinstance(step, Run) or has_speech(step.text, language) for step in script.steps):
        raise ProtocolError("nothing_to_speak", f"the SSML has nothing voice {voice!r} ({language}) can speak")
    return script


def check_speakable(text: str, voice: str, foreign_script: str = "read") -> None:
    """Refuse, before any work, a text in which the voice would find nothing to say (one C-speed scan: it
    runs as a message is read)."""
    language = language_of(voice)
    if not has_speech(text, language, foreign_script):
        raise ProtocolError(
            "nothing_to_speak",
            f"text has nothing voice {voice!r} ({language}) can speak: markdown marks, code blocks, emoji, symbols "
            "and, for English voices, characters of scripts no reader here reads (and of every other script with "
            "foreign_script skip) are skipped",
        )
