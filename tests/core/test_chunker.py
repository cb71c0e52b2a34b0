"""Synthesis chunks: long sentences split at clauses under the limit, a short first chunk."""

from __future__ import annotations

import re
from functools import partial

from kokoro_onnx.config import DEFAULT_VOCAB

from kokoro_core import chunker
from kokoro_core.chunker import GROWTH, MIN_FIRST_CHUNK_CHARS, WORD_CUT_OVER
from kokoro_core.lexicon import parse_lexicon
from kokoro_server.text.reading import ENGLISH, VoiceReading, said_text

# The server plans chunks by what an English voice says; these tests plan them the same way.
chunk_text = partial(chunker.chunk_text, reading=ENGLISH)
split_long = partial(chunker.split_long, reading=ENGLISH)


def words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def test_short_sentences_are_one_chunk_each():
    assert chunk_text("Hello there. How are you?") == ["Hello there.", "How are you?"]


def test_a_long_first_sentence_yields_a_short_first_chunk_at_a_clause():
    text = "All right then, I can move your appointment to Thursday afternoon and email the confirmation."
    chunks = chunk_text(text, first_chunk_chars=40)
    assert chunks[0] == "All right then,"
    assert words(" ".join(chunks)) == words(text)


def assert_each_chunk_is_ready_before_the_ones_before_have_played(chunks: list[str]) -> None:
    """Planned at 1 / GROWTH of real time, each chunk is synthesized while the audio ahead of it plays."""
    ahead = float(ENGLISH.size(chunks[0]))
    for chunk in chunks[1:]:
        size = ENGLISH.size(chunk)
        # a sentence a little over its limit stays whole rather than being cut between words, and
        # no chunk is cut shorter than the shortest worth a model call
        cuts = [
            m.start() for m in re.finditer(r" ", chunk) if ENGLISH.size(chunk[: m.start()]) >= MIN_FIRST_CHUNK_CHARS
        ]
        fits = size <= WORD_CUT_OVER * max(MIN_FIRST_CHUNK_CHARS, GROWTH * ahead) + 1
        assert fits or not cuts, (chunk, chunks)
        ahead += (1 - 1 / GROWTH) * size


def test_after_a_short_first_chunk_a_long_sentence_is_cut_so_each_chunk_is_ready_in_time():
    text = "Okay. Then, after that, we will go through the remaining items one at a time until the list is done."
    chunks = chunk_text(text, first_chunk_chars=20)
    assert chunks[:2] == ["Okay.", "Then, after that,"]  # at its clause first
    assert_each_chunk_is_ready_before_the_ones_before_have_played(chunks)
    assert words(" ".join(chunks)) == words(text)


def test_short_sentences_after_the_first_are_packed_into_growing_chunks():
    text = "Yes. " + " ".join(f"Step {i} is done." for i in range(1, 13))
    chunks = chunk_text(text, first_chunk_chars=80, max_chunk_chars=120)
    assert chunks[0] == "Yes."
    assert len(chunks) <= 7  # 13 sentences, 7 model calls
    assert len(chunks[-1].split(".")) > 3  # the last chunks hold several sentences each
    assert_each_chunk_is_ready_before_the_ones_before_have_played(chunks)
    assert max(ENGLISH.size(chunk) for chunk in chunks) <= 120
    assert words(" ".join(chunks)) == words(text)


def test_a_sentence_a_little_over_its_chunk_limit_without_clauses_stays_whole():
    text = "All right, I have done that. Your order qualifies for a refund as it came late."
    assert chunk_text(text) == ["All right, I have done that.", "Your order qualifies for a refund as it came late."]


def test_a_long_sentence_after_a_very_short_one_is_cut_between_words_to_follow_it_without_a_gap():
    text = "Sure. Your order qualifies for a full refund because it arrived more than five days late."
    chunks = chunk_text(text)
    assert chunks[:2] == ["Sure.", "Your order qualifies"]  # the shortest chunk worth a model call
    assert_each_chunk_is_ready_before_the_ones_before_have_played(chunks[1:])
    assert words(" ".join(chunks)) == words(text)


def test_long_sentences_split_at_clause_boundaries_under_the_limit():
    clauses = [f"clause number {i} carries a little meaning" for i in range(12)]
    sentence = "; ".join(clauses) + "."
    chunks = split_long(sentence, limit=120)
    assert all(len(chunk) <= 120 for chunk in chunks)
    assert all(chunk.endswith((";", ".")) for chunk in chunks)  # cut only after a clause
    assert words(" ".join(chunks)) == words(sentence)


