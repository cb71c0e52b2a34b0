"""Every Kokoro language streams: text without spaces (Chinese, Japanese, words joined by commas, a
URL) is cut into sentences and chunks as English is, and nothing is lost, reordered or over the limit.

The one segmenter and chunker serve client and server, so these run on the pure-Python core alone.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kokoro_core.chunker import AS_WRITTEN, chunk_text
from kokoro_core.segmenter import WIDE_LETTERS, SentenceSegmenter, sentences_from_stream, split_sentences

CHINESE = (
    "您好，感谢您联系我们的客服中心。您的订单已经在今天上午从上海仓库发出，预计三到五个工作日内送达。"
    "如果包裹在运输过程中出现任何损坏，请在签收后四十八小时内联系我们！还有什么我可以帮您的吗？"
)
JAPANESE = (
    "お問い合わせいただき、ありがとうございます。ご注文の商品は本日の午前中に東京の倉庫から発送されました。"
    "お届けまでは通常三日から五日ほどかかります。"
)
HINDI = "आपका ऑर्डर भेज दिया गया है। यह तीन दिनों में पहुंचेगा। धन्यवाद॥"
SPANISH = "¿Le llegó el pedido? ¡Qué bien! Gracias por escribirnos."


def _stripped(sentences: list[str]) -> list[str]:
    return [sentence.strip() for sentence in sentences]


def _letters(text: str) -> str:
    return "".join(text.split())


def test_chinese_and_japanese_sentences_end_at_their_full_stops_without_spaces() -> None:
    assert _stripped(split_sentences(CHINESE)) == [
        "您好，感谢您联系我们的客服中心。",
        "您的订单已经在今天上午从上海仓库发出，预计三到五个工作日内送达。",
        "如果包裹在运输过程中出现任何损坏，请在签收后四十八小时内联系我们！",
        "还有什么我可以帮您的吗？",
    ]
    assert _stripped(split_sentences(JAPANESE)) == [
        "お問い合わせいただき、ありがとうございます。",
        "ご注文の商品は本日の午前中に東京の倉庫から発送されました。",
        "お届けまでは通常三日から五日ほどかかります。",
    ]


def test_hindi_and_spanish_sentences_end_where_their_punctuation_says() -> None:
    assert _stripped(split_sentences(HINDI)) == ["आपका ऑर्डर भेज दिया गया है।", "यह तीन दिनों में पहुंचेगा।", "धन्यवाद॥"]
    assert _stripped(split_sentences(SPANISH)) == ["¿Le llegó el pedido?", "¡Qué bien!", "Gracias por escribirnos."]


def test_a_token_stream_of_chinese_gives_each_sentence_as_soon_as_it_is_complete() -> None:
    tokens = [CHINESE[index : index + 3] for index in range(0, len(CHINESE), 3)]
    segmenter = SentenceSegmenter()
    completed = [sentence for token in tokens[:20] for sentence in segmenter.push(token)]
    assert completed == split_sentences(CHINESE)[:2]  # the first two, before the reply has ended
    assert list(sentences_from_stream(tokens)) == split_sentences(CHINESE)


def test_text_without_any_break_is_cut_at_the_limit() -> None:
    for text in ("无" * 1000, "word," * 400, "https://example.com/" + "a" * 2000, "x" * 3000):
        sentences = split_sentences(text, max_chars=100)
        assert len(sentences) >= len(text) // 100 and all(len(s) <= 100 for s in sentences)
        assert "".join(sentences) == text
        chunks = chunk_text(text, 40, 100, False, AS_WRITTEN)
        assert len(chunks) >= 3 and all(len(chunk) <= 100 for chunk in chunks)
        assert "".join(chunks) == text


def test_words_joined_by_commas_are_cut_after_a_comma() -> None:
    chunks = chunk_text("word," * 60, 80, 320, False, AS_WRITTEN)
    assert len(chunks) >= 3 and all(chunk.endswith(",") for chunk in chunks)


def test_chinese_chunks_fit_the_limit_and_cut_at_clauses() -> None:
    chunks = chunk_text(CHINESE * 3, 40, 100, False, AS_WRITTEN)
    assert len(chunks) >= 5 and all(len(chunk) <= 100 for chunk in chunks)
    assert all(chunk[-1] in "。！？，" for chunk in chunks)  # every cut at a full stop or a clause
    assert "".join(chunks) == CHINESE * 3


WIDE = st.text(alphabet=st.sampled_from("您好订单发货。，！？、：；「」（）abc 1.?"), max_size=400)
WIDE_PIECES = st.lists(st.text(alphabet=st.sampled_from("您好订单。，！？ ab."), max_size=6), max_size=80)


@settings(max_examples=200, deadline=None)
@given(WIDE, st.integers(20, 120))
def test_sentences_of_mixed_scripts_keep_every_character_and_the_limit(text: str, max_chars: int) -> None:
    sentences = split_sentences(text, max_chars)
    assert _letters("".join(sentences)) == _letters(text)
    assert all(len(sentence) <= max_chars for sentence in sentences)


@settings(max_examples=200, deadline=None)
@given(WIDE_PIECES, st.integers(20, 120))
def test_a_stream_of_wide_text_splits_as_the_whole_text_does(pieces: list[str], max_chars: int) -> None:
    assert list(sentences_from_stream(pieces, max_chars)) == split_sentences("".join(pieces), max_chars)


@settings(max_examples=100, deadline=None)
@given(WIDE, st.integers(12, 60), st.integers(40, 160))
def test_chunks_of_mixed_scripts_keep_every_character(text: str, first: int, most: int) -> None:
    chunks = chunk_text(text, first, most, False, AS_WRITTEN)
    assert _letters("".join(chunks)) == _letters(text)
    assert all(len(chunk) <= 2 * most for chunk in chunks)


def test_wide_letters_cover_kana_and_the_unified_ideographs() -> None:
    wide = re.compile(f"[{WIDE_LETTERS}]")
    assert all(wide.match(char) for char in "あア漢한")
    assert not any(wide.match(char) for char in "aé1。")
