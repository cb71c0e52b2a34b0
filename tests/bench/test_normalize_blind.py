"""The blind-set scorer: a table's languages are read as everyday tags, and one no reader reads is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from kokoro_bench.normalize_blind import evaluate, load

HEADER = "# class\tlanguage\twritten\trequired\n"


def test_everyday_language_tags_are_read_by_their_reader(tmp_path: Path) -> None:
    (tmp_path / "romance.tsv").write_text(
        HEADER + "money\tfr\tLe ticket coûte 2,50 €.\tdeux euros cinquante|deux euros et cinquante centimes\n"
        "date\tpt-BR\tVence em 15/08.\tquinze de agosto\n",
        encoding="utf-8",
    )
    rows = load(tmp_path)
    assert [row.language for row in rows] == ["fr-fr", "pt-br"]
    from kokoro_server.text.reading import said_text

    assert evaluate(rows, said_text)["by"]["language:fr-fr"] == {"rows": 1, "passed": 1}


def test_a_language_no_reader_reads_is_refused(tmp_path: Path) -> None:
    (tmp_path / "forms.tsv").write_text(HEADER + "money\tde\tEs kostet 5 €.\tfünf euro\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"no reader for language 'de'; readers: .*fr-FR"):
        load(tmp_path)


def test_capitals_are_counted_as_letters_in_every_language() -> None:
    """The sets' header says a word of 2-4 capitals is read as its letters; espeak-ng spells "IB" in Spanish."""
    from kokoro_bench.normalize_unseen import plain

    assert plain("El vuelo IB tres", "es") == "el vuelo i b tres"
    assert plain("Flight DL two", "en-us") == "flight d l two"
    assert plain("ay bee", "es") == "ay bee"  # letter names are folded in English only


def test_an_apostrophe_at_a_words_edge_is_punctuation() -> None:
    from kokoro_bench.normalize_unseen import plain

    assert plain("costs ninety days' interest", "en-us") == "costs ninety days interest"
    assert plain("it's the driver's seat", "en-us") == "it's the driver's seat"  # inside a word it is the word's
    assert plain("'quoted' words", "en-us") == "quoted words"
