"""What a language switch inside sentences costs: agent sentences with a span in another language in each
(an SSML ``<lang>``, or a Chinese or Japanese name in its own script), against the same document with the
same words read in the voice's language (the names in Latin letters), over POST, side by side in one run.

    uv run python -m kokoro_bench.language_switch [--model-dir DIR] [--repeat 4] [--rounds 3] \
        [--out docs/bench/language_switch.json]

Starts `python -m kokoro_server serve` as SageMaker would and alternates the two requests (the one-language
text first, then the two-language document, then the other way round). A span is read in its sentence's own
model call (docs/ssml.md), so the document should cost about what its words cost; reported are each request's
wall time, audio length and audio chunks, and the two-language-over-one ratio of wall time per round and of
wall time per audio second.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from pathlib import Path
from xml.sax.saxutils import escape

from kokoro_tools.ports import wait_ready

from .server_overhead import emit, serving
from .ssml_breaks import post

# (before, span, its xml:lang or its Latin letters for a span found by its script, after): replies an English
# voice agent gives to people whose names, streets and words come from another language.
SENTENCES = (
    ("Your booking at", "Hôtel Le Meurice, rue de Rivoli", "fr-FR", "is confirmed for Friday night."),
    ("Thank you for calling.", "Gracias, señora Núñez, hasta luego.", "es-ES", "Is there anything else?"),
    ("Your driver will meet you at", "Piazza della Signoria", "it-IT", "at half past nine."),
    ("The parcel is waiting at", "Rua Augusta, número 27", "pt-BR", "until six this evening."),
    ("I have noted the name", "王小明", "Wang Xiaoming", "on the reservation for two."),
    ("The dish is called", "crème brûlée à la vanille", "fr-FR", "and it comes with fresh berries."),
    ("Our office in Madrid is on", "Calle de Alcalá", "es-ES", "right across from the park."),
    ("The customer asked for", "田中さん", "Tanaka san", "to call back after lunch."),
    ("Please say", "bonjour à tout le monde", "fr-FR", "when the meeting starts."),
    ("The wine we recommend is a", "Brunello di Montalcino", "it-IT", "from a small family estate."),
    ("Your account manager is", "李静", "Li Jing", "and she will email you today."),
    ("The museum is on", "Avenida Paulista", "pt-BR", "near the subway station."),
)


def documents(repeat: int) -> tuple[str, str]:
    """The one-language document and the two-language one, each sentence ``repeat`` times."""
    one, two = [], []
    for before, span, tag, after in SENTENCES * repeat:
        by_script = "-" not in tag  # a name in its script: read by its reader without markup
        one.append(f"{escape(before)} {escape(tag if by_script else span)} {escape(after)}")
        inner = escape(span) if by_script else f'<lang xml:lang="{tag}">{escape(span)}</lang>'
        two.append(f"{escape(before)} {inner} {escape(after)}")
    return "<speak>" + " ".join(one) + "</speak>", "<speak>" + " ".join(two) + "</speak>"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--repeat", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    one, two = documents(args.repeat)
    bodies = {
        "one_language": {"text": one, "ssml": True, "marks": True},
        "two_languages": {"text": two, "ssml": True, "marks": True},
    }
    samples: dict[str, list[tuple[float, float, int]]] = {name: [] for name in bodies}
    with serving(args.model_dir) as (url, server):
        wait_ready(url, server)
        asyncio.run(post(url, bodies["two_languages"]))  # each reader loads on first use: not counted
        for round_ in range(args.rounds):
            for name in bodies if round_ % 2 == 0 else reversed(bodies):
                samples[name].append(asyncio.run(post(url, bodies[name])))
    pairs = list(zip(samples["two_languages"], samples["one_language"], strict=True))
    emit(
        {
            "command": "uv run python -m kokoro_bench.language_switch",
            "sentences": len(SENTENCES) * args.repeat,
            "rounds": args.rounds,
            "wall_s": {name: [round(sample[0], 2) for sample in values] for name, values in samples.items()},
            "audio_ms": {name: [sample[1] for sample in values] for name, values in samples.items()},
            "chunks": {name: values[0][2] for name, values in samples.items()},
            "two_over_one_wall_median": round(statistics.median(two[0] / one[0] for two, one in pairs), 3),
            "two_over_one_wall_per_audio_second_median": round(
                statistics.median((two[0] / two[1]) / (one[0] / one[1]) for two, one in pairs), 3
            ),
        },
        args.out,
    )


if __name__ == "__main__":
    main()
