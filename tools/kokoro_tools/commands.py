"""The tools' commands of ``kokoro-stream``: ``demo``, ``emulate``, ``proxy``, ``playground``, ``cache push``
and ``rehearse`` (registered through the ``kokoro_stream.commands`` entry point)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kokoro_core.model_cache import ModelCacheError
from kokoro_stream.cli_options import (
    CaFileOption,
    EndpointUrlOption,
    RegionOption,
    ServerUrlOption,
    endpoint_from_options,
)

cache_app = typer.Typer(
    help="Model cache tools (the S3 layout the endpoint loads its model from).", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(cache_app, name="cache")
    app.command("demo")(demo)
    app.command("emulate")(emulate)
    app.command("proxy")(proxy)
    app.command("playground")(playground)
    app.command("rehearse")(rehearse)


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
    check: Annotated[
        bool, typer.Option(help="Load the model as the server would and speak with it first (`model check`).")
    ] = True,
) -> None:
    """Check DIRECTORY as the server would load it, verify it against its manifest, upload what is missing, then
    write the manifest."""
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    from kokoro_server.commands import check_loaded_model

    from .cache_push import push

    if check:  # an endpoint that cannot load the model fails its health check only after many minutes
        check_loaded_model(directory)

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


def emulate(
    url: Annotated[str, typer.Option(help="The speech server to stand in front of.")] = "http://127.0.0.1:8080",
    image: Annotated[
        str | None,
        typer.Option(help="Instead of --url: run this server image in Docker as SageMaker runs it, and front it."),
    ] = None,
    model_dir: Annotated[
        Path | None,
        typer.Option(help="With --image: the model directory to mount at /opt/ml/model (default: the embedded one)."),
    ] = None,
    port: Annotated[int, typer.Option(help="The emulator's HTTPS port (SageMaker's runtime uses 8443).")] = 8443,
    endpoint_name: Annotated[str, typer.Option(help="The endpoint name clients must use.")] = "kokoro-tts",
    region: Annotated[str, typer.Option(help="The region clients must sign for.")] = "us-east-1",
    ca_out: Annotated[Path, typer.Option(help="Where to write the certificate authority clients must trust.")] = Path(
        "emulator-ca.pem"
    ),
    session_seconds: Annotated[
        float | None, typer.Option(help="End each bidirectional stream this long after it opened (off by default).")
    ] = None,
    idle_seconds: Annotated[
        float | None, typer.Option(help="End a bidirectional stream idle this long (off by default).")
    ] = None,
    invocation_seconds: Annotated[
        float, typer.Option(help="How long a container may take to start answering an invocation.")
    ] = 60.0,
) -> None:
    """A local stand-in for the SageMaker AI runtime in front of a speech server: try client code before deploying."""
    import contextlib
    import shutil

    from .emulator import Limits
    from .emulator_host import STOP_SECONDS, emulating
    from .image_run import ImageFailed, serving_image
    from .stopping import StopSignal, stopped_line

    limits = Limits(invocation_seconds=invocation_seconds, session_seconds=session_seconds, idle_seconds=idle_seconds)
    with contextlib.ExitStack() as stack:
        if image is not None:
            if model_dir is None:
                from kokoro_server.engine.embedded_model import model_directory

                model_dir = model_directory()
            typer.echo(f"starting {image} as SageMaker starts it (model {model_dir})...", err=True)
            try:
                url = stack.enter_context(serving_image(image, model_dir))
            except ImageFailed as error:
                typer.echo(f"error: {error}", err=True)
                raise typer.Exit(1) from None
        url = url.rstrip("/")
        with emulating(url, endpoint_name, region, port, limits=limits) as emulator:
            stop = StopSignal()  # before the ready line: a client may signal as soon as it reads it
            shutil.copyfile(emulator.ca_file, ca_out)
            typer.echo(
                f"SageMaker runtime stand-in for endpoint {endpoint_name!r} ({region}) at {emulator.url} → {url}"
            )
            typer.echo(f"its certificate authority: {ca_out} (any credentials sign; the signature's scope is checked)")
            typer.echo(
                f"  kokoro-stream say 'Hello.' --endpoint {endpoint_name} --region {region} "
                f"--endpoint-url {emulator.url} --ca-file {ca_out} [--transport post]"
            )
            typer.echo(f"Ctrl-C (or SIGTERM) stops it within {STOP_SECONDS:g} s.")
            signaled = stop.wait()
        cut = ": streams still open after the grace period were cut" if emulator.cut else ""
        typer.echo(stopped_line(signaled, STOP_SECONDS, cut))
        if image is not None:
            typer.echo(f"removing the {image} container...", err=True)


def proxy(
    endpoint: Annotated[str, typer.Option(help="The SageMaker endpoint to speak with (stack output EndpointName).")],
    region: RegionOption = None,
    endpoint_url: EndpointUrlOption = None,
    ca_file: CaFileOption = None,
    host: Annotated[str, typer.Option(help="Address to listen on; beyond loopback, give --api-key too.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    api_key: Annotated[
        str | None,
        typer.Option(
            envvar="KOKORO_PROXY_API_KEY",
            help="Refuse requests without Authorization: Bearer <this key> (the OpenAI SDK's api_key).",
        ),
    ] = None,
) -> None:
    """OpenAI's speech API (/v1/audio/speech) on this machine, in front of a SageMaker endpoint."""
    from kokoro_core.loopback import exposure_warning

    from .proxy import proxy_app
    from .stopping import APP_STOP_SECONDS, serve_until_stopped, stopped_line

    address = endpoint_from_options(endpoint, region, endpoint_url, ca_file)
    what = "your endpoint with your AWS credentials" + (" once they send the API key" if api_key else "")
    if warning := exposure_warning(host, what):
        typer.echo(warning + ("" if api_key else " Give --api-key so that only your callers can."), err=True)
    ready = f"OpenAI speech API for endpoint {address.name!r} ({address.region}) at http://{host}:{port}/v1"
    app = proxy_app(address, listening_on=host, api_key=api_key)
    signaled = serve_until_stopped(app, host, port, on_ready=lambda: typer.echo(ready))
    typer.echo(stopped_line(signaled, APP_STOP_SECONDS))


