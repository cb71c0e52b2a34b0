"""Every language is read the way Kokoro v1.0 was trained (``kokoro_server.text.g2p``): the real readers
(espeak-ng with misaki's mapping, misaki's Mandarin and Japanese readers), no model needed.

For each language, sentences with its hard cases (kanji, mixed scripts, numbers, an English word) give
phonemes with no language-switch marker, no "letter" reading and only symbols the model reads; and every
reader starts cold with the network blocked: nothing downloads at first use.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from kokoro_onnx.config import DEFAULT_VOCAB
from kokoro_onnx.tokenizer import Tokenizer

from kokoro_core.speakable import language_of
from kokoro_server.text.g2p import CHINESE, G2P, JAPANESE, LanguageUnavailable, available_languages, words_of
from kokoro_server.text.reading import said_phonemes

SENTENCES = {
    "jf_alpha": [
        "今日は天気が良いので、公園を散歩しましょう。",
        "iPhoneを買いました。価格は3万円です。",
        "東京駅から新幹線で大阪へ行きます。",
    ],
    "zf_xiaobei": [
        "您好，感谢您联系我们的客服中心。",
        "我用iPhone打电话，价格是3500元。",
        "您的订单已经在今天上午从上海仓库发出。",
    ],
    "ef_dora": ["El precio es 1.500 euros.", "Vale 3.5 euros hoy.", "Me encanta el weekend en Madrid."],
    "ff_siwis": ["Je vais au weekend avec mon smartphone.", "Il est 15 h 30, monsieur."],
    "if_sara": ["Giorgio mangia la pizza con gli amici.", "Il treno parte alle 8."],
    "pf_dora": ["Eu sei que você gosta de futebol.", "O preço é 20 reais."],
    "hf_alpha": ["नमस्ते, आप कैसे हैं?", "मेरा फ़ोन नंबर 42 है।"],
    "af_heart": ["Your refund of $42.97 is on its way."],
}
# What espeak-ng says when it cannot read a letter ("Chinese letter", "Japanese letter"), in English.
LETTER_READINGS = ("lˈɛɾɚ", "lˈetə", "tʃˈaɪniːz", "dʒˌapɐnˈiːz")


@pytest.fixture(scope="module")
def g2p() -> G2P:
    tokenizer = Tokenizer(vocab=DEFAULT_VOCAB)
    return G2P(tokenizer.phonemize, frozenset(DEFAULT_VOCAB))


@pytest.mark.parametrize(("voice", "text"), [(v, t) for v, texts in SENTENCES.items() for t in texts])
def test_each_language_reads_as_the_model_was_trained(g2p: G2P, voice: str, text: str) -> None:
    phonemes = said_phonemes(text, language_of(voice), g2p)
    assert phonemes.strip()
    assert "(" not in phonemes and ")" not in phonemes, phonemes  # no (en)…(fr) switch flags
    assert not any(reading in phonemes for reading in LETTER_READINGS), phonemes
    assert set(phonemes) - {" "} <= set(DEFAULT_VOCAB), set(phonemes) - set(DEFAULT_VOCAB)


def test_latin_words_in_chinese_and_japanese_are_read_in_english(g2p: G2P) -> None:
    english = g2p("iPhone", "en-us")
    assert english in g2p("我用iPhone打电话。", CHINESE) and english in g2p("iPhoneを買いました。", JAPANESE)
    assert "iPhone" not in g2p("我用iPhone打电话。", CHINESE)


@pytest.mark.parametrize("language", ["es", "fr-fr", "it", "pt-br"])
def test_a_camel_case_brand_in_an_espeak_language_is_read_in_english(g2p: G2P, language: str) -> None:
    assert g2p("iPhone", "en-us") in g2p("Compré un iPhone ayer.", language)


def test_a_number_with_a_dot_is_read_whole(g2p: G2P) -> None:
    """espeak-ng cuts "3.5" in two; both halves are said (the reader keeps only the first)."""
    assert "ˈoɪ" in g2p("Vale 3.5 euros hoy.", "es")  # "hoy", after the number


def test_tones_and_pitch_marks_reach_the_model(g2p: G2P) -> None:
    assert set("↓↗↘→") & set(g2p("你好，今天天气很好。", CHINESE))
    assert "ɴ" in g2p("公園を散歩しましょう。", JAPANESE)


def test_chinese_and_japanese_are_cut_into_words_with_their_punctuation() -> None:
    assert words_of("您好，感谢您联系我们。", CHINESE) == ["您好，", "感谢您", "联系", "我们。"]
    assert words_of("ご注文の品物は発送されました。", JAPANESE)[:4] == ["ご", "注文", "の", "品物"]
    assert words_of("Hello there.", "en-us") is None and words_of("Hola.", "es") is None


def test_this_installation_reads_every_kokoro_language() -> None:
    assert available_languages() == ("en-us", "en-gb", "es", "fr-fr", "it", "pt-br", "hi", "cmn", "ja")


def test_a_language_that_is_not_installed_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, g2p: G2P) -> None:
    from kokoro_server.text import g2p as module

    monkeypatch.setattr(module, "installed", lambda language: language != JAPANESE)
    assert JAPANESE not in module.available_languages()
    with pytest.raises(LanguageUnavailable, match=r"install kokoro-server\[japanese\]"):
        G2P(g2p._english, frozenset(DEFAULT_VOCAB))("東京", JAPANESE)


COLD_START = """
import json, socket, sys

def refuse(*args, **kwargs):
    raise OSError("network access during a cold start")

socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

from kokoro_onnx.config import DEFAULT_VOCAB
from kokoro_onnx.tokenizer import Tokenizer
from kokoro_server.text.g2p import G2P

g2p = G2P(Tokenizer(vocab=DEFAULT_VOCAB).phonemize, frozenset(DEFAULT_VOCAB))
print(json.dumps({language: g2p(text, language) for language, text in json.loads(sys.argv[1]).items()}))
"""


def test_every_reader_starts_cold_offline(tmp_path) -> None:
    """A fresh interpreter with every connection refused, and a fresh home and temp dir (no cache from an
    earlier run), reads each language: every dictionary is in an installed wheel."""
    texts = {language_of(voice): texts[0] for voice, texts in SENTENCES.items()}
    environment = {"HOME": str(tmp_path), "TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", COLD_START, json.dumps(texts)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    read = json.loads(result.stdout.splitlines()[-1])
    assert set(read) == set(texts) and all(phonemes.strip() for phonemes in read.values()), read
