"""Voice names and blends: the syntax, normalization, canonical form and each refusal, and how speech
options take a blend (``resolve_options``)."""

from __future__ import annotations

import pytest

from kokoro_core.errors import ProtocolError
from kokoro_core.options import default_options, resolve_options
from kokoro_core.protocol import Configure
from kokoro_core.speakable import language_of
from kokoro_core.voices import MAX_COMPONENTS, MAX_VOICE_CHARS, STEPS, Blend, VoiceError, parse_voice

VOICES = ("af_heart", "af_bella", "af_sky", "af_nova", "am_adam", "bf_emma", "bm_george", "jf_alpha")
EIGHT = ("af_heart", "af_bella", "af_sky", "af_nova", "af_alloy", "af_river", "am_adam", "am_echo")


def parsed(voice: str, voices: tuple[str, ...] = VOICES) -> Blend:
    return parse_voice(voice, voices)


@pytest.mark.parametrize(
    ("voice", "canonical"),
    [
        ("af_heart", "af_heart"),
        ("af_heart:0.7+af_bella:0.3", "af_heart:0.7+af_bella:0.3"),
        ("af_heart:7+af_bella:3", "af_heart:0.7+af_bella:0.3"),  # weights are relative
        ("af_heart+af_bella", "af_heart:0.5+af_bella:0.5"),  # a bare name weighs 1
        ("af_heart:3+af_bella", "af_heart:0.75+af_bella:0.25"),
        ("af_bella(2)+af_sky(1)", "af_bella:0.667+af_sky:0.333"),  # the other server's syntax
        ("af_bella(2)+af_sky:1", "af_bella:0.667+af_sky:0.333"),  # both in one blend
        (" af_heart : 1 + af_bella ( 3 ) ", "af_heart:0.25+af_bella:0.75"),  # spaces around each part
        ("af_sky:0.3+af_heart:0.7", "af_sky:0.3+af_heart:0.7"),  # the order given is kept
        ("af_heart:0.5", "af_heart"),  # one voice, whatever its weight, is the voice
        ("af_heart(1)", "af_heart"),
        ("af_heart+af_bella+af_sky", "af_heart:0.334+af_bella:0.333+af_sky:0.333"),  # the rounding goes first
    ],
)
def test_a_voice_or_blend_reads_to_its_canonical_form(voice: str, canonical: str) -> None:
    assert parsed(voice).canonical == canonical


def test_weights_are_thousandths_adding_up_to_exactly_one_and_the_canonical_form_reads_back_unchanged() -> None:
    for voice in (
        "af_heart+af_bella+af_sky",
        "af_heart:1+af_bella:1+af_sky:1+af_nova:1+am_adam:1+af_alloy:0.01",
        "af_heart:0.1234+af_bella:9.8765",
        "af_heart(1)+af_bella(2)+af_sky(4)",
        "+".join(EIGHT),  # eighths: 0.125 each
        "+".join(f"{name}:{index + 1}" for index, name in enumerate(EIGHT)),
    ):
        blend = parse_voice(voice, VOICES + EIGHT)
        assert sum(steps for _, steps in blend.parts) == STEPS
        assert sum(blend.weights) == pytest.approx(1.0, abs=1e-12)
        again = parse_voice(blend.canonical, VOICES + EIGHT)
        assert again == blend and again.canonical == blend.canonical


def test_the_rounding_stays_near_the_weights_given() -> None:
    blend = parsed("af_heart:1+af_bella:2+af_sky:4")
    for weight, exact in zip(blend.weights, (1 / 7, 2 / 7, 4 / 7), strict=True):
        assert abs(weight - exact) <= 1 / STEPS
    assert parse_voice("+".join(EIGHT), EIGHT).weights == (0.125,) * 8


def test_a_blend_speaks_its_voices_language_and_language_of_reads_it_so() -> None:
    for voice in ("af_heart+af_bella", "af_bella(2)+af_sky(1)", "bf_emma"):
        blend = parsed(voice)
        assert blend.language == language_of(blend.canonical) == language_of(blend.names[0])
    assert language_of(parsed("af_sky:0.2+af_heart:0.8").canonical) == "en-us"


