"""`kokoro-stream say` and `kokoro-stream demo` against a real local server."""

from __future__ import annotations

import wave

from typer.testing import CliRunner

from kokoro_stream.cli import app
from kokoro_stream.say import llm_tokens
from kokoro_tools.demo import run_demo
from tests.pacing import synthesis_seconds, tokens_per_second_to_outlast
from tests.speech import plausible_duration


def test_say_writes_a_wav_and_reports_time_to_first_audio(server, idle_after, tmp_path):
    out = tmp_path / "said.wav"
    text = "Hello from the command line. It streams."
    result = CliRunner().invoke(app, ["say", text, "--url", server.ws_url, "--out", str(out), "--voice", "bf_emma"])
    assert result.exit_code == 0, result.output
    assert "time to first audio" in result.output and "2 sentence(s)" in result.output
    with wave.open(str(out)) as reader:
        assert reader.getframerate() == 24000
        assert plausible_duration(text, reader.getnframes() / 24000)


def test_say_reads_stdin_and_replays_it_as_a_token_stream(server, idle_after, tmp_path):
    out = tmp_path / "ivr.ulaw"
    args = ["say", "-", "--url", server.ws_url, "--out", str(out), "--format", "mulaw", "--tokens-per-second", "50"]
    result = CliRunner().invoke(app, args, input="Press one for sales.")
    assert result.exit_code == 0, result.output
    assert plausible_duration("Press one for sales.", len(out.read_bytes()) / 8000)


def test_say_speaks_amounts_in_words_unless_told_not_to(server, idle_after, tmp_path):
    text = "Your total is $1,284.50."
    frames = {}
    for flag in ("--normalize", "--no-normalize"):
        out = tmp_path / f"{flag}.wav"
        result = CliRunner().invoke(app, ["say", text, "--url", server.ws_url, "--out", str(out), flag])
        assert result.exit_code == 0, result.output
        with wave.open(str(out)) as reader:
            frames[flag] = reader.readframes(reader.getnframes())
    # In words ("... dollars and fifty cents") the amount takes longer than espeak's "dollar ... fifty".
    assert len(frames["--normalize"]) > len(frames["--no-normalize"])


def test_say_reports_a_server_error_and_exits_1(server, idle_after, tmp_path):
    result = CliRunner().invoke(app, ["say", "Hi.", "--url", server.ws_url, "--voice", "nobody"])
    assert result.exit_code == 1 and "unknown_voice" in result.output


def test_demo_streaming_starts_speaking_before_the_reply_is_written(server, embedded_model_dir, tmp_path):
    first, rest = "Sure, here it is.", " The first part is short. The second part follows it right away."
    text = first + rest
    # Paced from this machine: the rest of the reply takes far longer to arrive than the first sentence to speak.
    rate = tokens_per_second_to_outlast(synthesis_seconds(server.ws_url, first), rest, ceiling=10)
    result = run_demo(tmp_path / "demo.wav", tokens_per_second=rate, text=text, model_dir=embedded_model_dir)
    generation_s = len(llm_tokens(text)) / rate
    assert result.streaming.first_audio_s < generation_s < result.waiting.first_audio_s
    assert abs(len(result.streaming.audio) - len(result.waiting.audio)) < 0.1 * len(result.waiting.audio)
    with wave.open(str(tmp_path / "demo.wav")) as reader:
        assert plausible_duration(text, reader.getnframes() / 24000)


def test_llm_tokens_join_back_to_the_text():
    text = "  Hello,  world!\n\nA longer word: internationalization.  "
    assert "".join(llm_tokens(text)) == text
    assert max(len(token.strip()) for token in llm_tokens(text)) <= 4
