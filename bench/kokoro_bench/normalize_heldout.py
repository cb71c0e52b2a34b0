"""How often the normalizer says an agent-reply sentence acceptably, on a set written apart from its rules.

    uv run python -m kokoro_bench.normalize_heldout [--out docs/bench]

docs/bench/normalize_heldout.tsv holds sentences across ten categories (money, dates, times, phone
numbers, codes, percentages, numbers, units, abbreviations, web addresses), each with the spoken forms a
listener would accept. A sentence passes when its normalized text (lower case, without punctuation)
contains one of them and no digit is left. Writes normalize_heldout.json: the rate, and every miss.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from pathlib import Path

from kokoro_server.text.reading import said_text

CASES = Path("docs/bench/normalize_heldout.tsv")  # from the repository root, where the results go too


def plain(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]", " ", text.lower().replace("-", " ")).split())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with CASES.open(encoding="utf-8") as cases:
        rows = list(csv.DictReader((line for line in cases if not line.startswith("#")), delimiter="\t"))
    misses = []
    for row in rows:
        said = said_text(row["sentence"], "en-us")
        accepted = row["accepted"].split("|")
        if not any(plain(form) in plain(said) for form in accepted) or re.search(r"\d", said):
            misses.append({"category": row["category"], "written": row["sentence"], "said": said, "accepted": accepted})
    result = {
        "command": "uv run python -m kokoro_bench.normalize_heldout --out docs/bench",
        "sentences": len(rows),
        "acceptable": len(rows) - len(misses),
        "rate": round((len(rows) - len(misses)) / len(rows), 4),
        "misses": misses,
    }
    print(json.dumps(result, indent=2))
    if args.out:
        (args.out / "normalize_heldout.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
