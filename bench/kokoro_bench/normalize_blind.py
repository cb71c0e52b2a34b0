"""How often the normalizer reads forms right that were written blind: by someone who never read its rules,
code, tests or docs, from how customer-service, scheduling, finance, recipe, travel and technical replies are
really written, with the readings a listener accepts.

    uv run python -m kokoro_bench.normalize_blind docs/bench/normalize_blind_1 --label first --out docs/bench

A blind set is a folder of tables (``*.tsv``): class or domain, language, written, accepted. ``accepted``
holds one group of readings per form in the sentence (groups separated by `` ;; ``, a group's readings by
``|``); a row passes when every group has a reading in what the voice says, counted as
``kokoro_bench.normalize_unseen`` counts one form (lower case, words only, letter names as letters, no digit
left). A set is scored once before the normalizer changes for it (``--label first``) and once after
(``--label last``); then it is spent, since a set scored twice is a training set, and the next round is
written fresh. Each set's labels are kept in normalize_blind.json.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kokoro_core.ssml import READ_LANGUAGES, language_of_tag

from .normalize_kinds import Case, read_table
from .normalize_unseen import passes

COMMAND = "uv run python -m kokoro_bench.normalize_blind {folder} --label {label} --out docs/bench"
GROUPS = " ;; "


@dataclass(frozen=True)
class Row:
    table: str
    kind: str  # the form's class, or the sentence's domain
    language: str
    written: str
    groups: tuple[tuple[str, ...], ...]  # per form, the readings a listener accepts


def load(folder: Path) -> list[Row]:
    """The rows of every table in ``folder``; a language is a BCP 47 tag ("fr", "pt-BR"), read as the server
    reads ``xml:lang``, so that a set written with everyday tags is not passed through unread."""
    rows = []
    for path in sorted(folder.glob("*.tsv")):
        for case in read_table(path):
            language = language_of_tag(case.language)
            if language is None:
                raise ValueError(f"{path}: no reader for language {case.language!r}; readers: {READ_LANGUAGES}")
            written_groups = "|".join(case.accepted).split(GROUPS)
            groups = tuple(tuple(reading.strip() for reading in group.split("|")) for group in written_groups)
            rows.append(Row(path.stem, case.kind, language, case.written, groups))
    return rows


def row_passes(said: str, row: Row) -> bool:
    return all(passes(said, Case(row.kind, row.language, row.written, group)) for group in row.groups)


def evaluate(rows: list[Row], say: Callable[[str, str], str]) -> dict[str, object]:
    """Passes by table, class and language, and every miss with what was said."""
    by: dict[str, dict[str, int]] = {}
    misses = []
    passed = 0
    for row in rows:
        said = say(row.written, row.language)
        ok = row_passes(said, row)
        passed += ok
        for key in (f"table:{row.table}", f"class:{row.kind}", f"language:{row.language}"):
            cell = by.setdefault(key, {"rows": 0, "passed": 0})
            cell["rows"] += 1
            cell["passed"] += ok
        if not ok:
            misses.append({"table": row.table, "class": row.kind, "language": row.language, "written": row.written,
                           "said": said})  # fmt: skip
    return {"rows": len(rows), "passed": passed, "rate": round(passed / len(rows), 4) if rows else 0.0,
            "by": dict(sorted(by.items())), "misses": misses}  # fmt: skip


def run(folder: Path, label: str, out: Path | None) -> dict[str, object]:
    from kokoro_server.text.reading import said_text  # the normalizer on the path: this checkout's or another's

    result = evaluate(load(folder), said_text)
    if out is not None:
        path = out / "normalize_blind.json"
        results = json.loads(path.read_text()) if path.exists() else {}
        results.setdefault(folder.name, {})[label] = {"command": COMMAND.format(folder=folder, label=label), **result}
        path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the blind set: a folder of .tsv tables")
    parser.add_argument("--label", default="last", help="first (before the changes it measures) or last")
    parser.add_argument("--out", type=Path, help="folder of normalize_blind.json")
    parser.add_argument("--misses", action="store_true", help="print what was said for every row that failed")
    args = parser.parse_args(argv)
    result = run(args.folder, args.label, args.out)
    summary = {key: value for key, value in result.items() if key != "misses" or args.misses}
    print(json.dumps(summary, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
