"""Spanish, French, Italian and Brazilian Portuguese voices say numbers in their own words
(``kokoro_server.text.normalize_romance``), and espeak-ng then reads all of the text: before, "1.500 €"
in Spanish was read as "uno", a pause, "quinientos", and the euro sign went unsaid."""

from __future__ import annotations

import pytest
from kokoro_onnx.config import DEFAULT_VOCAB
from kokoro_onnx.tokenizer import Tokenizer

from kokoro_server.text.g2p import G2P
from kokoro_server.text.normalize import normalize
from kokoro_server.text.reading import said_phonemes

CASES = [
    ("es", "El precio es 1.500 €.", "El precio es mil quinientos euros."),
    ("es", "Vale 3.5 euros hoy.", "Vale tres coma cinco euros hoy."),
    ("es", "Son 42,97 €.", "Son cuarenta y dos euros con noventa y siete céntimos."),
    ("es", "Un 15 % más.", "Un quince por ciento más."),
    ("es", "El 12/03/2026 a las 15:30.", "El doce de marzo de dos mil veintiséis a las quince y treinta."),
    ("es", "Es el 1.º día y la 2.ª vez.", "Es el primer día y la segunda vez."),
    ("es", "Hace -3 °C.", "Hace menos tres grados centígrados."),
    ("fr-fr", "Le prix est de 1 500 €.", "Le prix est de mille cinq cents euros."),
    ("fr-fr", "Il est 15 h 30.", "Il est quinze heures trente."),
    ("fr-fr", "Le 1er mars, le 2e jour.", "Le premier mars, le deuxième jour."),
    ("fr-fr", "Une hausse de 2,5 %.", "Une hausse de deux virgule cinq pour cent."),
    ("it", "Costa 1.500 euro.", "Costa millecinquecento euro."),
    ("it", "Il 3° posto alle 8:05.", "Il terzo posto alle otto e cinque."),
    ("it", "Fa 20°C.", "Fa venti gradi centigradi."),
    ("pt-br", "Custa R$ 20,50.", "Custa vinte reais e cinquenta centavos."),
    ("pt-br", "O 1º lugar, a 2ª vez.", "O primeiro lugar, a segunda vez."),
    ("pt-br", "Em 12/03/2026 às 9:15.", "Em doze de março de dois mil e vinte e seis às nove e quinze."),
]


@pytest.mark.parametrize(("language", "written", "said"), CASES)
def test_numbers_are_said_in_the_voices_language(language: str, written: str, said: str) -> None:
    assert normalize(written, language) == said
    assert normalize(said, language) == said  # twice changes nothing


def test_hindi_and_japanese_signs_are_words_and_their_readers_say_the_numbers() -> None:
    assert normalize("मेरा नंबर 42 है।", "hi") == "मेरा नंबर 42 है।"  # espeak-ng says Hindi's numbers
    assert normalize("कीमत ₹500 है, 10% छूट।", "hi") == "कीमत 500 रुपये है, 10 प्रतिशत छूट।"
    assert normalize("割引は50%です。¥3000です。", "ja") == "割引は50パーセントです。3000円です。"
    assert normalize("折扣50%。", "cmn") == "折扣50%。"  # the Mandarin reader says it: 百分之五十


def test_long_numbers_are_said_digit_by_digit_and_only_french_groups_thousands_with_spaces() -> None:
    digits = "uno dos tres cuatro cinco seis siete ocho nueve cero"
    assert normalize("Cuenta 1234567890123456789.", "es") == f"Cuenta {digits} {digits.rsplit(' ', 1)[0]}."
    assert normalize("Tengo 3 500 gatos.", "es") == "Tengo tres quinientos gatos."  # two numbers, in Spanish
    assert normalize("Il y a 3 500 chats.", "fr-fr") == "Il y a trois mille cinq cents chats."


def test_hostile_numbers_are_read_in_one_pass() -> None:
    text = "1.500,25 € " * 2_000 + "3.5 " * 2_000 + "12/03/2026 " * 1_000
    said = normalize(text, "es")
    assert "mil quinientos euros con veinticinco céntimos" in said and not any(c.isdigit() for c in said)


def test_espeak_reads_the_whole_sentence_once_its_numbers_are_words() -> None:
    tokenizer = Tokenizer(vocab=DEFAULT_VOCAB)
    g2p = G2P(tokenizer.phonemize, frozenset(DEFAULT_VOCAB))
    phonemes = said_phonemes("El precio es 1.500 €, hoy.", "es", g2p)
    assert "kinjˈɛntos" in phonemes and "ˈeʊɾos" in phonemes and phonemes.rstrip(".").endswith("ˈoɪ")
