"""The `kokoro-stream` command line."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kokoro_server.model_cache import ModelCacheError

app = typer.Typer(
    help="Low-latency Kokoro-82M speech for voice agents on Amazon SageMaker AI.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
cache_app = typer.Typer(
    help="Model cache tools (the S3 layout the endpoint loads its model from).", no_args_is_help=True
)
app.add_typer(cache_app, name="cache")


@cache_app.command("push")
def cache_push(
    directory: Annotated[
        Path, typer.Argument(exists=True, file_okay=False, help="Local model directory with manifest.json.")
    ],
    bucket: Annotated[str, typer.Option(help="The model cache bucket (stack output BucketName).")],
    prefix: Annotated[
        str | None,
        typer.Option(help="S3 prefix; default: derived from the manifest's source, as the stacks derive it."),
    ] = None,
    region: Annotated[str | None, typer.Option(help="AWS region of the bucket.")] = None,
) -> None:
    """Verify DIRECTORY against its manifest, upload what is missing, then write the manifest."""
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    from .cache_push import push

    try:
        result = push(directory, boto3.client("s3", region_name=region), bucket, prefix)
    except ModelCacheError as error:
        raise typer.BadParameter(str(error), param_hint="DIRECTORY") from None
    except (BotoCoreError, ClientError) as error:
        typer.echo(f"error: S3 upload to s3://{bucket} failed: {error}", err=True)
        raise typer.Exit(1) from None
    if result.already_complete:
        typer.echo(f"{result.url} already holds this model; nothing to upload")
    else:
        typer.echo(f"{result.url}: uploaded {len(result.uploaded)} file(s), kept {len(result.kept)}, manifest written")
    typer.echo(
        f"deploy with: npx cdk deploy --all -c populate_model_cache=false -c model_prefix={result.url.split('/', 3)[3]}"
    )


@app.command("serve")
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
    from kokoro_server.server import run_server

    raise typer.Exit(run_server(host, port, model_dir))


@app.command("normalize")
def normalize_text(
    text: Annotated[str, typer.Argument(help="The text; '-' reads standard input, one line at a time.")] = "-",
    voice: Annotated[str, typer.Option(help="Voice: its language decides (a…: American, b…: British).")] = "af_heart",
    phonemes: Annotated[bool, typer.Option("--phonemes", help="Print the phonemes the voice will say.")] = False,
    lexicon: Annotated[
        Path | None, typer.Option(help="A lexicon JSON file of pronunciations to apply first, as the server does.")
    ] = None,
) -> None:
    """Print, for each input line, one line: the text as the server will say it (or its phonemes).

    A lexicon's phonemes show between slashes.
    """
    import sys

    from kokoro_onnx.config import DEFAULT_VOCAB
    from kokoro_onnx.tokenizer import Tokenizer

    from kokoro_server.engine import language_of
    from kokoro_server.lexicon import Lexicon, LexiconError, load_lexicon
    from kokoro_server.text import said_phonemes, said_shown

    try:
        pronunciations = load_lexicon(lexicon, DEFAULT_VOCAB) if lexicon else Lexicon()
    except LexiconError as error:
        raise typer.BadParameter(str(error), param_hint="--lexicon") from None
    language = language_of(voice)
    tokenizer = Tokenizer() if phonemes else None
    lines = sys.stdin.read().splitlines() if text == "-" else text.splitlines() or [""]
    for line in lines:
        if tokenizer:
            typer.echo(said_phonemes(line, language, tokenizer.phonemize, lexicon=pronunciations))
        else:
            typer.echo(said_shown(line, language, lexicon=pronunciations))


@app.command("say")
def say(
    text: Annotated[str, typer.Argument(help="The text to speak; '-' reads standard input.")] = "-",
    url: Annotated[
        str, typer.Option(help="WebSocket URL of a server speaking the protocol (ignored with --endpoint).")
    ] = "ws://127.0.0.1:8080/invocations-bidirectional-stream",
    endpoint: Annotated[str | None, typer.Option(help="SageMaker endpoint name (stack output EndpointName).")] = None,
    region: Annotated[str | None, typer.Option(help="AWS region of the endpoint.")] = None,
    transport: Annotated[
        str, typer.Option(help="With --endpoint: 'bidi' (one session) or 'post' (per sentence).")
    ] = "bidi",
    voice: Annotated[str | None, typer.Option(help="Voice, e.g. af_heart, am_michael, bf_emma.")] = None,
    speed: Annotated[float | None, typer.Option(help="0.5 to 2.0.")] = None,
    format: Annotated[str, typer.Option(help="pcm16 (written as WAV) or mulaw (raw 8 kHz G.711).")] = "pcm16",
    normalize: Annotated[
        bool, typer.Option(help="Say amounts, dates, times and codes in words (--no-normalize: as espeak reads them).")
    ] = True,
    out: Annotated[Path, typer.Option(help="Where to write the audio.")] = Path("say.wav"),
    tokens_per_second: Annotated[
        float | None, typer.Option(help="Replay the text as a simulated LLM stream at this rate.")
    ] = None,
) -> None:
    """Speak TEXT through a server or an endpoint; print time to first audio and total; write the audio."""
    import asyncio
    import sys

    from .say import speak, write_audio
    from .speaker import Speaker
    from .transport import SpeechError

    if text == "-":
        text = sys.stdin.read()
    if not text.strip():
        raise typer.BadParameter("nothing to say: give TEXT or pipe it in", param_hint="TEXT")
    if format not in ("pcm16", "mulaw"):
        raise typer.BadParameter(f"{format!r}: choose pcm16 or mulaw", param_hint="--format")

    async def run():
        speaker = Speaker(
            _transport(url, endpoint, region, transport),
            voice=voice,
            speed=speed,
            format=format,
            normalize=None if normalize else False,
        )
        async with speaker as s:
            return await speak(s, text, tokens_per_second)

    try:
        spoken = asyncio.run(run())
    except SpeechError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    write_audio(spoken.audio, spoken.format, spoken.sample_rate, out)
    typer.echo(
        f"time to first audio {spoken.first_audio_s * 1000:.0f} ms, total {spoken.total_s:.2f} s, "
        f"{spoken.audio_s:.2f} s of audio in {spoken.sentences} sentence(s) → {out}"
    )


def _transport(url: str, endpoint: str | None, region: str | None, kind: str):
    if endpoint is None:
        from .websocket_transport import WebSocketTransport

        return WebSocketTransport(url)
    if region is None:
        import boto3

        region = boto3.session.Session().region_name
        if region is None:
            raise typer.BadParameter("no region configured; pass --region", param_hint="--region")
    if kind == "bidi":
        from .sagemaker_bidi_transport import SageMakerBidiTransport

        return SageMakerBidiTransport(endpoint, region)
    if kind == "post":
        import boto3

        from .sagemaker_post_transport import SageMakerPostTransport

        return SageMakerPostTransport(endpoint, boto3.client("sagemaker-runtime", region_name=region))
    raise typer.BadParameter(f"{kind!r}: choose bidi or post", param_hint="--transport")


@app.command("demo")
def demo(
    out: Annotated[Path, typer.Option(help="Where to write the streamed reply.")] = Path("demo.wav"),
    tokens_per_second: Annotated[float, typer.Option(help="Simulated LLM speed.")] = 40.0,
) -> None:
    """Start a local server (embedded model), stream a sample reply as an LLM would, compare with waiting."""
    from kokoro_server.settings import SettingsError

    from .demo import run_demo

    typer.echo("starting a local speech server on the embedded Kokoro-82M (first run builds it once)...")
    try:
        result = run_demo(out, tokens_per_second)
    except SettingsError as error:  # a KOKORO_* variable the local server cannot take
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    streaming, waiting = result.streaming, result.waiting
    typer.echo(f"reply streamed at {tokens_per_second:g} tokens/s, {streaming.audio_s:.1f} s of speech → {out}")
    typer.echo(f"  time to first audio, streaming sentences:   {streaming.first_audio_s * 1000:6.0f} ms")
    typer.echo(f"  time to first audio, waiting for full text: {waiting.first_audio_s * 1000:6.0f} ms")
    typer.echo(f"  streaming starts speaking {waiting.first_audio_s / streaming.first_audio_s:.1f}x sooner")


@app.command("bench")
def bench(
    url: Annotated[
        str | None, typer.Option(help="A running server (http://host:port); default: start one here.")
    ] = None,
    endpoint: Annotated[str | None, typer.Option(help="Benchmark a SageMaker endpoint instead.")] = None,
    region: Annotated[str | None, typer.Option(help="AWS region of the endpoint.")] = None,
    quick: Annotated[bool, typer.Option(help="One short reply, 1 and 2 sessions: a smoke run.")] = False,
    out: Annotated[Path, typer.Option(help="Folder for bench.json, bench.md and the plots.")] = Path("bench-results"),
    corpus: Annotated[Path | None, typer.Option(help="JSONL of {id, text}; default: the project's replies.")] = None,
    replies: Annotated[str | None, typer.Option(help="Comma-separated reply ids to run (default: all).")] = None,
    tokens_per_second: Annotated[str, typer.Option(help="Token rate, or a comma-separated sweep.")] = "30",
    levels: Annotated[str | None, typer.Option(help="Concurrent sessions to sweep, e.g. 1,2,4,8,16.")] = None,
    voice: Annotated[str, typer.Option(help="Voice for every strategy.")] = "af_heart",
) -> None:
    """Time to first audio, stalls, throughput and fairness: bidi vs. POST strategies vs. the bare engine."""
    import shlex
    import sys

    from .bench.report import write_report
    from .bench.run import LEVELS, QUICK_LEVELS, QUICK_REPLIES, SWEEP_REPLY, BenchPlan, run_bench
    from .bench.target import open_target
    from .corpus import AGENT_REPLIES, load_replies

    try:
        texts = load_replies(corpus or AGENT_REPLIES)
        rates = tuple(float(rate) for rate in tokens_per_second.split(","))
        sweep = tuple(int(level) for level in levels.split(",")) if levels else (QUICK_LEVELS if quick else LEVELS)
    except (OSError, ValueError) as error:
        raise typer.BadParameter(str(error)) from None
    chosen = replies.split(",") if replies else (list(QUICK_REPLIES) if quick and not corpus else list(texts))
    unknown = [reply for reply in chosen if reply not in texts]
    if unknown:
        raise typer.BadParameter(f"unknown reply id(s) {unknown}; the corpus has: {', '.join(texts)}")
    sweep_text = texts.get(SWEEP_REPLY) or min(texts.values(), key=len)
    plan = BenchPlan({reply: texts[reply] for reply in chosen}, rates, sweep, sweep_text)
    with open_target(url, endpoint, region, voice) as (target, description):
        results = run_bench(target, plan, description)
    command = "kokoro-stream " + shlex.join(sys.argv[1:])
    for path in write_report(results, out, command):
        typer.echo(f"wrote {path}")
    summary = results["summary"]
    typer.echo(
        f"bidi TTFA p50 {summary['ttfa_ms']['bidi']['p50']:.0f} ms: {summary['bidi_vs_wait_full']}x lower than "
        f"waiting for the full text, {summary['bidi_vs_physical_limit']}x the physical limit; "
        f"server overhead {summary['server_overhead_ratio']}x"
    )


def main() -> None:
    app()
