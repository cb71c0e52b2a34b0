"""The `kokoro-agent` command line: serve the agent, run it locally end to end, or ask it something."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Annotated, Any

import typer

from .settings import AgentSettingsError, agent_settings_from_env

app = typer.Typer(
    help="A voice agent whose answer is spoken sentence by sentence while it is written.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

LOCAL_PROMPT = "How does streaming speech make a voice agent feel faster?"
LOCAL_TOKENS_PER_SECOND = 40.0  # a typical hosted LLM streams 30 to 100 tokens a second


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (AgentCore Runtime calls 8080).")] = 8080,
) -> None:
    """Serve the agent (POST /invocations, GET /ping) with the settings in KOKORO_AGENT_* variables."""
    import uvicorn

    from .app import GRACEFUL_SHUTDOWN_SECONDS, app_from_settings

    try:
        settings = agent_settings_from_env()
    except AgentSettingsError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    app = app_from_settings(settings)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS)


@app.command()
def local(
    prompt: Annotated[str, typer.Option(help="What to ask.")] = LOCAL_PROMPT,
    out: Annotated[Path, typer.Option(help="Where to write the streamed answer's audio.")] = Path("agent.wav"),
    tokens_per_second: Annotated[float, typer.Option(help="The scripted LLM's speed.")] = LOCAL_TOKENS_PER_SECOND,
    answer: Annotated[str | None, typer.Option(help="The scripted LLM's answer (default: a sample).")] = None,
    keep_serving: Annotated[bool, typer.Option(help="Keep the agent running for your own requests.")] = False,
    through_emulator: Annotated[
        bool,
        typer.Option(
            help="Reach the speech server as on AWS: SageMaker's bidirectional stream, through kokoro-stream emulate."
        ),
    ] = False,
) -> None:
    """Run the agent here: a scripted LLM, the local speech server; compare stream and batch modes."""
    try:
        from kokoro_server.settings import SettingsError
    except ImportError:
        typer.echo("error: `kokoro-agent local` runs the speech server here; install kokoro-agent[local]", err=True)
        raise typer.Exit(2) from None

    from .local import SCRIPTED_ANSWER, run_local, serve_local

    typer.echo("starting the local speech server (embedded Kokoro-82M) and the agent...")
    answer = answer or SCRIPTED_ANSWER
    try:
        if keep_serving:
            serve_local(tokens_per_second, answer, lambda url: typer.echo(_serving_help(url)), through_emulator)
            return
        comparison = run_local(prompt, out, tokens_per_second, answer, through_emulator)
    except SettingsError as error:  # a KOKORO_* variable the local speech server cannot take
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    for name, result in (("stream", comparison.stream), ("batch", comparison.batch)):
        summary = result.summary
        typer.echo(
            f"  {name:6}  first text {summary['first_text_ms']:6.0f} ms"
            f"   first audio {summary['first_audio_ms']:6.0f} ms   done {summary['total_ms']:6.0f} ms"
        )
    ratio = comparison.batch.summary["first_audio_ms"] / comparison.stream.summary["first_audio_ms"]
    typer.echo(f"streaming starts speaking {ratio:.1f}x sooner; the streamed answer is in {out}")


def _serving_help(url: str) -> str:
    payload = json.dumps({"prompt": LOCAL_PROMPT})
    curl = f"curl -N {url}/invocations -H 'Content-Type: application/json' -d '{payload}'"
    return f"agent at {url} (Ctrl-C stops it); try:\n  {curl}"


@app.command()
def ask(
    prompt: Annotated[str, typer.Argument(help="What to ask.")],
    url: Annotated[str | None, typer.Option(help="A running agent (http://host:port).")] = None,
    runtime_arn: Annotated[str | None, typer.Option(help="An AgentCore runtime ARN (stack output).")] = None,
    region: Annotated[str | None, typer.Option(help="AWS region of the runtime.")] = None,
    qualifier: Annotated[str, typer.Option(help="The runtime endpoint (stack output).")] = "DEFAULT",
    mode: Annotated[str, typer.Option(help="'stream' or 'batch'.")] = "stream",
    session: Annotated[str | None, typer.Option(help="Session id; the same id continues a conversation.")] = None,
    out: Annotated[Path, typer.Option(help="Where to write the answer's audio.")] = Path("answer.wav"),
) -> None:
    """Ask the agent; print its text and timings as they arrive; write its audio."""
    from kokoro_stream.say import write_audio

    from .invoke import TurnResult, invoke
    from .runtime_invoke import invoke_runtime

    if (url is None) == (runtime_arn is None):
        typer.echo("error: give exactly one of --url and --runtime-arn", err=True)
        raise typer.Exit(2)
    payload = {"prompt": prompt, "mode": mode}
    session_id = session or f"kokoro-agent-{uuid.uuid4()}"  # AgentCore wants at least 33 characters

    async def run() -> TurnResult:
        import aiohttp

        result = TurnResult()
        if url is not None:
            async with aiohttp.ClientSession() as http:
                async for event in invoke(http, url, payload, session_id):
                    _show(event)
                    result.add(event)
        else:
            async for event in invoke_runtime(runtime_arn, payload, session_id, region, qualifier):
                _show(event)
                result.add(event)
        return result

    result = asyncio.run(run())
    summary = result.summary
    if summary.get("type") not in ("done", "canceled"):
        raise typer.Exit(1)
    write_audio(bytes(result.audio), summary["format"], summary["sample_rate"], out)
    typer.echo(f"\naudio → {out} (session {session_id})")


def _show(event: dict[str, Any]) -> None:
    kind = event.get("type")
    if kind == "text":
        typer.echo(event["text"], nl=False)
    elif kind == "timing":
        typer.echo(f" [{event['mark']} {event['ms']:.0f} ms] ", nl=False)
    elif kind in ("done", "canceled"):
        typer.echo(f"\n{kind}: first text {event['first_text_ms']} ms, first audio {event['first_audio_ms']} ms")
    elif kind != "audio":
        typer.echo(f"\n{json.dumps(event)}", err=True)


def main() -> None:
    app()
