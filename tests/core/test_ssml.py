"""The SSML parser: what each element becomes, what is refused and how, and that parsing stays linear."""

from __future__ import annotations

import re

import pytest

from kokoro_core.ssml import (
    MAX_BREAK_MS,
    MAX_DEPTH,
    MAX_ELEMENTS,
    MAX_PAUSE_MS,
    PARAGRAPH_PAUSE_MS,
    VOLUMES,
    Mark,
    Pause,
    ReadAs,
    SentenceEnd,
    SsmlError,
    Words,
    as_document,
    is_ssml,
    language_of_tag,
    parse_ssml,
    written_text,
)
from tests.scaling import assert_linear


def test_a_document_becomes_words_pauses_marks_and_sentence_ends() -> None:
    parts = parse_ssml(
        '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">'
        'Hello <break time="700ms"/> your code is <say-as interpret-as="characters">AB12</say-as>.'
        '<mark name="m1"/><prosody rate="slow">Slowly <sub alias="World Wide Web Consortium">W3C</sub></prosody>'
        "<p>One.</p><p>Two.</p></speak>"
    )
    english = "en-us"  # the root's xml:lang, which every piece of text inside it is read in
    assert parts == [
        Words("Hello ", language=english),
        Pause(700),
        Words(" your code is ", language=english),
        Words("AB12", read_as=ReadAs("say-as", "characters"), language=english),
        Words(".", language=english),
        Mark("m1"),
        Words("Slowly ", rate=0.8, language=english),
        Words("W3C", rate=0.8, read_as=ReadAs("sub", "World Wide Web Consortium"), language=english),
        SentenceEnd(),
        Words("One.", language=english),
        SentenceEnd(),
        Pause(PARAGRAPH_PAUSE_MS),  # between the paragraphs, not after the last
        Words("Two.", language=english),
        SentenceEnd(),
    ]
    assert written_text(parts) == "Hello your code is AB12. Slowly W3C One. Two."


def test_only_a_speak_document_or_an_explicit_flag_is_ssml() -> None:
    assert is_ssml("<speak>Hi</speak>")
    assert is_ssml('  <?xml version="1.0"?>\n<speak>Hi</speak>')
    assert is_ssml('<?xml version="1.0"?><!DOCTYPE speak [<!ENTITY a "b">]><speak>&a;</speak>')  # then refused
    assert not is_ssml("Use <b>bold</b> for emphasis.")  # plain text is never read as markup
    assert not is_ssml("<speak>Hi</speak>", asked=False)
    assert is_ssml("Hi <break/> there", asked=True)
    assert as_document("Hi <break/> there") == "<speak>Hi <break/> there</speak>"
    assert parse_ssml("Hi <break/> there") == [Words("Hi "), Pause(400), Words(" there")]
    assert parse_ssml("<p>A fragment.</p>") == [Words("A fragment."), SentenceEnd()]


