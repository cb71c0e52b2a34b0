"""Whether a batch-capable graph may speak for the server: checked once at start, before it batches.

Two questions, each on two chunks of different lengths and speeds:

- does a batch give each item what it gets alone? Its durations exactly, and its audio within
  ``SNR_DB_ALONE`` (the float graph gives 60 dB and more, int8 the very samples; padding that leaks gives a
  few dB);
- does the rewritten graph, alone, still speak as the export does? A rewrite that harmed every item alike
  would pass the first question. It is not the same arithmetic (the int8 graph's LSTMs run in float, the
  harmonic source more exactly: ``batch_graph``), so the check is on what a listener would notice: each
  token's length within ``FRAMES_APART`` frames of the export's, and the loudness of the speech, frame by
  frame, following the export's (correlation at least ``ENVELOPE_CORRELATION``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .kokoro import Engine

CHECK_TEXTS = (("Ready when you are.", 1.0), ("One moment, please: I am checking that for you now.", 1.2))
SNR_DB_ALONE = 30.0
FRAMES_APART = 2
ENVELOPE_CORRELATION = 0.9


class BatchMismatch(RuntimeError):
    """A batch-capable graph did not speak as it must: its rewrite does not fit this model."""


def snr_db(reference: np.ndarray, other: np.ndarray) -> float:
    error = float(((reference - other) ** 2).sum())
    return 10 * np.log10(float((reference**2).sum()) / error) if error else float("inf")


def check_batch(engine: Engine) -> None:
    """Speak the check texts as one batch and each alone; raise ``BatchMismatch`` unless each item's durations
    are the same and its audio within ``SNR_DB_ALONE`` of what it is alone."""
    inputs = [engine.english_input(text, speed) for text, speed in CHECK_TEXTS]
    together = engine.run_model(inputs)
    alone = [engine.run_model([item])[0] for item in inputs]
    for (audio, durations), (single, single_durations) in zip(together, alone, strict=True):
        if not np.array_equal(durations, single_durations) or len(audio) != len(single):
            raise BatchMismatch("a batch changed an item's durations")
        if (snr := snr_db(single, audio)) < SNR_DB_ALONE:
            raise BatchMismatch(f"a batch changed an item's audio ({snr:.1f} dB from what it is alone)")


def check_against_export(engine: Engine, exported: Engine) -> None:
    """Speak the check texts alone on ``engine``'s graph and on ``exported``'s; raise ``BatchMismatch`` unless
    each token lasts within ``FRAMES_APART`` frames of the export's and the speech's loudness follows it."""
    for text, speed in CHECK_TEXTS:
        ((audio, durations),) = engine.run_model([engine.english_input(text, speed)])
        ((reference, reference_durations),) = exported.run_model([exported.english_input(text, speed)])
        apart = int(np.abs(durations - reference_durations).max())
        if apart > FRAMES_APART:
            raise BatchMismatch(f"the rewritten graph makes a token {apart} frames longer or shorter than the export")
        correlation = envelope_correlation(reference, audio, len(reference) // int(reference_durations.sum()))
        if correlation < ENVELOPE_CORRELATION:
            raise BatchMismatch(
                f"the rewritten graph's speech does not follow the export's (loudness correlation {correlation:.2f})"
            )


def envelope_correlation(reference: np.ndarray, other: np.ndarray, samples_per_frame: int) -> float:
    """How closely ``other``'s loudness (dB per frame) follows ``reference``'s, over their common length."""
    frames = min(len(reference), len(other)) // samples_per_frame

    def loudness(audio: np.ndarray) -> np.ndarray:
        power = (audio[: frames * samples_per_frame].astype(np.float64) ** 2).reshape(frames, -1).mean(axis=1)
        return 10 * np.log10(power + 1e-10)

    return float(np.corrcoef(loudness(reference), loudness(other))[0, 1])
