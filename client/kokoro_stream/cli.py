"""The `kokoro-stream` command line: ``say`` here; the server (``serve``, ``normalize``) and the tools
(``demo``, ``bench``, ``cache push``) add their commands where they are installed, through the
``kokoro_stream.commands`` entry point group."""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .cli_options import CaFileOption, EndpointUrlOption, RegionOption, endpoint_from_options

if TYPE_CHECKING:
    from .say import Spoken
    from .transport import Transport

app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False)


# A callback keeps `say` a subcommand when it is the only one (the client installed alone); its
# docstring is the program's help.
@app.callback()
def commands() -> None:
    """Low-latency Kokoro-82M speech for voice agents on Amazon SageMaker AI."""


@app.command("say")
def say(
    text: Annotated[str, typer.Argument(help="The text to speak; '-' reads standard input.")] = "-",
    url: Annotated[
        str, typer.Option(help="WebSocket URL of a server speaking the protocol (ignored with --endpoint).")
    ] = "ws://127.0.0.1:8080/invocations-bidirectional-stream",
    endpoint: Annotated[str | None, typer.Option(help="SageMaker endpoint name (stack output EndpointName).")] = None,
    region: RegionOption = None,
    endpoint_url: EndpointUrlOption = None,
    ca_file: CaFileOption = None,
    transport: Annotated[
        str, typer.Option(help="With --endpoint: 'bidi' (one session) or 'post' (per sentence).")
    ] = "bidi",
    voice: Annotated[
        str | None,
        typer.Option(help="Voice, e.g. af_heart, am_michael, bf_emma, or a blend: af_heart:0.7+af_bella:0.3."),
    ] = None,
    speed: Annotated[float | None, typer.Option(help="0.5 to 2.0.")] = None,
    format: Annotated[str, typer.Option(help="pcm16 (written as WAV) or mulaw (raw 8 kHz G.711).")] = "pcm16",
    normalize: Annotated[
        bool, typer.Option(help="Say amounts, dates, times and codes in words (--no-normalize: as espeak reads them).")
    ] = True,
    out: Annotated[Path, typer.Option(help="Where to write the audio.")] = Path("say.wav"),
    captions: Annotated[
        Path | None, typer.Option(help="Also write subtitles timed to the audio, from word marks: a .srt or .vtt file.")
    ] = None,
    tokens_per_second: Annotated[
        float | None, typer.Option(help="Replay the text as a simulated LLM stream at this rate.")
    ] = None,
) -> None:
    """Speak TEXT through a server or an endpoint; print time to first audio and total; write the audio."""
    import asyncio

    from kokoro_core.errors import ProtocolError

    from .say import speak, write_audio
    from .speaker import Speaker
    from .transport import SpeechError

    if text == "-":
        text = sys.stdin.read()
    if not text.strip():
        raise typer.BadParameter("nothing to say: give TEXT or pipe it in", param_hint="TEXT")
    if format not in ("pcm16", "mulaw"):
        raise typer.BadParameter(f"{format!r}: choose pcm16 or mulaw", param_hint="--format")
    if captions is not None and captions.suffix.lower() not in (".srt", ".vtt"):
        raise typer.BadParameter(f"{captions.name}: give a .srt or .vtt file", param_hint="--captions")

    async def run() -> Spoken:
        speaker = Speaker(
            _transport(url, endpoint, region, transport, endpoint_url, ca_file),
            voice=voice,
            speed=speed,
            format=format,
            normalize=None if normalize else False,
            marks=captions is not None,
        )
        async with speaker as s:
            return await speak(s, text, tokens_per_second)

    try:
        spoken = asyncio.run(run())
    except ProtocolError as error:  # a setting no server takes
        raise typer.BadParameter(error.message) from None
    except SpeechError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    write_audio(spoken.audio, spoken.format, spoken.sample_rate, out)
    typer.echo(
        f"time to first audio {spoken.first_audio_s * 1000:.0f} ms, total {spoken.total_s:.2f} s, "
        f"{spoken.audio_s:.2f} s of audio in {spoken.sentences} sentence(s) → {out}"
    )
    if captions is not None:
        from .captions import write_captions

        cues = write_captions(spoken.words, captions)
        typer.echo(f"{cues} caption(s) → {captions}")


def _transport(
    url: str, endpoint: str | None, region: str | None, kind: str, endpoint_url: str | None, ca_file: Path | None
) -> Transport:
    if endpoint is None:
        from .websocket_transport import WebSocketTransport

        return WebSocketTransport(url)
    address = endpoint_from_options(endpoint, region, endpoint_url, ca_file)
    if kind == "bidi":
        return address.bidi()
    if kind == "post":
        return address.post()
    raise typer.BadParameter(f"{kind!r}: choose bidi or post", param_hint="--transport")


def _add_installed_commands(app: typer.Typer) -> None:
    for entry in sorted(entry_points(group="kokoro_stream.commands"), key=lambda entry: entry.name):
        try:
            register = entry.load()
        except ImportError as error:  # a package installed without what it needs: `say` still works
            print(f"kokoro-stream: the {entry.name} commands are unavailable ({error})", file=sys.stderr)
            continue
        register(app)


_add_installed_commands(app)


def main() -> None:
    app()
