"""How often the normalizer reads a written form right, on forms written before its rules and never tuned to.

    uv run python -m kokoro_bench.normalize_unseen --label after --out docs/bench

docs/bench/normalize_unseen.tsv holds written forms of every class (cardinals, ordinals, decimals, fractions,
money, measures and rates, dates, years, times, ranges, telephone numbers, e-mail and web addresses, codes,
addresses, versions, mixed tokens) in each language the normalizer reads, each with the spoken forms a listener
accepts. The set was written before the rules that read it; a form it shows wrong is mended by writing a form
like it into tests/server/text/normalize_classes.tsv, never by a rule aimed at its own case. A form passes when
what the voice says for it (``said_text``: normalized, then speakable), in lower case without punctuation,
holds one of the accepted forms as whole words (in Japanese, written without spaces, anywhere), with letters
said by their English names ("ay" for a), a word in capitals of up to four letters ("PM") as the letters it is said
as, "oh" for zero counted as the letter and the digit, and "you" as the letter u (on both sides, so the word counts
alike), and no digit is left (but in Hindi and Japanese, whose readers say digits). ``--label`` names the normalizer
measured (``before`` for an older checkout first on the path); each label's result is kept in normalize_unseen.json.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from .normalize_kinds import Case, read_table

CASES = Path("docs/bench/normalize_unseen.tsv")  # from the repository root, where the results go too
DIGITS_SAID_BY_READER = frozenset({"hi", "ja"})
UNSPACED = frozenset({"ja"})  # written without spaces between words
COMMAND = "uv run python -m kokoro_bench.normalize_unseen --label {label} --out docs/bench"
# English letter names and "oh", counted as what they name.
_SAID_AS = {
    **dict(zip("ay bee see dee ee eff gee aitch eye jay kay el em en pee cue ar ess tee you vee ex why zee zed".split(),
               "a b c d e f g h i j k l m n p q r s t u v x y z z".split(), strict=True)),
    "oh": "zero", "o": "zero", "double you": "w",
}  # fmt: skip
_NAMES = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _SAID_AS), key=len, reverse=True)) + r")\b")


Form = Case  # a written form, its class and language, and what a listener accepts


def load_forms(path: Path = CASES) -> list[Form]:
    return read_table(path)


def plain(text: str, language: str) -> str:
    """Lower case, words only, letter names as letters: "Ex seven, Kay-2 PM." -> "x seven k 2 p m". Capitals
    are letters in every language (espeak-ng spells "IB" in Spanish too); letter names are English's. An
    apostrophe inside a word is kept ("o'clock"), one at a word's edge is punctuation ("90 days' interest")."""
    text = _CAPITALS.sub(lambda match: " ".join(match.group()), text)
    kept = re.sub(r"[^\w' ]", " ", text.lower().replace("-", " ").replace("’", "'"))
    words = " ".join(word.strip("'") for word in kept.split() if word.strip("'"))
    return _NAMES.sub(lambda match: _SAID_AS[match.group()], words) if language.startswith("en") else words


_CAPITALS = re.compile(r"\b[A-Z]{2,4}\b")  # "PM", "EST": said letter by letter


def passes(said: str, form: Form) -> bool:
    if form.language not in DIGITS_SAID_BY_READER and re.search(r"\d", said):
        return False
    space = "" if form.language in UNSPACED else " "
    heard = f"{space}{plain(said, form.language)}{space}"
    return any(f"{space}{plain(accepted, form.language)}{space}" in heard for accepted in form.accepted)


def evaluate(forms: Iterable[Form], say: Callable[[str, str], str]) -> dict[str, object]:
    """Passes by class and language, and every miss with what was said."""
    table: dict[str, dict[str, int]] = {}
    misses = []
    count = passed = 0
    for form in forms:
        said = say(form.written, form.language)
        ok = passes(said, form)
        count, passed = count + 1, passed + ok
        for key in (form.kind, form.language):
            cell = table.setdefault(key, {"forms": 0, "passed": 0})
            cell["forms"] += 1
            cell["passed"] += ok
        if not ok:
            misses.append({"class": form.kind, "language": form.language, "written": form.written, "said": said})
    return {"forms": count, "passed": passed, "rate": round(passed / count, 4) if count else 0.0, "by": table,
            "misses": misses}  # fmt: skip


def run(label: str, out: Path | None, cases: Path = CASES) -> dict[str, object]:
    from kokoro_server.text.reading import said_text  # the normalizer on the path: this checkout's or another's

    result = evaluate(load_forms(cases), said_text)
    if out is not None:
        path = out / "normalize_unseen.json"
        results = json.loads(path.read_text()) if path.exists() else {}
        results[label] = {"command": COMMAND.format(label=label), **result}
        path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="after", help="name of the normalizer measured: before or after")
    parser.add_argument("--out", type=Path, help="folder of normalize_unseen.json")
    args = parser.parse_args(argv)
    result = run(args.label, args.out)
    summary = {key: value for key, value in result.items() if key != "misses"}
    print(json.dumps(summary, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
