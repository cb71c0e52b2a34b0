"""Each language's G2P against the reader Kokoro v1.0 was trained with, its time per sentence and its memory.

    uv run python -m kokoro_bench.languages [--rounds 20] [--out docs/bench/languages.json]

For every language but English (its reader is unchanged), on the sentences of ``corpus/languages.json``
(agent replies, each language's own, a mixed-script or English-word sentence last):

- **agreement**: how close the server's phonemes (``kokoro_server.text.g2p``) are to misaki's reader called
  directly (the reference), as the share of sentences read identically and the mean similarity of the
  phoneme strings (difflib's ratio); the same for the reading before per-language G2P (espeak-ng through
  kokoro-onnx, flags and all), for comparison;
- **time**: the median milliseconds to read one sentence, the reader warm;
- **memory**: how much the process grows when the language's reader is created and first used, measured
  in a fresh interpreter per language (resident set size).

Differences from the reference are deliberate where they show: Latin words in Chinese and Japanese read
in English (the reference passes them through as letters), a number with a dot read whole.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib.resources import files
from pathlib import Path
from typing import Any

from .server_overhead import emit

CORPUS = files("kokoro_bench.corpus") / "languages.json"


def reference_reader(language: str) -> Any:
    """misaki's reader for ``language``, as Kokoro v1.0's pipeline builds it."""
    if language == "cmn":
        from misaki.zh import ZHG2P

        return ZHG2P()
    if language == "ja":
        from misaki.cutlet import Cutlet

        return Cutlet()
    from misaki.espeak import EspeakG2P

    return EspeakG2P(language=language)


def measure(language: str, rounds: int) -> dict[str, Any]:
    """One language, in this (fresh) interpreter."""
    from kokoro_onnx.config import DEFAULT_VOCAB
    from kokoro_onnx.tokenizer import Tokenizer

    from kokoro_server.text.g2p import G2P

    sentences = json.loads(CORPUS.read_text(encoding="utf-8"))[language]
    tokenizer = Tokenizer(vocab=DEFAULT_VOCAB)
    vocabulary = frozenset(DEFAULT_VOCAB)
    g2p = G2P(tokenizer.phonemize, vocabulary)
    g2p("Ready.", "en-us")  # English's reader is there before: only the language's own is counted
    before = resident_mib()
    ours = [g2p(sentence, language) for sentence in sentences]
    grown = resident_mib() - before
    reference = reference_reader(language)
    expected = ["".join(c for c in str(reference(s)[0]) if c in vocabulary) for s in sentences]
    previous = [tokenizer.phonemize(sentence, language) for sentence in sentences]
    times = []
    for _ in range(rounds):
        for sentence in sentences:
            started = time.perf_counter()
            g2p(sentence, language)
            times.append((time.perf_counter() - started) * 1000)
    return {
        "sentences": len(sentences),
        "agreement": agreement(ours, expected),
        "agreement_before": agreement(previous, expected),
        "g2p_ms_median": round(statistics.median(times), 2),
        "reader_memory_mib": round(grown, 1),
        "example": {"text": sentences[-1], "phonemes": ours[-1], "reference": expected[-1], "before": previous[-1]},
    }


def agreement(read: list[str], expected: list[str]) -> dict[str, float]:
    squeeze = ["".join(text.split()) for text in read], ["".join(text.split()) for text in expected]
    pairs = list(zip(*squeeze, strict=True))
    return {
        "identical": round(sum(a == b for a, b in pairs) / len(pairs), 3),
        "similarity": round(statistics.mean(difflib.SequenceMatcher(None, a, b).ratio() for a, b in pairs), 3),
    }


def resident_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a single language, in this interpreter
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.rounds), ensure_ascii=False))
        return
    languages = {}
    for language in json.loads(CORPUS.read_text(encoding="utf-8")):
        command = [sys.executable, "-m", "kokoro_bench.languages", "--one", language, "--rounds", str(args.rounds)]
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        languages[language] = json.loads(result.stdout.splitlines()[-1])
    emit(
        {
            "command": "uv run python -m kokoro_bench.languages" + (f" --out {args.out}" if args.out else ""),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
            "languages": languages,
        },
        args.out,
    )


if __name__ == "__main__":
    main()