def playground(
    url: ServerUrlOption = None,
    endpoint: Annotated[str | None, typer.Option(help="Speak through a SageMaker endpoint instead.")] = None,
    region: RegionOption = None,
    endpoint_url: EndpointUrlOption = None,
    ca_file: CaFileOption = None,
    port: Annotated[int, typer.Option(help="The page's port.")] = 8090,
) -> None:
    """A browser page to hear the stream: type or replay text as tokens, voice and speed, captions, barge-in."""
    import contextlib

    from kokoro_server.serving.background import BackgroundServer
    from kokoro_server.serving.server import CUT_SECONDS
    from kokoro_server.settings import settings_from_env
    from kokoro_stream.websocket_transport import WebSocketTransport

    from .playground import playground_app
    from .stopping import APP_STOP_SECONDS, serve_until_stopped, stopped_line

    bound = APP_STOP_SECONDS
    with contextlib.ExitStack() as stack:
        if endpoint is not None:
            transport = endpoint_from_options(endpoint, region, endpoint_url, ca_file).bidi
            where = f"endpoint {endpoint}"
        else:
            if url is None:
                typer.echo("starting a local speech server on the embedded Kokoro-82M...", err=True)
                # Nothing to drain for: the page's sessions end with it, so the server stops at once.
                settings = settings_from_env(host="127.0.0.1", port=0, drain_seconds=0)
                url = stack.enter_context(BackgroundServer(settings)).url
                bound += CUT_SECONDS
            ws_url = url.rstrip("/").replace("http", "ws", 1) + "/invocations-bidirectional-stream"
            transport, where = (lambda: WebSocketTransport(ws_url)), url
        ready = f"playground at http://127.0.0.1:{port}/ (speech from {where}); Ctrl-C stops it"
        signaled = serve_until_stopped(playground_app(transport), "127.0.0.1", port, lambda: typer.echo(ready))
    typer.echo(stopped_line(signaled, bound))


def rehearse(
    port: Annotated[int, typer.Option(help="Port the server listens on, as in the container.")] = 8080,
) -> None:
    """Rehearse the first `cdk deploy` offline, with cdk.json's settings: the populator fills an S3 stand-in from a
    hub stand-in, the prefix is laid out as SageMaker's /opt/ml/model, the server starts as the image starts it,
    then /ping and speech over POST and the bidirectional stream, through the SageMaker runtime emulator."""
    try:
        from .rehearsal import RehearsalFailed
        from .rehearsal import rehearse as run
    except ModuleNotFoundError as error:
        typer.echo(f"error: the rehearsal needs {error.name!r}: install kokoro-stream-tools[rehearse]", err=True)
        raise typer.Exit(1) from None
    try:
        run(port=port, say=typer.echo)
    except RehearsalFailed as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo("rehearsal passed: the first deploy would go InService and speak")
