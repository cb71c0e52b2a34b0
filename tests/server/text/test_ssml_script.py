"""say-as in each language, and SSML parts as a script: runs, placeholders read by the run's lexicon, pauses
and marks."""

from __future__ import annotations

import pytest

from kokoro_core.ssml import Mark, Pause, SsmlError, parse_ssml
from kokoro_server.engine.fake_engine import PHONEME_SYMBOLS
from kokoro_server.text.reading import VoiceReading
from kokoro_server.text.say_as import SayAsError, say_as
from kokoro_server.text.script import Run, plain_script, split_anchors, ssml_script, without_anchors
from tests.scaling import assert_linear


@pytest.mark.parametrize(
    ("text", "interpret_as", "date_format", "language", "said"),
    [
        ("AB12", "characters", None, "en-us", "ay bee one two"),
        ("0420", "digits", None, "en-us", "zero four two zero"),
        ("1234", "cardinal", None, "en-us", "one thousand two hundred thirty-four"),
        ("1234", "cardinal", None, "es", "mil doscientos treinta y cuatro"),
        ("3", "ordinal", None, "fr-fr", "troisième"),
        ("21", "ordinal", None, "en-gb", "twenty-first"),
        ("3", "ordinal", None, "ja", "第3"),
        ("12/05/2026", "date", "mdy", "en-us", "December fifth, twenty twenty-six"),
        ("12/05/2026", "date", "dmy", "en-gb", "the twelfth of May, twenty twenty-six"),
        ("2026-12-05", "date", None, "es", "cinco de diciembre de dos mil veintiséis"),
        ("12/05/2026", "date", "mdy", "ja", "2026年12月5日"),
        ("Dec 5", "date", "md", "en-us", "December fifth"),
        ("12/2026", "date", "my", "it", "dicembre duemilaventisei"),
        ("+1 555 010 0199", "telephone", None, "en-us", "plus one, five five five, zero one zero, zero one nine nine"),
        ("+34 912 345", "telephone", None, "es", "más tres cuatro, nueve uno dos, tres cuatro cinco"),
        ("42.50 USD", "currency", None, "en-us", "forty-two dollars and fifty cents"),
        ("EUR 10", "currency", None, "es", "diez euros"),
        ("14:30", "time", None, "en-gb", "fourteen thirty"),
    ],
)
def test_say_as_reads_each_kind_in_the_voice_language(
    text: str, interpret_as: str, date_format: str | None, language: str, said: str
) -> None:
    assert say_as(text, interpret_as, date_format, language) == said


@pytest.mark.parametrize(
    ("text", "interpret_as", "date_format", "expected"),
    [
        ("abc", "cardinal", None, "reads a number such as 1234"),
        ("3.5", "ordinal", None, "reads a whole number"),
        ("13/45/2026", "date", "mdy", "a month from 1 to 12"),
        ("12/45/2026", "date", "mdy", "a day from 1 to 31"),
        ("12/05", "date", "mdy", "3 parts in the order mdy"),
        ("call me", "telephone", None, "a number in digits"),
    ],
)
def test_say_as_refuses_text_it_cannot_read_as_asked(
    text: str, interpret_as: str, date_format: str | None, expected: str
) -> None:
    with pytest.raises(SayAsError, match=expected):
        say_as(text, interpret_as, date_format, "en-us")


def test_a_script_runs_until_a_sentence_element_ends_or_the_rate_changes() -> None:
    document = (
        '<speak>Your code is <say-as interpret-as="characters">AB</say-as>, read <sub alias="twice">2x</sub>.'
        '<break time="300ms"/><mark name="m"/><prosody rate="slow">Slowly.</prosody><s>Next.</s></speak>'
    )
    script = ssml_script(parse_ssml(document), "en-us", PHONEME_SYMBOLS)
    first, slow, last = script.steps
    assert isinstance(first, Run) and without_anchors(first.text) == "Your code is Ssmlzxazq, read Ssmlzxbzq."
    assert first.as_written(without_anchors(first.text)) == "Your code is AB, read 2x."
    said = VoiceReading("en-us", True, first.lexicon).said(without_anchors(first.text))
    assert said == "Your code is ay bee, read twice."
    assert list(first.anchors.values()) == [Pause(300), Mark("m")]  # after its text: kept in the run
    assert isinstance(slow, Run) and slow.rate == 0.8 and slow.text == "Slowly."
    assert isinstance(last, Run) and last.text == "Next." and last.rate == 1.0
    assert script.text == "Your code is AB, read 2x. Slowly. Next."
    assert plain_script("Hello.").steps == (Run("Hello."),)
    before = ssml_script(parse_ssml('<speak><mark name="a"/><break time="1s"/>Hi.</speak>'), "en-us", ())
    assert before.steps[:2] == (Mark("a"), Pause(1000))  # before any text: steps of their own


def test_the_same_words_outside_a_read_as_element_are_read_as_usual() -> None:
    script = ssml_script(
        parse_ssml('<speak>2 and <say-as interpret-as="digits">22</say-as> and 22</speak>'), "en-us", PHONEME_SYMBOLS
    )
    (run,) = script.steps
    assert isinstance(run, Run)
    assert VoiceReading("en-us", True, run.lexicon).said(run.text) == "two and two two and twenty-two"


