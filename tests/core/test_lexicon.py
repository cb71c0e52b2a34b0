"""Pronunciations for names and brands: parsing with clear errors, matching whole words, and the
normalizer reading the rest of the sentence as it would without them."""

from __future__ import annotations

import json

import aiohttp
import pytest
from kokoro_onnx.config import DEFAULT_VOCAB

from kokoro_core.lexicon import MAX_ENTRIES, Lexicon, LexiconError, load_lexicon, parse_lexicon
from kokoro_server.text.reading import VoiceReading, said_phonemes, said_shown
from tests.local_server import start_server
from tests.speech import connect, receive, run, speak_and_collect

SYMBOLS = frozenset(DEFAULT_VOCAB)
LEXICON = parse_lexicon({"Nguyen": "/wˈɪn/", "SageMaker": "sage maker", "Kokoro": "/kəkˈɔːɹoʊ/"}, SYMBOLS)


def said(text: str, lexicon: Lexicon = LEXICON) -> str:
    return said_shown(text, "en-us", True, lexicon)


def test_respellings_are_read_as_text_and_phonemes_are_kept_as_written() -> None:
    assert said("Deploy Kokoro on SageMaker.") == "Deploy /kəkˈɔːɹoʊ/ on sage maker."
    phonemes = said_phonemes("Ask Nguyen.", "en-us", lambda text, language: f"<{text.strip()}>", lexicon=LEXICON)
    assert phonemes == "<Ask> wˈɪn <.>"


def test_entries_match_whole_words_as_written() -> None:
    assert said("Nguyen's team, the Nguyens, and nguyen.") == "/wˈɪn/'s team, the Nguyens, and nguyen."
    assert said("SageMakerStudio and SageMaker-based") == "SageMakerStudio and sage maker-based"


def test_the_normalizer_reads_the_rest_of_the_sentence_in_the_same_context() -> None:
    # "Mr." before a capitalized name is a title, not the end of a sentence; "$5" is still money.
    assert said("Mr. Nguyen owes $5.") == "Mister /wˈɪn/ owes five dollars."
    assert said("Mr. Nguyen owes $5.", Lexicon()) == "Mister Nguyen owes five dollars."


def test_a_sessions_entries_are_added_to_the_server_wide_ones_and_win() -> None:
    session = parse_lexicon({"Kokoro": "koh koh roh", "Strands": "strands"}, SYMBOLS)
    merged = LEXICON.with_entries(session)
    assert len(merged) == 4
    assert said("Kokoro and Nguyen", merged) == "koh koh roh and /wˈɪn/"


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        (["Kokoro"], "must be an object"),
        ({"": "x"}, "is invalid; give 1 to 64 characters"),
        ({" Kokoro": "x"}, "without surrounding spaces"),
        ({"Kokoro": ""}, "give a respelling or /phonemes/"),
        ({"Kokoro": 7}, "give a respelling or /phonemes/"),
        ({"Kokoro": "/"}, "give a respelling or /phonemes/"),
        ({"Kokoro": "/kəkˈɔːɹoʊ"}, "between two slashes"),
        ({"Kokoro": "x" * 201}, "1 to 200 characters"),
        ({"Kokoro": "/kə€kˈɔː7/"}, "'7 €' are not in the model's set"),
        ({f"w{i}": "word" for i in range(MAX_ENTRIES + 1)}, f"at most {MAX_ENTRIES}"),
    ],
)
def test_invalid_lexicons_are_refused_saying_what_is_wrong(value: object, complaint: str) -> None:
    with pytest.raises(LexiconError, match=None) as error:
        parse_lexicon(value, SYMBOLS)
    assert complaint in str(error.value)


def test_a_lexicon_file_names_itself_in_its_errors(tmp_path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps({"Nguyen": "/wˈɪn/"}), encoding="utf-8")
    bad.write_text('{"Nguyen": ', encoding="utf-8")
    assert load_lexicon(good, SYMBOLS).entries == (("Nguyen", "/wˈɪn/"),)
    with pytest.raises(LexiconError, match=f"lexicon file {bad}"):
        load_lexicon(bad, SYMBOLS)
    with pytest.raises(LexiconError, match="lexicon file .*missing.json"):
        load_lexicon(tmp_path / "missing.json", SYMBOLS)


