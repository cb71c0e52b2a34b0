"""The chunk planner on its own, reading text as written: the plan's shape needs no voice."""

from __future__ import annotations

from kokoro_core.chunker import AS_WRITTEN, GROWTH, MIN_FIRST_CHUNK_CHARS, chunk_text, split_long

REPLY = (
    "Of course, my friend, I can help with that. Your order shipped this morning, and it should arrive by Thursday. "
    "The tracking number is in the email we sent, along with the carrier's link. Anything else?"
)


def test_chunks_keep_every_word_in_order_and_the_first_is_short() -> None:
    chunks = chunk_text(REPLY, first_chunk_chars=24)
    assert " ".join(chunks).split() == REPLY.split()
    assert chunks[0] == "Of course, my friend,"  # the first clause boundary that leaves a call's worth


def test_later_chunks_grow_with_the_audio_planned_ahead_of_them() -> None:
    chunks = chunk_text(REPLY, first_chunk_chars=24, max_chunk_chars=320)
    ahead = float(len(chunks[0]))
    for chunk in chunks[1:]:
        assert len(chunk) <= max(MIN_FIRST_CHUNK_CHARS, int(GROWTH * ahead)) or " " not in chunk
        ahead += (1 - 1 / GROWTH) * len(chunk)
    assert max(len(chunk) for chunk in chunks[1:]) > len(chunks[0])


def test_a_sentence_too_long_for_one_call_splits_at_clauses_within_the_limit() -> None:
    sentence = ", ".join(f"item {n}" for n in range(60)) + "."
    pieces = split_long(sentence, 120, AS_WRITTEN)
    assert " ".join(pieces) == sentence and all(len(piece) <= 120 for piece in pieces)
    assert all(piece.endswith((",", ".")) for piece in pieces)  # cut at clause boundaries only