@pytest.mark.parametrize(
    ("rate", "expected"),
    [("x-slow", 0.6), ("fast", 1.25), ("80%", 0.8), ("150%", 1.5), ("1.2", 1.2), ("+50%", 1.2), ("-50%", 0.4)],
)
def test_prosody_rate_keywords_percentages_and_relative_changes(rate: str, expected: float) -> None:
    parts = parse_ssml(f'<speak><prosody rate="slow"><prosody rate="{rate}">x</prosody></prosody></speak>')
    assert parts[0] == Words("x", rate=pytest.approx(expected))


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("<speak><foo/></speak>", "line 1, column 8: <foo> is not an element this server reads; it reads: speak, p"),
        ("<speak><break time='x'/></speak>", "<break time='x'> is not allowed; time may be: a duration"),
        ("<speak><break strength='loud'/></speak>", "strength may be: none, x-weak, weak, medium, strong, x-strong"),
        ("<speak><break time='11s'/></speak>", f"is longer than {MAX_BREAK_MS} ms"),
        ("<speak><break>text</break></speak>", "<break> is an empty element"),
        ("<speak>unclosed", "not well-formed XML: no element found"),
        ("<speak><s>unclosed</speak>", "not well-formed XML: mismatched tag: line 1, column 20"),
        ("<speak>a & b</speak>", "escape & and <"),
        ("<speak><say-as interpret-as='x'>1</say-as></speak>", "interpret-as may be: characters, spell-out"),
        ("<speak><say-as interpret-as='date' format='qq'>1</say-as></speak>", "format may be: mdy, dmy"),
        ("<speak><say-as>1</say-as></speak>", "interpret-as=''> is not allowed"),
        ("<speak><sub>W3C</sub></speak>", "<sub> needs an alias"),
        ("<speak><sub alias='x'><break/></sub></speak>", "<sub> holds only text, not <break>"),
        ("<speak><sub alias='x'></sub></speak>", "<sub> is empty"),
        ("<speak><phoneme ph='x' alphabet='sampa'>a</phoneme></speak>", "alphabet may be: ipa, x-kokoro"),
        ("<speak><mark/></speak>", "<mark> needs a name"),
        ("<speak><prosody rate='quick'>a</prosody></speak>", "rate may be: x-slow, slow"),
        ("<speak><prosody volume='50%'>a</prosody></speak>", "volume may be: silent, x-soft, soft, medium"),
        ("<speak><prosody volume='+15dB'><prosody volume='+6dB'>a</prosody></prosody></speak>", "-40dB to +20dB"),
        ("<speak><emphasis level='max'>a</emphasis></speak>", "level may be: strong, moderate"),
        ("<speak><s foo='1'>a</s></speak>", "<s> does not take the attribute 'foo'; it takes: xml:lang"),
        ("<speak><speak>a</speak></speak>", "<speak> is the document's root"),
        ("<speak><x:voice xmlns:x='urn:x'>a</x:voice></speak>", "<{urn:x}voice> is not an element"),
    ],
)
def test_a_document_it_does_not_read_is_refused_naming_what_and_what_is_allowed(document: str, expected: str) -> None:
    with pytest.raises(SsmlError) as refused:
        parse_ssml(document)
    assert expected in str(refused.value)


def test_entities_and_dtds_are_refused_so_no_expansion_bomb_can_run() -> None:
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    bomb = f'<?xml version="1.0"?><!DOCTYPE speak [<!ENTITY l0 "ha">{laughs}]><speak>&l9;</speak>'
    external = '<?xml version="1.0"?><!DOCTYPE speak [<!ENTITY x SYSTEM "file:///etc/passwd">]><speak>&x;</speak>'
    for document in (bomb, external):
        with pytest.raises(SsmlError, match="DTD or an entity"):
            parse_ssml(document)


def test_hostile_documents_are_refused_at_the_first_limit_passed() -> None:
    nested = "<speak>" + "<prosody rate='fast'>" * 10_000 + "x" + "</prosody>" * 10_000 + "</speak>"
    with pytest.raises(SsmlError, match=f"at most {MAX_DEPTH} are allowed"):
        parse_ssml(nested)
    breaks = "<speak>" + "<break time='1ms'/>" * 6000 + "</speak>"  # about 100 KB
    with pytest.raises(SsmlError, match=f"over {MAX_ELEMENTS} elements"):
        parse_ssml(breaks)
    long_pauses = "<speak>" + "<break time='10s'/>a" * 7 + "</speak>"
    with pytest.raises(SsmlError, match=f"over {MAX_PAUSE_MS // 1000} s"):
        parse_ssml(long_pauses)


def test_parsing_is_linear_in_the_document() -> None:
    """Eight times the text takes about eight times as long, never sixty-four."""
    piece = "Your order <say-as interpret-as='digits'>58</say-as> ships &amp; arrives soon. <break time='1ms'/>"

    small, large = ("<speak>" + piece * count + "</speak>" for count in (100, 800))
    assert_linear(parse_ssml, small, large, 8)


