"""How long the text normalizer takes per sentence, on the corpus and on the normalizer's own test table.

    uv run python -m kokoro_bench.normalize_speed [--rounds 200] [--out docs/bench/normalize_speed.json]

Every sentence is normalized ``--rounds`` times; the result gives the median and 99th percentile of
one sentence's time, in microseconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

from kokoro_bench.corpus import AGENT_REPLIES, load_replies
from kokoro_core.segmenter import split_sentences
from kokoro_server.text.normalize import normalize

from .server_overhead import emit

CASES = Path("tests/server/text/normalize_cases.tsv")  # from the repository root


def sentences() -> list[str]:
    corpus = [s for reply in load_replies(AGENT_REPLIES).values() for s in split_sentences(reply)]
    table = [line.split("\t")[2] for line in CASES.read_text().splitlines() if line and not line.startswith("#")]
    return corpus + table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    texts = sentences()
    times_us = []
    for _ in range(args.rounds):
        for text in texts:
            started = time.perf_counter()
            normalize(text)
            times_us.append((time.perf_counter() - started) * 1e6)
    times_us.sort()
    emit(
        {
            "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
            "sentences": len(texts),
            "mean_chars": round(statistics.mean(map(len, texts)), 1),
            "rounds": args.rounds,
            "us_per_sentence_median": round(statistics.median(times_us), 1),
            "us_per_sentence_p99": round(times_us[int(len(times_us) * 0.99)], 1),
        },
        args.out,
    )


if __name__ == "__main__":
    main()
