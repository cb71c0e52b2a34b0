"""This normalizer against NeMo's text normalizer (nemo_text_processing, the weighted-grammar tagger and
verbalizer on PyPI), side by side in one process, on the English forms of docs/bench/normalize_unseen.tsv and
the American rows of the blind set docs/bench/normalize_blind_2.

NeMo is not one of the project's dependencies (pynini and its grammars are about 900 MB with what they
pull in), so this study is a script beside the bench package, not a module of it, and runs in a virtual
environment of its own, with this repository on the path:

    uv venv /tmp/nemo && VIRTUAL_ENV=/tmp/nemo uv pip install nemo_text_processing num2words
    PYTHONPATH=container:core:bench /tmp/nemo/bin/python bench/normalize_library.py \\
        --out docs/bench/normalize_library.json

It measures, for each: the forms read right (as ``kokoro_bench.normalize_unseen`` counts them), the time
of its first use (NeMo compiles its grammars, cached in ``--cache``), the median and 99th percentile of one
form's time, and the time on a crafted text of repeated numbers at two lengths (linear is 4x).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from kokoro_bench.normalize_blind import load, row_passes
from kokoro_bench.normalize_unseen import CASES, load_forms, passes

BLIND = Path("docs/bench/normalize_blind_2")  # written blind, never used to mend a rule


def _blind(say: Callable[[str], str]) -> dict[str, int]:
    """The American rows of the blind set read right."""
    rows = [row for row in load(BLIND) if row.language == "en-us"]
    return {"rows": len(rows), "passed": sum(row_passes(say(row.written), row) for row in rows)}


def _measure(say: Callable[[str], str], first_use_s: float) -> dict[str, object]:
    forms = [form for form in load_forms(CASES) if form.language == "en-us"]
    times, passed = [], 0
    for form in forms:
        started = time.perf_counter()
        said = say(form.written)
        times.append(time.perf_counter() - started)
        passed += passes(said, form)
    times.sort()
    crafted = {}
    for size in (500, 2_000):
        started = time.perf_counter()
        say("1 " * (size // 2))
        crafted[f"s_{size}_chars"] = round(time.perf_counter() - started, 3)
    return {
        "forms": len(forms),
        "passed": passed,
        "blind_set_2": _blind(say),
        "first_use_s": round(first_use_s, 2),
        "ms_per_form_median": round(statistics.median(times) * 1e3, 3),
        "ms_per_form_p99": round(times[int(len(times) * 0.99)] * 1e3, 3),
        "crafted": crafted,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", default="/tmp/nemo_cache", help="where NeMo keeps its compiled grammars")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = time.perf_counter()
    from kokoro_server.text.reading import said_text

    ours = _measure(lambda text: said_text(text, "en-us"), time.perf_counter() - started)
    started = time.perf_counter()
    from nemo_text_processing.text_normalization.normalize import Normalizer

    nemo = Normalizer(input_case="cased", lang="en", cache_dir=args.cache)
    theirs = _measure(lambda text: nemo.normalize(text, punct_post_process=True), time.perf_counter() - started)
    result = {"command": "PYTHONPATH=container:core:bench /tmp/nemo/bin/python bench/normalize_library.py",
              "this": ours, "nemo_text_processing": theirs}  # fmt: skip
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