@pytest.mark.parametrize(
    ("voice", "says"),
    [
        ("xx_nobody", ["voice 'xx_nobody' unknown", "choose one of: af_heart, af_bella", "(or a blend of them)"]),
        ("af_heart:0.5+af_nobody:0.5", ["voice 'af_nobody' in blend", "unknown", "choose one of: af_heart"]),
        ("af_heart+bf_emma", ["mixes languages", "af_heart (en-us), bf_emma (en-gb)", "one language"]),
        ("af_heart+am_adam+jf_alpha", ["mixes languages", "jf_alpha (ja)"]),
        ("af_heart:0+af_bella", ["weight '0'", "a weight is a positive number", "normalized to sum 1"]),
        ("af_heart:-0.3+af_bella", ["weight '-0.3'", "positive number"]),
        ("af_heart:nan+af_bella", ["weight 'nan'", "positive number"]),
        ("af_heart:inf+af_bella", ["weight 'inf'", "positive number"]),
        ("af_heart:1e3+af_bella", ["weight '1e3'", "positive number"]),
        ("af_heart:+af_bella", ["weight ''", "positive number"]),
        ("af_heart()+af_bella", ["weight ''", "positive number"]),
        ("af_heart:1:2", ["weight '1:2'"]),
        ("af_heart(2", ["voice 'af_heart(2' cannot be read", "af_heart:0.7+af_bella:0.3"]),
        ("af_heart+af_bella(2", ["blend component 'af_bella(2' of", "cannot be read"]),
        ("af_heart+", ["has an empty component", "af_heart:0.7+af_bella:0.3"]),
        ("+af_heart", ["has an empty component"]),
        ("af_heart++af_bella", ["has an empty component"]),
        ("   ", ["voice is empty"]),
        ("af_heart+af_heart", ["names voice 'af_heart' twice", "give each voice once"]),
        ("af_heart:1000+af_bella:0.4", ["'af_bella' weighs less than 1/1000", "leave it out or give it more weight"]),
        ("+".join(["af_heart"] * (MAX_COMPONENTS + 1)), [f"mixes {MAX_COMPONENTS + 1} voices", "at most 8"]),
        ("af_heart:" + "1" * MAX_VOICE_CHARS, [f"at most {MAX_VOICE_CHARS} are allowed"]),
    ],
)
def test_each_bad_voice_is_refused_saying_what_was_wrong_and_what_is_allowed(voice: str, says: list[str]) -> None:
    with pytest.raises(VoiceError) as refused:
        parsed(voice)
    for words in says:
        assert words in str(refused.value)


def test_the_limits_hold_exactly_at_their_bounds() -> None:
    assert len(parse_voice("+".join(EIGHT), EIGHT).parts) == MAX_COMPONENTS
    longest = "af_heart:" + "1" * (MAX_VOICE_CHARS - len("af_heart:"))
    assert len(longest) == MAX_VOICE_CHARS and parsed(longest).canonical == "af_heart"
    assert parsed("af_heart:999+af_bella:1").canonical == "af_heart:0.999+af_bella:0.001"


def test_a_long_hostile_voice_is_refused_at_once() -> None:
    # Bounded before any parsing: a megabyte of separators or parentheses costs one length check.
    for voice in ("+" * 1_000_000, "(" * 1_000_000, "af_heart:" + "9" * 1_000_000):
        with pytest.raises(VoiceError, match="at most 256 are allowed"):
            parsed(voice)


# resolve_options: what a configure, a speak or a POST body's voice becomes.


def resolved(**fields: object):
    return resolve_options(Configure.model_validate(fields), default_options("af_heart"), VOICES, frozenset())


def test_options_hold_a_blend_in_its_canonical_form() -> None:
    assert resolved(voice="af_bella(2)+af_sky(1)").voice == "af_bella:0.667+af_sky:0.333"
    assert resolved(voice="af_heart + af_bella").described()["voice"] == "af_heart:0.5+af_bella:0.5"
    assert resolved(voice="bf_emma:1").voice == "bf_emma"
    assert resolved(speed=1.5).voice == "af_heart"  # no voice given: the default stays


@pytest.mark.parametrize(
    ("voice", "words"),
    [
        ("xx_nobody", "voice 'xx_nobody' unknown; choose one of: af_heart"),
        ("af_heart+bf_emma", "mixes languages"),
        ("af_heart:0+af_bella", "a weight is a positive number"),
        ("+".join(EIGHT[:2] * 5), "mixes 10 voices"),
    ],
)
def test_options_refuse_a_bad_voice_as_unknown_voice(voice: str, words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        resolved(voice=voice, speed=1.5)
    assert refused.value.code == "unknown_voice" and words in refused.value.message