# -- in the real engine and server ------------------------------------------------------------

RESPELLED = {"ACME": "the incredibly long and winding name of our company"}


def test_the_engine_says_a_lexicons_phonemes_and_respellings(engine) -> None:
    phonemes = engine.phonemize(
        "Ask Nguyen about Kokoro on SageMaker.", "af_heart", VoiceReading.of("af_heart", lexicon=LEXICON)
    )
    assert "wˈɪn" in phonemes and "kəkˈɔːɹoʊ" in phonemes and "mˈeɪkɚ" in phonemes
    assert "wˈɪn" not in engine.phonemize("Ask Nguyen.", "af_heart")
    respelled = parse_lexicon(RESPELLED, engine.phoneme_symbols)
    assert len(
        engine.synthesize("ACME.", "af_heart", reading=VoiceReading.of("af_heart", lexicon=respelled)).audio
    ) > 2 * len(engine.synthesize("ACME.", "af_heart").audio)


def test_a_session_configures_its_lexicon_and_a_bad_one_leaves_the_session_as_it_was(server, idle_after) -> None:
    async def scenario():
        async with aiohttp.ClientSession() as session:
            ws = await connect(session, server.ws_url)
            plain = await speak_and_collect(ws, "ACME.", "plain")
            await ws.send_json({"type": "configure", "lexicon": RESPELLED})
            configured = (await receive(ws)).message
            await ws.send_json({"type": "configure", "lexicon": {"ACME": "/ˈæk€mi/"}})
            refused = (await receive(ws)).message
            respelled = await speak_and_collect(ws, "ACME.", "respelled")
            once = await speak_and_collect(ws, "ACME.", "once", lexicon={"ACME": "acme"})
            await ws.close()
            return plain, configured, refused, respelled, once

    plain, configured, refused, respelled, once = run(scenario())
    assert configured["type"] == "configured" and configured["lexicon_entries"] == 1
    assert refused["code"] == "invalid_lexicon" and "'€'" in refused["message"]
    assert len(respelled) > 2 * len(plain)  # the session's respelling, after the refused configure
    assert len(once) < len(respelled) / 2  # a speak's own entry wins for that utterance


def test_a_post_takes_a_lexicon(server) -> None:
    async def post(body):
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{server.url}/invocations", json=body) as response:
                return response.status, await response.read()

    plain = run(post({"text": "ACME."}))
    respelled = run(post({"text": "ACME.", "lexicon": RESPELLED}))
    assert plain[0] == respelled[0] == 200 and len(respelled[1]) > 2 * len(plain[1])


def test_a_server_wide_lexicon_comes_from_the_model_directory(embedded_model_dir, tmp_path) -> None:
    model = tmp_path / "model"
    for path in embedded_model_dir.rglob("*"):
        if path.is_file():
            (model / path.relative_to(embedded_model_dir)).parent.mkdir(parents=True, exist_ok=True)
            (model / path.relative_to(embedded_model_dir)).symlink_to(path)
    (model / "lexicon.json").write_text(json.dumps(RESPELLED), encoding="utf-8")
    running = start_server(model, workers=1)
    try:

        async def scenario():
            async with aiohttp.ClientSession() as session:
                ws = await connect(session, running.ws_url)
                await ws.send_json({"type": "configure", "lexicon": {"Nguyen": "/wˈɪn/"}})
                configured = (await receive(ws)).message
                server_wide = await speak_and_collect(ws, "ACME.", "a")
                await ws.close()
                return configured, server_wide

        configured, server_wide = run(scenario())
    finally:
        running.stop()
    assert configured["lexicon_entries"] == 2  # the server's entry and the session's
    assert len(server_wide) / 48000 > 2.0  # "the incredibly long and winding name...", not "ACME"
