"""The server's commands of ``kokoro-stream``: ``serve`` and ``normalize`` (registered through the
``kokoro_stream.commands`` entry point, so they appear wherever the server is installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("normalize")(normalize_text)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on; 0.0.0.0 to accept other machines.")] = "127.0.0.1",
    port: Annotated[int | None, typer.Option(help="Port to listen on (default 8080).")] = None,
    model_dir: Annotated[
        Path | None,
        typer.Option(
            exists=True, file_okay=False, help="Model cache folder; default: the embedded int8 Kokoro-82M, built once."
        ),
    ] = None,
) -> None:
    """Run the speech server locally: /ping, POST /invocations, WS /invocations-bidirectional-stream."""
    from kokoro_core.loopback import exposure_warning
    from kokoro_server.serving.server import run_server

    if warning := exposure_warning(host, "the speech server, which asks no credentials"):
        typer.echo(warning, err=True)
    raise typer.Exit(run_server(host, port, model_dir))


def normalize_text(
    text: Annotated[str, typer.Argument(help="The text; '-' reads standard input, one line at a time.")] = "-",
    voice: Annotated[str, typer.Option(help="Voice: its language decides (a…: American, b…: British).")] = "af_heart",
    phonemes: Annotated[bool, typer.Option("--phonemes", help="Print the phonemes the voice will say.")] = False,
    lexicon: Annotated[
        Path | None, typer.Option(help="A lexicon JSON file of pronunciations to apply first, as the server does.")
    ] = None,
) -> None:
    """Print, for each input line, one line: the text as the server will say it (or its phonemes).

    A lexicon's phonemes show between slashes, a span read by another language's reader as [cmn: 王小明].
    """
    import sys

    from kokoro_onnx.config import DEFAULT_VOCAB
    from kokoro_onnx.tokenizer import Tokenizer

    from kokoro_core.lexicon import Lexicon, LexiconError, load_lexicon
    from kokoro_core.speakable import language_of
    from kokoro_server.text.foreign import labeled
    from kokoro_server.text.g2p import G2P
    from kokoro_server.text.reading import said_phonemes, said_shown

    try:
        pronunciations = load_lexicon(lexicon, DEFAULT_VOCAB) if lexicon else Lexicon()
    except LexiconError as error:
        raise typer.BadParameter(str(error), param_hint="--lexicon") from None
    language = language_of(voice)
    g2p = G2P((tokenizer := Tokenizer()).phonemize, frozenset(tokenizer.vocab)) if phonemes else None
    lines = sys.stdin.read().splitlines() if text == "-" else text.splitlines() or [""]
    for line in lines:
        if g2p:
            typer.echo(said_phonemes(line, language, g2p, lexicon=pronunciations))
        else:
            typer.echo(labeled(said_shown(line, language, lexicon=pronunciations)))
