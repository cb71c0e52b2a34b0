"""The normalization study by kind: what it counts, the table it writes, and that the published figures are
the normalizer's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kokoro_bench.normalize_kinds import END, START, Case, evaluate, load_cases, markdown_table, passes, run, write
from kokoro_stream.cli import app

DOCS = Path("docs/bench")


def test_a_form_passes_only_with_an_accepted_reading_and_no_digit_left() -> None:
    case = Case("unit", "en-us", "65 mph", ("sixty five miles per hour",))
    assert passes("Sixty-five miles per hour.", case)
    assert not passes("sixty-five mph", case)
    assert not passes("sixty-five miles per hour, 65", case)
    japanese = Case("range", "ja", "3-5日", ("3から5日",))
    assert passes("3から5日です。", japanese)  # Japanese keeps the digits for its reader


def test_counts_are_by_kind_and_language_with_every_miss() -> None:
    cases = [
        Case("unit", "en-us", "5 mg", ("five milligrams",)),
        Case("unit", "en-us", "5 ml", ("five milliliters",)),
        Case("code", "es", "PIN 0420", ("cero cuatro dos cero",)),
    ]
    result = evaluate(cases, lambda text, language: "five milligrams" if text == "5 mg" else text)
    assert result["by_kind"] == {
        "unit": {"en-us": {"cases": 2, "passed": 1}},
        "code": {"es": {"cases": 1, "passed": 0}},
    }
    assert (result["cases"], result["passed"], result["rate"]) == (3, 1, 0.3333)
    assert [miss["written"] for miss in result["misses"]] == ["5 ml", "PIN 0420"]


def test_the_table_goes_between_the_markers_and_keeps_each_label(tmp_path: Path) -> None:
    page = tmp_path / "normalization.md"
    page.write_text("# Title\n\nProse before.\n\nProse after.\n")
    cases = [Case("unit", "en-us", "5 mg", ("five milligrams",)), Case("roman", "es", "Enrique VIII", ("octavo",))]
    write(evaluate(cases, lambda text, language: text), "before", tmp_path, page)
    write(evaluate(cases, lambda text, language: "five milligrams, octavo"), "after", tmp_path, page)
    text = page.read_text()
    assert text.startswith("# Title\n\nProse before.") and text.count(START) == text.count(END) == 1
    assert "| unit | 0/1 → 1/1 | n/a |" in text
    assert "0/2 (0%) → 2/2 (100%) (before → after)" in text
    # Rewritten in place: prose around the markers stays, the table is not repeated.
    page.write_text(text.replace("Prose after.", "Prose after, edited."))
    write(evaluate(cases, lambda text, language: text), "after", tmp_path, page)
    assert page.read_text().count(START) == 1 and "Prose after, edited." in page.read_text()
    assert set(json.loads((tmp_path / "normalize_kinds.json").read_text())) == {"before", "after"}


def test_an_unknown_kind_or_language_in_the_table_is_refused(tmp_path: Path) -> None:
    table = tmp_path / "kinds.tsv"
    table.write_text("unit\tklingon\t5 mg\tfive milligrams\n")
    with pytest.raises(ValueError, match="klingon"):
        load_cases(table)


def test_the_published_figures_are_what_the_normalizer_says_now() -> None:
    published = json.loads((DOCS / "normalize_kinds.json").read_text())
    now = run("after", None)
    assert {key: published["after"][key] for key in ("cases", "passed", "by_kind")} == {
        key: now[key] for key in ("cases", "passed", "by_kind")
    }
    assert published["before"]["passed"] < published["after"]["passed"]
    assert markdown_table(published) in (DOCS / "normalization.md").read_text()


def test_the_command_measures_and_writes(tmp_path: Path) -> None:
    (tmp_path / "normalization.md").write_text("# Normalization by kind\n")
    result = CliRunner().invoke(app, ["bench-normalize-kinds", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "after:" in result.output and (tmp_path / "normalize_kinds.json").exists()
    refused = CliRunner().invoke(app, ["bench-normalize-kinds", "--out", str(tmp_path / "missing")])
    assert refused.exit_code != 0 and "normalization.md" in refused.output
