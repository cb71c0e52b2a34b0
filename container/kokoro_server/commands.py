"""The server's commands of ``kokoro-stream``: ``serve``, ``normalize`` and ``model check`` (registered through
the ``kokoro_stream.commands`` entry point, so they appear wherever the server is installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

model_app = typer.Typer(help="Model directory tools: what the server will make of a model.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("normalize")(normalize_text)
    app.add_typer(model_app, name="model")


@model_app.command("check")
def model_check(
    directory: Annotated[
        Path, typer.Argument(exists=True, file_okay=False, help="Model directory (model-cache layout, manifest.json).")
    ],
    device: Annotated[
        str | None,
        typer.Option(help="auto, cpu or cuda: where to load it (default: KOKORO_DEVICE, else auto)."),
    ] = None,
) -> None:
    """Load DIRECTORY as the server would: its interface, where it runs, what the GPU image's CUDA provider lacks;
    then speak one sentence and check its word marks. Exit 1 if the server could not use it (2 for a file that
    fails verification). KOKORO_* settings apply, as they do to serve."""
    check_loaded_model(directory, device)


def check_loaded_model(directory: Path, device: str | None = None) -> None:
    """``model check``'s work, for the commands that run it first (``cache push``); exits 1 on a problem."""
    from pydantic import ValidationError

    from kokoro_core.model_cache import ModelCacheError
    from kokoro_server.engine.model_check import check_model
    from kokoro_server.settings import SettingsError, settings_from_env

    try:  # the server's settings from the environment (KOKORO_*), as serve reads them
        settings = settings_from_env(device=device) if device else settings_from_env()
    except (SettingsError, ValidationError) as error:
        raise typer.BadParameter(str(error), param_hint="--device or KOKORO_*") from None
    try:
        report = check_model(directory, settings)
    except ModelCacheError as error:
        raise typer.BadParameter(str(error), param_hint="DIRECTORY") from None
    except Exception as error:  # whatever would stop the server's start stops the check, and says why
        typer.echo(f"error: the server could not use {directory}: {type(error).__name__}: {error}", err=True)
        raise typer.Exit(1) from None
    for line in report.lines():
        typer.echo(line)
    if report.problems:
        raise typer.Exit(1)


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