def test_paragraph_pauses_do_not_count_toward_the_break_limit_and_schema_attributes_are_accepted() -> None:
    parts = parse_ssml("<speak>" + "<p>Item one is here.</p>" * 160 + "</speak>")  # 159 pauses of 400 ms
    assert sum(part.ms for part in parts if isinstance(part, Pause)) == 159 * PARAGRAPH_PAUSE_MS
    document = (
        '<speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="a b">Hi</speak>'
    )
    assert parse_ssml(document) == [Words("Hi")]
    with pytest.raises(SsmlError, match="a change that leaves a rate above zero"):
        parse_ssml("<speak><prosody rate='-100%'>a</prosody></speak>")


def test_prosody_volume_in_db_is_relative_to_the_enclosing_one_and_named_levels_set_it() -> None:
    document = (
        '<speak>a <prosody volume="+6dB">b <prosody volume="-2.5dB">c</prosody>'
        '<prosody volume="x-soft">d <prosody volume="+3dB">e</prosody></prosody></prosody>'
        '<prosody volume="silent">f <prosody volume="+6dB">g</prosody></prosody></speak>'
    )
    volumes = {part.written.strip(): part.volume_db for part in parse_ssml(document) if isinstance(part, Words)}
    assert volumes == {"a": 0.0, "b": 6.0, "c": 3.5, "d": -12.0, "e": -9.0, "f": float("-inf"), "g": float("-inf")}
    levels = [VOLUMES[name] for name in ("x-soft", "soft", "medium", "loud", "x-loud")]
    assert levels == sorted(set(levels))


def test_xml_lang_and_lang_set_the_language_each_piece_is_read_in_inherited_and_nested() -> None:
    parts = parse_ssml(
        '<speak>Your booking at <lang xml:lang="fr-FR">Hôtel <say-as interpret-as="cardinal">12</say-as></lang>. '
        '<s xml:lang="es-MX">Gracias, <lang xml:lang="en">thanks</lang> señora.</s>'
        '<p xml:lang="zh-Hans-CN">王小明</p></speak>'
    )
    assert [(part.written, part.language) for part in parts if isinstance(part, Words)] == [
        ("Your booking at ", None),
        ("Hôtel ", "fr-fr"),
        ("12", "fr-fr"),
        (". ", None),
        ("Gracias, ", "es"),
        ("thanks", "en-us"),
        (" señora.", "es"),
        ("王小明", "cmn"),
    ]
    assert written_text(parts) == "Your booking at Hôtel 12. Gracias, thanks señora. 王小明"


@pytest.mark.parametrize(
    ("tag", "language"),
    [("en-GB", "en-gb"), ("EN-us", "en-us"), ("en-AU", "en-us"), ("fr", "fr-fr"), ("fr-CA", "fr-fr"),
     ("pt-PT", "pt-br"), ("pt_BR", "pt-br"), ("zh-Hant-TW", "cmn"), ("ja-JP", "ja"), ("hi-IN", "hi"),
     ("de-DE", None), ("ko", None), ("", None), ("fr FR", None), ("x" * 40, None)],
)  # fmt: skip
def test_a_language_tag_names_a_reader_by_its_language_and_region(tag: str, language: str | None) -> None:
    assert language_of_tag(tag) == language


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ('<speak><lang xml:lang="de-DE">Guten Tag</lang></speak>', "a language a reader exists for: en-US"),
        ('<speak xml:lang="klingon">Qapla</speak>', "<speak xml:lang='klingon'> is not allowed"),
        ("<speak><lang>oui</lang></speak>", "<lang> needs an xml:lang naming its language"),
        ('<speak><lang xml:lang="fr" voice="ff_siwis">oui</lang></speak>', "<lang> does not take the attribute"),
    ],
)  # fmt: skip
def test_a_language_no_reader_reads_is_refused_naming_the_ones_there_are(document: str, expected: str) -> None:
    with pytest.raises(SsmlError, match=re.escape(expected)):
        parse_ssml(document)
