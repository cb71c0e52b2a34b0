"""Which phonemes the int8 Kokoro model pronounces best: espeak-ng alone, or misaki's lexicons first.

    uv run python -m kokoro_bench.g2p_compare [--out docs/bench]

Kokoro v1.0 was trained on misaki's phoneme set; misaki's wheel ships its US gold and silver
lexicons, and misaki falls back to espeak-ng for words they lack, mapping espeak's symbols onto its
own. The full misaki G2P also needs a spaCy English model for part-of-speech tags, which is not on
PyPI, so this compares what runs offline here, on every sentence of the corpus (normalized first, as
the server does), with the af_heart voice:

- ``espeak``: what the engine does today (kokoro-onnx's espeak-ng phonemes);
- ``espeak_mapped``: the same, mapped onto misaki's symbols as misaki's own fallback does;
- ``misaki_lexicon``: each word from misaki's gold, then silver US lexicon (the default reading for
  words that depend on their part of speech), else ``espeak_mapped`` for that word.

Each variant's audio is transcribed by pocketsphinx (an offline recognizer whose English model ships
in its wheel) and scored by word error rate against the said text; the variants are compared
sentence by sentence, since the recognizer's own errors are the same for all three. Writes g2p.json.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
from pathlib import Path

from .cpu_runtime import transcribe, venv, word_error_rate, write_wav

VOICE = "af_heart"
MISAKI = "misaki==0.9.4"
# misaki's own fallback mapping of espeak-ng symbols (misaki/espeak.py), for phonemes without tie marks.
ESPEAK_TO_MISAKI = [
    ("aɪ", "I"),
    ("aʊ", "W"),
    ("dʒ", "ʤ"),
    ("eɪ", "A"),
    ("tʃ", "ʧ"),
    ("ɔɪ", "Y"),
    ("oʊ", "O"),
    ("ɚ", "əɹ"),
    ("ɜː", "ɜɹ"),
    ("r", "ɹ"),
    ("ɐ", "ə"),
    ("ː", ""),
    ("ɾ", "T"),
]
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’]*|[^\sA-Za-z]+")


def misaki_lexicons() -> tuple[dict, dict]:
    """misaki's US gold and silver lexicons, read from its wheel (downloaded once with uv)."""
    python = venv("misaki", [MISAKI, "--no-deps"])
    site = Path(python).parent.parent / "lib"
    wheel_data = next(site.glob("python*/site-packages/misaki/data"))
    gold, silver = (json.loads((wheel_data / f"us_{kind}.json").read_text("utf-8")) for kind in ("gold", "silver"))
    return gold, silver


def mapped(phonemes: str) -> str:
    for old, new in ESPEAK_TO_MISAKI:
        phonemes = phonemes.replace(old, new)
    return phonemes


def lookup(word: str, lexicons: tuple[dict, dict]) -> str | None:
    for lexicon in lexicons:
        for form in (word, word.lower(), word.capitalize()):
            entry = lexicon.get(form)
            if isinstance(entry, dict):
                entry = entry.get("DEFAULT")
            if entry:
                return entry
    return None


def lexicon_first(said: str, lexicons: tuple[dict, dict], espeak) -> tuple[str, int, int]:
    """Phonemes word by word from the lexicons, espeak (mapped) for the rest; and how many words each gave."""
    parts, from_lexicon, from_espeak = [], 0, 0
    for token in _TOKEN.findall(said):
        if not token[0].isalpha():
            parts.append(token.replace("-", " "))
            continue
        found = lookup(token, lexicons)
        if found:
            from_lexicon += 1
            parts.append(found)
        else:
            from_espeak += 1
            parts.append(mapped(espeak(token)))
    return " ".join(" ".join(parts).split()), from_lexicon, from_espeak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    from kokoro_bench.corpus import AGENT_REPLIES, load_replies
    from kokoro_core.model_cache import verify_directory
    from kokoro_core.segmenter import split_sentences
    from kokoro_server.engine.device import load_on_device
    from kokoro_server.engine.embedded_model import model_directory
    from kokoro_server.settings import settings_from_env
    from kokoro_server.text.reading import said_text

    model_dir = model_directory()
    engine = load_on_device(settings_from_env(), model_dir, verify_directory(model_dir))[0]
    tokenizer = engine._tokenizer  # the engine's own G2P, so "espeak" is exactly what it says today
    style = engine._voices[VOICE]
    lexicons = misaki_lexicons()

    def espeak(text: str) -> str:
        return " ".join(tokenizer.phonemize(text, "en-us").split())

    sentences = [
        said_text(sentence, "en-us")
        for text in load_replies(AGENT_REPLIES).values()
        for sentence in split_sentences(text)
        if sentence.strip()
    ]
    variants = {"espeak": [], "espeak_mapped": [], "misaki_lexicon": []}
    words = {"from_lexicon": 0, "from_espeak": 0}
    for said in sentences:
        variants["espeak"].append(espeak(said))
        variants["espeak_mapped"].append(mapped(espeak(said)))
        phonemes, from_lexicon, from_espeak = lexicon_first(said, lexicons, espeak)
        variants["misaki_lexicon"].append(phonemes)
        words["from_lexicon"] += from_lexicon
        words["from_espeak"] += from_espeak
    outside_vocabulary = sorted(
        {symbol for phonemes in variants["misaki_lexicon"] for symbol in phonemes if symbol not in tokenizer.vocab}
    )

    scratch = Path(tempfile.mkdtemp(prefix="g2p-"))
    names = []
    for variant, phoneme_list in variants.items():
        for index, phonemes in enumerate(phoneme_list):
            tokens = tokenizer.tokenize(phonemes)
            audio = engine._infer(tokens, style[len(tokens) - 1], 1.0, None)
            write_wav(scratch / f"{variant}-{index}.wav", audio)
            names.append(f"{variant}-{index}")
        print(f"{variant}: synthesized {len(phoneme_list)} sentences", flush=True)
    heard = transcribe(scratch, names)

    def reference(said: str) -> str:
        return " ".join(re.sub(r"[^a-z' ]", " ", said.lower().replace("-", " ")).split())

    errors = {
        variant: [word_error_rate(reference(said), heard[f"{variant}-{index}"]) for index, said in enumerate(sentences)]
        for variant in variants
    }
    baseline = errors["espeak"]
    result = {
        "command": "uv run python -m kokoro_bench.g2p_compare --out docs/bench",
        "voice": VOICE,
        "sentences": len(sentences),
        "misaki": MISAKI,
        "words": words,
        "misaki_symbols_outside_the_model_vocabulary": outside_vocabulary,
        "variants": {
            variant: {
                "wer_mean": round(statistics.mean(values), 4),
                "wer_median": round(statistics.median(values), 4),
                "sentences_better_than_espeak": sum(v < b for v, b in zip(values, baseline, strict=True)),
                "sentences_worse_than_espeak": sum(v > b for v, b in zip(values, baseline, strict=True)),
            }
            for variant, values in errors.items()
        },
        "examples": [
            {"said": said, **{variant: variants[variant][index] for variant in variants}}
            for index, said in enumerate(sentences[:5])
        ],
        "heard": {name: heard[name] for name in names},
    }
    print(json.dumps(result["variants"], indent=2))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "g2p.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {args.out / 'g2p.json'}")


if __name__ == "__main__":
    main()
