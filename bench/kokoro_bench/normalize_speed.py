"""How long the text normalizer takes per sentence, on the corpus and on the normalizer's own test tables,
and how that time grows with crafted text.

    uv run python -m kokoro_bench.normalize_speed [--rounds 200] [--out docs/bench/normalize_speed.json]
    uv run python -m kokoro_bench.normalize_speed --against /tmp/norm-before/container --out ...

Every sentence is normalized ``--rounds`` times; the result gives the median and 99th percentile of one
sentence's time, in microseconds. ``--against`` measures another checkout's normalizer side by side: two
worker processes, one with that ``kokoro_server`` first on its path, take turns (``--turns`` each), so a busy
machine slows both alike, and the result gives their ratio. Crafted texts (a run of one kind of token, 2.5 kB
and 20 kB) give the growth of time with length: linear is 8x. Beside the normalizer alone, each sentence's whole text
work is timed as the engine does it before G2P: what is said and which written word says it (``text_work``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from .server_overhead import emit

CASES = (Path("tests/server/text/normalize_cases.tsv"), Path("tests/server/text/normalize_kinds.tsv"))
CRAFTED = {"numbers": "1,234.56 ", "codes": "A1-b2/C3 ", "amounts": "$12.99/mo ", "words": "plain ", "dots": "a."}


def sentences() -> list[str]:
    from kokoro_bench.corpus import AGENT_REPLIES, load_replies
    from kokoro_core.segmenter import split_sentences

    corpus = [s for reply in load_replies(AGENT_REPLIES).values() for s in split_sentences(reply)]
    table = [
        line.split("\t")[2]
        for path in CASES
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return corpus + table


def _measure(rounds: int) -> dict[str, object]:
    """Per-sentence times (µs) of the normalizer on the path, and its time on crafted texts."""
    from kokoro_server.text.normalize import normalize

    texts = sentences()
    times_us = []
    for _ in range(rounds):
        for text in texts:
            started = time.perf_counter()
            normalize(text)
            times_us.append((time.perf_counter() - started) * 1e6)
    work_us = _text_work(texts, rounds)
    crafted = {}
    for name, unit in CRAFTED.items():
        best = []
        for size in (2_500, 20_000):
            text = unit * (size // len(unit))
            runs = []
            for _ in range(3):
                started = time.perf_counter()
                normalize(text)
                runs.append(time.perf_counter() - started)
            best.append(min(runs))
        crafted[name] = {"ms_2500": round(best[0] * 1e3, 2), "ms_20000": round(best[1] * 1e3, 2)}
    return {"sentences": len(texts), "mean_chars": round(statistics.mean(map(len, texts)), 1), "times_us": times_us,
            "work_us": work_us, "crafted": crafted}  # fmt: skip


def _text_work(texts: list[str], rounds: int) -> list[float]:
    """Per-sentence times (µs) of a chunk's whole text work before G2P, as the engine does it: what is said, and
    which written word each said word comes from (``word_sources.written_words``), with no reading cached."""
    from kokoro_server.text import reading as readings

    try:
        from kokoro_server.text.word_sources import written_words
    except ImportError:  # a checkout from before word_sources: word_timing held it
        from kokoro_server.text.word_timing import written_words  # type: ignore[attr-defined,no-redef]

    voice = readings.VoiceReading()
    read_once = hasattr(voice, "parts")  # a checkout that reads a chunk once, for both
    times_us = []
    for _ in range(rounds):
        for text in texts:
            readings._said.cache_clear()
            started = time.perf_counter()
            if read_once:
                written_words(text, voice, voice.parts(text))  # type: ignore[call-arg]
            else:
                list(readings.said_pieces(text, voice.language))
                written_words(text, voice)
            times_us.append((time.perf_counter() - started) * 1e6)
    return times_us


def _summary(times_us: list[float], work_us: list[float]) -> dict[str, float]:
    ordered, work = sorted(times_us), sorted(work_us)
    return {
        "us_per_sentence_median": round(statistics.median(ordered), 1),
        "us_per_sentence_p99": round(ordered[int(len(ordered) * 0.99)], 1),
        "text_work_us_per_sentence_median": round(statistics.median(work), 1),
        "text_work_us_per_sentence_p99": round(work[int(len(work) * 0.99)], 1),
    }


def _worker(path: str | None, rounds: int) -> dict[str, object]:
    env = dict(os.environ)
    if path:  # the checkout's container/, and its core/ beside it: the two change together
        core = os.path.join(os.path.dirname(os.path.abspath(path)), "core")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, core, env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "kokoro_bench.normalize_speed", "--worker", "--rounds", str(rounds)]
    output = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--against", help="another checkout's container/ folder, measured side by side")
    parser.add_argument("--turns", type=int, default=3, help="turns each normalizer takes, alternately")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_measure(args.rounds)))
        return
    machine = {"platform": platform.platform(), "cpus": os.cpu_count()}
    if not args.against:
        measured = _measure(args.rounds)
        times, work = measured.pop("times_us"), measured.pop("work_us")
        assert isinstance(times, list) and isinstance(work, list)
        emit({"machine": machine, "rounds": args.rounds, **measured, **_summary(times, work)}, args.out)
        return
    results: dict[str, dict[str, object]] = {label: {"times_us": [], "work_us": []} for label in ("this", "against")}
    for _ in range(args.turns):
        for label, path in (("against", args.against), ("this", None)):
            measured = _worker(path, max(1, args.rounds // args.turns))
            results[label]["times_us"] += measured.pop("times_us")  # type: ignore[operator]
            results[label]["work_us"] += measured.pop("work_us")  # type: ignore[operator]
            results[label] |= measured
    summary = {label: {**{k: v for k, v in r.items() if k not in ("times_us", "work_us")},
                       **_summary(r["times_us"], r["work_us"])}  # type: ignore[arg-type]
               for label, r in results.items()}  # fmt: skip
    this, against = summary["this"], summary["against"]
    ratio = this["us_per_sentence_median"] / against["us_per_sentence_median"]  # type: ignore[operator]
    work_ratio = this["text_work_us_per_sentence_median"] / against["text_work_us_per_sentence_median"]  # type: ignore[operator]
    emit({"machine": machine, "rounds": args.rounds, "turns": args.turns, "against": args.against,
          "this": this, "before": against, "median_ratio_this_to_before": round(ratio, 2),
          "text_work_median_ratio_this_to_before": round(work_ratio, 2)}, args.out)  # fmt: skip


if __name__ == "__main__":
    main()
