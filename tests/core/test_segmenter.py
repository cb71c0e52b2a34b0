"""The one sentence segmenter, on the shared corpus and on the cases that break naive splitters."""

from __future__ import annotations

import random

import pytest

from kokoro_bench.corpus import load_replies
from kokoro_core.segmenter import SentenceSegmenter, sentences_from_stream, split_sentences


def corpus() -> dict[str, str]:
    return load_replies()


def stripped(text: str) -> list[str]:
    return [sentence.strip() for sentence in split_sentences(text)]


def test_every_corpus_reply_splits_losslessly():
    for reply_id, text in corpus().items():
        sentences = split_sentences(text)
        assert "".join(sentences) == text, reply_id
        assert all(sentence.strip() for sentence in sentences), reply_id


def test_corpus_tricky_sentences_stay_whole():
    replies = corpus()
    assert (
        "Dr. Patel also asked me to remind you that your follow-up appointment is on Tuesday, March 3rd, at 2:30 p.m."
        in stripped(replies["medication-reminder"])
    )
    assert "The first leaves at 7:45 a.m. and lands at 10:20 a.m., with no change fee." in stripped(
        replies["flight-change"]
    )
    assert "Your checking account balance is $1,284.50 as of this morning." in stripped(replies["bank-balance"])
    router = stripped(replies["router-troubleshoot"])
    assert any(sentence.startswith("Open a browser and go to 192.168.1.1, sign in") for sentence in router)
    assert 'and choose "Restart connection."' in next(s for s in router if s.startswith("Open a browser"))
    assert "The tracking page says it's expected on Wednesday by 8 p.m." in stripped(replies["order-status"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dr. Smith will see you. Mr. Jones won't.", ["Dr. Smith will see you.", "Mr. Jones won't."]),
        ("Bring snacks, e.g. fruit or nuts. Then rest.", ["Bring snacks, e.g. fruit or nuts.", "Then rest."]),
        ("It costs $3.50 today. Pi is 3.14159 roughly.", ["It costs $3.50 today.", "Pi is 3.14159 roughly."]),
        ("Visit example.com/docs/v1.2 now. It helps.", ["Visit example.com/docs/v1.2 now.", "It helps."]),
        ("Ping 10.0.0.1 first. Then 8.8.8.8 next.", ["Ping 10.0.0.1 first.", "Then 8.8.8.8 next."]),
        ("Meet at 9 a.m. tomorrow. Bring ID.", ["Meet at 9 a.m. tomorrow.", "Bring ID."]),
        ("We close at 5 p.m. See you then.", ["We close at 5 p.m.", "See you then."]),
        ("The date is 12.03.2024 in Europe. OK?", ["The date is 12.03.2024 in Europe.", "OK?"]),
        ('She said "Stop." Then she left.', ['She said "Stop."', "Then she left."]),
        ('"Really?" he asked. Yes.', ['"Really?" he asked.', "Yes."]),
        ("Wait... what was that? Nothing… Go on.", ["Wait... what was that?", "Nothing…", "Go on."]),
        ("Well... maybe later.", ["Well... maybe later."]),
        ("Steps:\n1. Unplug it.\n2. Wait.\n3. Plug it in.", ["Steps:", "1. Unplug it.", "2. Wait.", "3. Plug it in."]),
        ("Buy:\n- milk\n- eggs", ["Buy:", "- milk", "- eggs"]),
        ("First paragraph without a stop\n\nSecond one.", ["First paragraph without a stop", "Second one."]),
        ("J. R. R. Tolkien wrote it. Read it.", ["J. R. R. Tolkien wrote it.", "Read it."]),
        ("Great! Thanks?! Done.", ["Great!", "Thanks?!", "Done."]),
        ("Acme Inc. is big. Acme Inc. grows.", ["Acme Inc. is big.", "Acme Inc. grows."]),
        ("Call No. 5 now.", ["Call No. 5 now."]),
        ("", []),
    ],
)
def test_hard_cases(text, expected):
    assert stripped(text) == expected
    assert "".join(split_sentences(text)) == text


def test_a_stream_gives_the_same_sentences_as_the_whole_text_for_any_token_split():
    rng = random.Random(7)
    for reply_id, text in corpus().items():
        for _ in range(5):
            cuts = sorted(rng.sample(range(1, len(text)), k=min(len(text) - 1, len(text) // 4)))
            tokens = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
            assert list(sentences_from_stream(tokens)) == split_sentences(text), reply_id


def test_a_sentence_is_released_as_soon_as_the_next_one_begins():
    segmenter = SentenceSegmenter()
    assert segmenter.push("Sure, I can help with that.") == []
    assert segmenter.push(" Yo") == []  # the next sentence has not shown enough of itself yet
    assert segmenter.push("ur order") == ["Sure, I can help with that. "]
    assert segmenter.pending == "Your order"
    assert segmenter.flush() == ["Your order"]
    assert segmenter.pending == ""


def test_whitespace_only_text_is_kept_not_lost():
    assert split_sentences("  \n ") == ["  \n "]
