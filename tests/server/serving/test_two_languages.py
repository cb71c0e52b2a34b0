"""A reply in two languages on the real model, through the real server: an English voice reads a French and a
Spanish span and a Chinese name with their own readers (the phonemes it says are theirs, not English's), in
one model call for a sentence with a span inside, and names the words as written."""

from __future__ import annotations

import re

from tests.server.serving.test_ssml import speak
from tests.speech import Event

# Phoneme marks carry sounds, not stress or tones: compare without them.
_NOT_SOUNDS = re.compile(r"[ˈˌ↓↗↘→\s,.!?]|sil")


def sounds(phonemes: str) -> str:
    return _NOT_SOUNDS.sub("", phonemes)


def said_sounds(events: list[Event]) -> str:
    return sounds(
        "".join(p["phoneme"] for event in events if event.type == "phonemes" for p in event.message["phonemes"])
    )


def written_words(events: list[Event]) -> list[str]:
    return [word["text"] for event in events if event.type == "marks" for word in event.message["words"]]


DOCUMENT = (
    '<speak>Your booking at <lang xml:lang="fr-FR">Hôtel Le Meurice, rue de Rivoli</lang> is confirmed. '
    '<s xml:lang="es-ES">Gracias, señora Núñez.</s> I noted the name 王小明.</speak>'
)
SPANS = [("Hôtel Le Meurice, rue de Rivoli", "fr-fr"), ("Gracias, señora Núñez.", "es"), ("王小明", "cmn")]


def test_an_english_voice_reads_french_spanish_and_a_chinese_name_with_their_own_readers(server) -> None:
    g2p = server.server.runtime.engine._g2p
    events = speak(server, DOCUMENT, voice="af_heart", marks=True, phonemes=True)
    said = said_sounds(events)
    for span, language in SPANS:
        own, english = sounds(g2p(span, language)), sounds(g2p(span, "en-us"))
        assert own != english  # the check can fail: English reads each span otherwise
        assert own in said and english not in said, (span, own, english, said)
    assert sounds(g2p("Your booking at", "en-us")) in said  # the reply around them stays English
    assert written_words(events) == (
        "Your booking at Hôtel Le Meurice, rue de Rivoli is confirmed. Gracias, señora Núñez. I noted the name".split()
        + ["王小明."]
    )


def test_a_sentence_with_a_lang_span_inside_is_one_model_call(server) -> None:
    document = '<speak>Your table at <lang xml:lang="fr-FR">Le Comptoir du Relais</lang> is ready.</speak>'
    model = server.server.runtime.engine._model
    calls: list[int] = []
    run = model.run

    def counted(inputs, call):
        calls.extend(len(item.tokens) for item in inputs)
        return run(inputs, call)

    model.run = counted
    try:
        events = speak(server, document, marks=True)
    finally:
        del model.run
    assert len(calls) == 1, calls
    assert written_words(events) == "Your table at Le Comptoir du Relais is ready.".split()


def test_with_foreign_script_skip_a_chinese_name_is_left_unsaid_and_still_named_as_written(server) -> None:
    g2p = server.server.runtime.engine._g2p
    skipped = speak(server, "I noted the name 王小明.", marks=True, phonemes=True, foreign_script="skip")
    read = speak(server, "I noted the name 王小明.", marks=True, phonemes=True)
    chinese = sounds(g2p("王小明", "cmn"))
    assert chinese in said_sounds(read) and chinese not in said_sounds(skipped)
    assert " ".join(written_words(skipped)) == " ".join(written_words(read)) == "I noted the name 王小明."
