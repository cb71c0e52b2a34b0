"""The normalizer's layout: shared taggers never ask which language they read, each locale carries its family's
grammar and verbalizer, and no module grows past the house's size."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kokoro_server.text import normalize, tagger
from kokoro_server.text.habits import Habits
from kokoro_server.text.locales import LANGUAGES, locale_of

TEXT = Path(normalize.__file__).parent
# Where a language's name may decide: its tables and words, its grammar and verbalizer, the Romance family's own
# rules (per-language within the family), the locales that build each language's tables, and the readers that
# choose a reader by language (G2P, SSML, a foreign span, word timing).
_LANGUAGE_HOMES = ("words_", "say_", "spoken", "grammar_", "habits.py", "locales.py", "tag_cues_romance.py",
                   "g2p.py", "script.py", "foreign.py", "reading.py", "word_sources.py", "word_timing.py",
                   "normalize.py")  # fmt: skip


def _shared_modules() -> list[Path]:
    return [path for path in sorted(TEXT.glob("*.py")) if not path.name.startswith(_LANGUAGE_HOMES)]


def _language_tests(tree: ast.AST) -> list[str]:
    """Each place that reads ``.language`` of a locale, or the Romance or signs tables of languages."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "language":
            found.append(f"line {node.lineno}: .language")
        if isinstance(node, ast.Name) and node.id in ("ROMANCE", "SIGNS", "LANGUAGES"):
            found.append(f"line {node.lineno}: {node.id}")
    return found


@pytest.mark.parametrize("path", _shared_modules(), ids=lambda path: path.name)
def test_a_shared_module_never_branches_on_the_language(path: Path) -> None:
    assert _language_tests(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_check_finds_a_branch_on_the_language() -> None:
    written = 'if locale.language.startswith("en"):\n    pass\nlang = ROMANCE[locale.language]\n'
    assert len(_language_tests(ast.parse(written))) == 3


def test_no_text_module_is_past_the_house_size() -> None:
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in TEXT.glob("*.py")}
    assert {name: size for name, size in sizes.items() if size > 400} == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_locale_has_its_grammar_and_its_verbalizer(language: str) -> None:
    locale = locale_of(language)
    assert locale is not None
    assert locale.family in tagger.GRAMMARS and locale.family in normalize.VERBALIZERS
    assert tagger.rules_of(locale).numeric


def test_a_language_without_habits_reads_none_of_them() -> None:
    """A new language starts with every habit off: no English word or rule comes with it."""
    bare = Habits()
    assert not (bare.ish or bare.even_odds or bare.sums or bare.date_cues or bare.priced_per or bare.keyboard_keys)
    assert locale_of("es").habits.keyboard_keys == {} and locale_of("en-us").habits.keyboard_keys
