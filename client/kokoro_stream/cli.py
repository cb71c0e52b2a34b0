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


def main() -> None:
    app()
