"""Synthesis chunks: long sentences split at clauses under the limit, a short first chunk."""

from __future__ import annotations

import re

from kokoro_server.chunker import GROWTH, chunk_text, split_long


def words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def test_short_sentences_are_one_chunk_each():
    assert chunk_text("Hello there. How are you?") == ["Hello there.", "How are you?"]


def test_a_long_first_sentence_yields_a_short_first_chunk_at_a_clause():
    text = "All right then, I can move your appointment to Thursday afternoon and email the confirmation."
    chunks = chunk_text(text, first_chunk_chars=40)
    assert chunks[0] == "All right then,"
    assert words(" ".join(chunks)) == words(text)


def test_after_the_first_chunk_each_may_be_twice_as_long_as_the_one_before():
    # A short first chunk, then a long sentence: it is cut at its clauses, so the next chunk is
    # synthesized while the short one plays, and the chunks grow from there.
    text = "Okay. Then, after that, we will go through the remaining items one at a time until the list is done."
    assert chunk_text(text, first_chunk_chars=20) == [
        "Okay.",
        "Then, after that,",
        "we will go through the remaining items one at a time until the list is done.",
    ]


def test_short_sentences_after_the_first_are_packed_into_growing_chunks():
    text = "Yes. " + " ".join(f"Step {i} is done." for i in range(1, 13))
    chunks = chunk_text(text, first_chunk_chars=80, max_chunk_chars=120)
    assert chunks[0] == "Yes."
    assert len(chunks) <= 4  # 13 sentences, 4 model calls
    for before, chunk in zip(chunks, chunks[1:], strict=False):
        assert len(chunk) <= max(80, GROWTH * len(before)), (before, chunk)
    assert max(len(chunk) for chunk in chunks) <= 120
    assert words(" ".join(chunks)) == words(text)


def test_a_sentence_over_its_chunk_limit_without_clauses_stays_whole():
    text = "Sure. Your order qualifies for a full refund because it arrived more than five days late."
    assert chunk_text(text) == [
        "Sure.",
        "Your order qualifies for a full refund because it arrived more than five days late.",
    ]


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
    assert chunk_text(text, first_chunk_chars=30) == [text]  # for first audio alone, never mid-clause
    first, *rest = chunk_text(text, first_chunk_chars=30, first_must_fit=True)
    assert first == "Your order qualifies for a"
    assert words(" ".join([first, *rest])) == words(text)


def test_after_a_first_chunk_cut_to_fit_the_chunks_double_from_it():
    text = "Your meeting with the design team is now at 3 p.m. on Thursday, and everyone has been notified."
    chunks = chunk_text(text, first_chunk_chars=23, first_must_fit=True)
    assert chunks[0] == "Your meeting with the"
    for before, chunk in zip(chunks, chunks[1:], strict=False):
        assert len(chunk) <= GROWTH * len(before) + 5, chunks  # whole clauses: a few characters over at most
    assert words(" ".join(chunks)) == words(text)