def test_a_sentence_without_clauses_splits_between_words_in_balanced_pieces():
    sentence = " ".join(["word"] * 100)
    chunks = split_long(sentence, limit=120)
    assert all(len(chunk) <= 120 for chunk in chunks)
    lengths = [len(chunk) for chunk in chunks]
    assert max(lengths) - min(lengths) <= 10
    assert words(" ".join(chunks)) == words(sentence)


def test_no_text_is_lost_or_reordered_across_the_corpus_like_input():
    text = "Hi!\n\nFirst, unplug the router, wait thirty seconds, and plug it back in. " * 5
    assert words(" ".join(chunk_text(text))) == words(text)


def test_a_first_chunk_that_must_fit_is_cut_between_words_when_no_clause_is_in_reach():
    text = "Your order qualifies for a full refund because it arrived more than five days late."
    assert chunk_text(text, first_chunk_chars=70) == [text]  # for first audio alone, never mid-clause
    first, *rest = chunk_text(text, first_chunk_chars=30, first_must_fit=True)
    assert first == "Your order qualifies for a"
    assert words(" ".join([first, *rest])) == words(text)


def test_a_first_sentence_far_over_the_first_chunk_is_cut_between_words_even_alone():
    # Said, the amount is 56 characters: waiting for the whole sentence would delay the reply by seconds.
    text = "Your checking account balance is $1,284.50 as of this morning."
    first, *rest = chunk_text(text, first_chunk_chars=40)
    assert first == "Your checking account balance is"
    assert words(" ".join([first, *rest])) == words(text)


def test_sizes_count_what_is_said_not_what_is_written():
    amounts = "You paid $1,284.50, $9,730.12 and $2,500 this month."  # 52 written, about 120 said
    assert ENGLISH.size(amounts) > 2 * len(amounts)
    assert VoiceReading(normalized=False).size(amounts) == len(amounts)
    assert chunk_text(amounts, first_chunk_chars=60)[0] == "You paid $1,284.50,"


def test_a_cut_never_changes_how_a_text_is_read():
    # "58-1193" is a code only after "order number", and "3 p.m." ends a sentence only before a capital.
    text = "I checked on order number 58-1193 for you. The driver comes at 3 p.m. Thursday is the backup day."
    for first_chunk_chars in range(12, 90, 3):
        for must_fit in (False, True):
            chunks = chunk_text(text, first_chunk_chars=first_chunk_chars, first_must_fit=must_fit)
            said_apart = " ".join(said_text(chunk, "en-us") for chunk in chunks)
            assert said_apart.split() == said_text(text, "en-us").split(), chunks


def test_after_a_short_first_chunk_the_chunks_grow_from_it():
    text = "Your meeting with the design team is now at 3 p.m. on Thursday, and everyone has been notified."
    chunks = chunk_text(text, first_chunk_chars=23, first_must_fit=True)
    assert chunks[0] == "Your meeting with the"
    assert_each_chunk_is_ready_before_the_ones_before_have_played(chunks)
    assert words(" ".join(chunks)) == words(text)


def test_a_lexicon_phrase_is_never_parted_and_its_said_length_counts() -> None:
    lexicon = parse_lexicon({"Hugging Face": "/hˈʌɡɪŋ fˈAs/", "ACME": "a company of many employees"}, DEFAULT_VOCAB)
    reading = VoiceReading(lexicon=lexicon)
    assert reading.size("ACME") == len("a company of many employees")
    text = "Your model from Hugging Face is ready to deploy on the endpoint today."
    for first_chunk_chars in range(12, 60):
        chunks = chunk_text(text, first_chunk_chars=first_chunk_chars, first_must_fit=True, reading=reading)
        assert any("Hugging Face" in chunk for chunk in chunks), chunks
        assert words(" ".join(chunks)) == words(text)


def test_a_short_word_said_long_is_never_cut_between_its_letters() -> None:
    lexicon = parse_lexicon({"ACME": "the incredibly long and winding name of our company"}, DEFAULT_VOCAB)
    reading = VoiceReading(lexicon=lexicon)
    for first_chunk_chars in (12, 20, 40):
        for text in ("ACME.", "$9,730.12."):
            assert chunk_text(text, first_chunk_chars, 320, True, reading=reading) == [text]


def test_no_cut_leaves_a_rest_too_short_for_a_model_call() -> None:
    text = "Sure, here it is."
    assert chunk_text(text, first_chunk_chars=12, first_must_fit=True) == [text]  # not "Sure, here it" + "is."
