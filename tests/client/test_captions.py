"""Captions from word marks: cue rules, and `kokoro-stream say --captions` end to end against a real
server on the fake engine, whose marks are exact; the files are read back with the subtitle library."""

from __future__ import annotations

import wave
from pathlib import Path

import pysubs2
import pytest
from typer.testing import CliRunner

from kokoro_core.server_messages import Word
from kokoro_stream.captions import LINE_CHARS, TimedText, cues, reply_words, write_captions
from kokoro_stream.cli import app
from kokoro_stream.reply import AudioChunk
from tests.fake_server import fake_server

TEXT = (
    "Sure, your refund of $42.97 is on its way. It should reach your card within 3 to 5 business days, "
    "depending on your bank and on how quickly it posts refunds to accounts like yours. Anything else?"
)


def test_reply_words_are_timed_from_the_replys_first_sample() -> None:
    first = Word(text="Hello.", start_ms=50, end_ms=400)
    second = Word(text="Bye.", start_ms=40, end_ms=300)
    chunks = [
        AudioChunk("s1", "Hello.", b"\0" * 48_000, "pcm16", 24000, (first,)),  # 1000 ms
        AudioChunk("s1", "Hello.", b"\0" * 24_000, "pcm16", 24000),  # 500 ms more of the same sentence
        AudioChunk("s2", "Bye.", b"\0" * 24_000, "pcm16", 24000, (second,)),
    ]
    assert reply_words(chunks) == [TimedText("Hello.", 50, 400), TimedText("Bye.", 1540, 1800)]


def test_cues_end_at_sentences_pauses_and_length_and_wrap_to_two_lines() -> None:
    words = [TimedText(w, 300 * i, 300 * i + 250) for i, w in enumerate("One two three. Four five".split())]
    words.append(TimedText("six.", 5000, 5300))  # after a long pause
    words += [TimedText("word", 6000 + 300 * i, 6000 + 300 * i + 250) for i in range(30)]
    timed = cues(words)
    assert [cue.text for cue in timed[:3]] == ["One two three.", "Four five", "six."]
    assert (timed[0].start_ms, timed[0].end_ms) == (0, 850)
    long_cues = timed[3:]
    assert all(cue.text.count("\n") <= 1 and cue.end_ms - cue.start_ms <= 6000 for cue in long_cues)
    assert all(max(len(line) for line in cue.text.split("\n")) <= LINE_CHARS for cue in long_cues)
    assert any("\n" in cue.text for cue in long_cues)
    assert " ".join(cue.text.replace("\n", " ") for cue in long_cues) == " ".join(["word"] * 30)


def test_text_is_kept_as_written_and_escaped_where_the_format_is_markup(tmp_path: Path) -> None:
    words = [TimedText("Type", 0, 200), TimedText("{name}", 250, 600), TimedText("<b>&", 650, 900)]
    write_captions(words, tmp_path / "out.srt")
    write_captions(words, tmp_path / "out.vtt")
    assert "Type {name} <b>&" in (tmp_path / "out.srt").read_text()
    assert "Type {name} &lt;b&gt;&amp;" in (tmp_path / "out.vtt").read_text()


def test_only_srt_or_vtt_is_written(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.srt or \.vtt"):
        write_captions([TimedText("Hi.", 0, 100)], tmp_path / "out.txt")


@pytest.mark.parametrize("suffix", [".srt", ".vtt"])
def test_say_writes_captions_timed_to_its_audio(tmp_path: Path, suffix: str) -> None:
    out, captions = tmp_path / "say.wav", tmp_path / f"say{suffix}"
    with fake_server() as (server, _):
        result = CliRunner().invoke(
            app, ["say", TEXT, "--url", server.ws_url, "--out", str(out), "--captions", str(captions)]
        )
    assert result.exit_code == 0, result.output
    assert f"→ {captions}" in result.output
    with wave.open(str(out)) as audio:
        audio_ms = 1000 * audio.getnframes() / audio.getframerate()
    subtitles = pysubs2.load(str(captions))
    assert len(subtitles) >= 4
    spoken = " ".join(event.plaintext.replace("\n", " ") for event in subtitles)
    assert spoken == TEXT
    assert all(a.end <= b.start for a, b in zip(subtitles, subtitles[1:], strict=False))
    assert subtitles[0].start >= 0 and abs(subtitles[-1].end - audio_ms) <= 25
    assert subtitles[0].plaintext.endswith("on its way.")  # a cue ends at the sentence's end


def test_say_refuses_a_captions_file_of_another_kind(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["say", "Hi.", "--captions", str(tmp_path / "out.txt")])
    assert result.exit_code == 2 and ".srt or .vtt" in result.output