def test_phonemes_in_ipa_are_mapped_to_the_model_symbols_and_unknown_ones_refused() -> None:
    script = ssml_script(parse_ssml('<speak><phoneme ph="t͡ʃɪps">chips</phoneme></speak>'), "en-us", PHONEME_SYMBOLS)
    (run,) = script.steps
    assert isinstance(run, Run) and dict(run.lexicon.entries)[run.text] == "/tʃɪps/"
    script = ssml_script(parse_ssml('<speak><phoneme ph="t͡ʃiko">chico</phoneme></speak>'), "es", PHONEME_SYMBOLS)
    (run,) = script.steps
    assert isinstance(run, Run) and dict(run.lexicon.entries)[run.text] == "/ʧiko/"  # one symbol, as misaki's
    with pytest.raises(SsmlError, match="'ǂ', which the model does not say"):
        ssml_script(parse_ssml('<speak><phoneme ph="ǂa">click</phoneme></speak>'), "en-us", PHONEME_SYMBOLS)
    with pytest.raises(SsmlError, match="say-as cardinal cannot read 'many'"):
        ssml_script(
            parse_ssml('<speak><say-as interpret-as="cardinal">many</say-as></speak>'), "en-us", PHONEME_SYMBOLS
        )


def test_text_that_looks_like_a_placeholder_is_read_as_written() -> None:
    script = ssml_script(
        parse_ssml('<speak>Ssmlzxazq and <sub alias="the consortium">W3C</sub></speak>'), "en-us", PHONEME_SYMBOLS
    )
    (run,) = script.steps
    assert isinstance(run, Run) and run.as_written(run.text) == "Ssmlzxazq and W3C"
    assert VoiceReading("en-us", True, run.lexicon).said(run.text) == "Ssmlzxazq and the consortium"


def test_whitespace_between_two_elements_of_one_rate_keeps_them_in_one_run() -> None:
    document = '<speak><prosody rate="slow">Hello</prosody> <prosody rate="slow">there.</prosody></speak>'
    (run,) = ssml_script(parse_ssml(document), "en-us", PHONEME_SYMBOLS).steps
    assert isinstance(run, Run) and run.text == "Hello there." and run.rate == 0.8


@pytest.mark.parametrize(
    ("document", "language", "expected"),
    [
        ('<say-as interpret-as="cardinal">' + "9" * 40 + "</say-as>", "es", "say-as cardinal cannot read"),
        ('<say-as interpret-as="date" format="ymd">2026-02-31</say-as>', "en-us", "a date that exists"),
    ],
)
def test_say_as_text_past_what_can_be_said_is_an_ssml_error(document: str, language: str, expected: str) -> None:
    with pytest.raises(SsmlError, match=expected):
        ssml_script(parse_ssml(f"<speak>{document}</speak>"), language, PHONEME_SYMBOLS)


def test_a_digit_of_another_script_is_spelled_and_a_sign_that_is_no_digit_is_left_as_it_is() -> None:
    assert say_as("x٣²", "characters", None, "en-us") == "ex three ²"


def test_pauses_and_marks_after_text_stay_in_its_run_until_a_volume_change() -> None:
    document = (
        '<speak>Your code is <break time="300ms"/> four, <mark name="m"/>seven. <break time="1s"/>'
        'Then <prosody volume="loud">louder</prosody> words<mark name="end"/></speak>'
    )
    script = ssml_script(parse_ssml(document), "en-us", PHONEME_SYMBOLS)
    first, louder, words = script.steps
    assert isinstance(first, Run) and list(first.anchors.values()) == [Pause(300), Mark("m"), Pause(1000)]
    text, placed = split_anchors(first.text)
    assert text == "Your code is four, seven. Then" and without_anchors(first.text) == text
    assert [(offset, first.anchors[anchor]) for offset, anchor in placed] == [
        (13, Pause(300)),  # the offset of the character after it: "four,"
        (19, Mark("m")),
        (26, Pause(1000)),
    ]
    assert isinstance(louder, Run) and louder.volume_db == 4.0 and louder.text == "louder"
    assert first.volume_db == 0.0 and isinstance(words, Run)
    assert list(words.anchors.values()) == [Mark("end")]  # after the last word: reached when its audio ends


def test_a_documents_own_private_use_characters_cannot_pass_for_anchors() -> None:
    script = ssml_script(parse_ssml("<speak>Hello \U000f0000 there</speak>"), "en-us", PHONEME_SYMBOLS)
    (run,) = script.steps
    assert isinstance(run, Run) and not run.anchors and split_anchors(run.text) == ("Hello there", [])


def test_an_anchor_touching_punctuation_or_letters_leaves_the_text_as_written() -> None:
    document = '<speak>Hello there<mark name="a"/>. Wait<break time="500ms"/>, then a<break/>b.</speak>'
    (run,) = ssml_script(parse_ssml(document), "en-us", PHONEME_SYMBOLS).steps
    text, placed = split_anchors(run.text)
    assert text == "Hello there. Wait, then a b."  # between two letters, an element parts two words
    assert [(offset, run.anchors[anchor]) for offset, anchor in placed] == [
        (11, Mark("a")),
        (17, Pause(500)),
        (26, Pause(400)),
    ]


def test_a_script_of_many_breaks_is_made_in_linear_time() -> None:
    """Eight times the breaks take about eight times as long, never sixty-four."""
    piece = 'word <break time="1ms"/>, more text '

    small, large = (parse_ssml("<speak>" + piece * count + "</speak>") for count in (120, 960))
    script = ssml_script(large, "en-us", PHONEME_SYMBOLS)
    assert len(script.steps) == 1 and len(script.steps[0].anchors) == 960  # one run holds them all
    assert_linear(lambda parts: ssml_script(parts, "en-us", PHONEME_SYMBOLS), small, large, 8)
