"""How often the normalizer says each kind of written form acceptably, per kind and language.

    uv run python -m kokoro_bench.normalize_kinds --label after --out docs/bench
    PYTHONPATH=/tmp/norm-before/container uv run python -m kokoro_bench.normalize_kinds --label before --out docs/bench

(or ``uv run kokoro-stream bench-normalize-kinds``). tests/server/text/normalize_kinds.tsv holds written
forms of ten kinds (multipliers, ranges, approximations, signs, units, quarters, roman numerals, addresses,
extensions, codes) in each language the normalizer reads, with the spoken forms a listener accepts. A form
passes when what the voice says for it (``said_text``: normalized, then speakable), lower case and without
punctuation, contains one of them, and, but in Hindi and Japanese (whose readers say the digits), no digit is
left. ``--label`` names the normalizer measured: the second command measures an older checkout, whose
``kokoro_server`` comes first on the path. Results of each label are kept in normalize_kinds.json, and the
table of both is written into normalization.md, between its markers.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

CASES = Path("tests/server/text/normalize_kinds.tsv")  # from the repository root
KINDS = (
    "multiplier",
    "range",
    "approximation",
    "symbol",
    "unit",
    "quarter",
    "roman",
    "address",
    "phone_extension",
    "code",
)
LANGUAGES = ("en-us", "en-gb", "es", "fr-fr", "it", "pt-br", "hi", "ja")
DIGITS_SAID_BY_READER = frozenset({"hi", "ja"})  # their readers say digits: the digits stay
START, END = "<!-- normalize-kinds:start -->", "<!-- normalize-kinds:end -->"
COMMAND = "uv run python -m kokoro_bench.normalize_kinds --label {label} --out docs/bench"


@dataclass(frozen=True)
class Case:
    kind: str
    language: str
    written: str
    accepted: tuple[str, ...]


def read_table(path: Path) -> list[Case]:
    """The rows of a table of written forms: kind, language, written form, accepted forms (separated by |)."""
    with path.open(encoding="utf-8") as table:
        rows = csv.reader((line for line in table if line.strip() and not line.startswith("#")), delimiter="\t")
        return [Case(kind, language, written, tuple(accepted.split("|"))) for kind, language, written, accepted in rows]


def load_cases(path: Path = CASES) -> list[Case]:
    cases = read_table(path)
    unknown = {(c.kind, c.language) for c in cases if c.kind not in KINDS or c.language not in LANGUAGES}
    if unknown:
        raise ValueError(f"{path}: unknown kind or language {sorted(unknown)}; kinds: {KINDS}, languages: {LANGUAGES}")
    return cases


def plain(text: str) -> str:
    """Lower case, words only: "Sixty-five to 70°F." -> "sixty five to 70 f"."""
    return " ".join(re.sub(r"[^\w' ]", " ", text.lower().replace("-", " ").replace("’", "'")).split())


def passes(said: str, case: Case) -> bool:
    if case.language not in DIGITS_SAID_BY_READER and re.search(r"\d", said):
        return False
    return any(plain(form) in plain(said) for form in case.accepted)


def evaluate(cases: Iterable[Case], say: Callable[[str, str], str]) -> dict[str, object]:
    """Pass counts by kind and language, and every miss with what was said."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    misses = []
    for case in cases:
        said = say(case.written, case.language)
        cell = table.setdefault(case.kind, {}).setdefault(case.language, {"cases": 0, "passed": 0})
        cell["cases"] += 1
        if passes(said, case):
            cell["passed"] += 1
        else:
            misses.append({"kind": case.kind, "language": case.language, "written": case.written, "said": said})
    total = sum(cell["cases"] for by_language in table.values() for cell in by_language.values())
    passed = sum(cell["passed"] for by_language in table.values() for cell in by_language.values())
    return {
        "cases": total,
        "passed": passed,
        "rate": round(passed / total, 4) if total else 0.0,
        "by_kind": table,
        "misses": misses,
    }


def markdown_table(results: dict[str, dict]) -> str:
    """One row per kind, one column per language: passed/cases, before → after where both were measured."""
    labels = [label for label in ("before", "after") if label in results]
    lines = ["| kind | " + " | ".join(LANGUAGES) + " |", "| --- |" + " ---: |" * len(LANGUAGES)]
    for kind in (*KINDS, "all"):
        cells = []
        for language in LANGUAGES:
            said = [_cell(results[label], kind, language) for label in labels]
            cells.append(" → ".join(said) if any(said) and all(said) else "n/a")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    totals = " → ".join(
        f"{results[label]['passed']}/{results[label]['cases']} ({results[label]['rate']:.0%})" for label in labels
    )
    return "\n".join(lines) + f"\n\nAll kinds and languages: {totals} ({' → '.join(labels)}).\n"


def _cell(result: dict, kind: str, language: str) -> str:
    kinds = result["by_kind"] if kind != "all" else {}
    if kind == "all":
        cells = [by_language[language] for by_language in result["by_kind"].values() if language in by_language]
        if not cells:
            return ""
        return f"{sum(c['passed'] for c in cells)}/{sum(c['cases'] for c in cells)}"
    cell = kinds.get(kind, {}).get(language)
    return f"{cell['passed']}/{cell['cases']}" if cell else ""


def write(result: dict[str, object], label: str, out: Path, page: Path) -> dict[str, dict]:
    """Keep ``result`` under ``label`` in out/normalize_kinds.json, and the table of all labels in ``page``."""
    path = out / "normalize_kinds.json"
    results: dict[str, dict] = json.loads(path.read_text()) if path.exists() else {}
    results[label] = {"command": COMMAND.format(label=label), **result}
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    text = page.read_text(encoding="utf-8")
    table = f"{START}\n{markdown_table(results)}{END}"
    if START in text and END in text:
        text = text[: text.index(START)] + table + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip("\n") + "\n\n" + table + "\n"
    page.write_text(text, encoding="utf-8")
    return results


def run(label: str, out: Path | None, cases_path: Path = CASES) -> dict[str, object]:
    from kokoro_server.text.reading import said_text  # the normalizer on the path: this checkout's or another's

    result = evaluate(load_cases(cases_path), said_text)
    if out is not None:
        write(result, label, out, out / "normalization.md")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="after", help="name of the normalizer measured: before or after")
    parser.add_argument("--out", type=Path, help="folder of normalize_kinds.json and normalization.md")
    args = parser.parse_args(argv)
    result = run(args.label, args.out)
    print(json.dumps({key: value for key, value in result.items() if key != "by_kind"}, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
