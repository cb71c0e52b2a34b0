"""`kokoro-stream cache push` against moto's S3: verify, upload, manifest last, idempotent."""

from __future__ import annotations

import hashlib
from pathlib import Path

import boto3
import pytest
from moto import mock_aws
from typer.testing import CliRunner

from kokoro_core.model_cache import MANIFEST_NAME, Manifest, cache_prefix
from kokoro_stream.cli import app
from kokoro_tools.cache_push import push
from tests.model_dirs import make_model_dir
from tests.s3_writes import keys_written_in_order

BUCKET = "model-cache"


@pytest.fixture
def s3(monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


def test_push_uploads_every_file_and_the_manifest_last(tmp_path: Path, s3) -> None:
    manifest = make_model_dir(tmp_path, onnx_bytes=9 * 1024 * 1024)  # large enough for multipart
    order = keys_written_in_order(s3)
    result = push(tmp_path, s3, BUCKET, progress=False)
    prefix = cache_prefix(manifest.source, list(manifest.files))
    assert result.url == f"s3://{BUCKET}/{prefix}"
    assert order[-1] == prefix + MANIFEST_NAME
    for name, entry in manifest.files.items():
        body = s3.get_object(Bucket=BUCKET, Key=prefix + name)["Body"].read()
        assert hashlib.sha256(body).hexdigest() == entry.sha256
    stored = s3.get_object(Bucket=BUCKET, Key=prefix + MANIFEST_NAME)["Body"].read()
    assert Manifest.from_json(stored) == manifest


def test_second_push_uploads_nothing(tmp_path: Path, s3) -> None:
    make_model_dir(tmp_path)
    push(tmp_path, s3, BUCKET, "custom/", progress=False)
    again = push(tmp_path, s3, BUCKET, "custom", progress=False)
    assert again.already_complete and again.uploaded == []


def test_push_resumes_after_an_interrupted_upload(tmp_path: Path, s3) -> None:
    make_model_dir(tmp_path)
    first = push(tmp_path, s3, BUCKET, "p/", progress=False)
    s3.delete_object(Bucket=BUCKET, Key="p/" + MANIFEST_NAME)
    s3.delete_object(Bucket=BUCKET, Key="p/voices/am_michael.bin")
    again = push(tmp_path, s3, BUCKET, "p/", progress=False)
    assert again.uploaded == ["voices/am_michael.bin"]
    assert len(again.kept) == len(first.uploaded) - 1


def test_cli_refuses_a_directory_that_fails_verification(tmp_path: Path, s3) -> None:
    make_model_dir(tmp_path)
    (tmp_path / "voices/af_heart.bin").write_bytes(b"tampered")
    result = CliRunner().invoke(app, ["cache", "push", str(tmp_path), "--bucket", BUCKET])
    assert result.exit_code == 2
    assert "voices/af_heart.bin: 8 bytes, manifest says 522240" in result.output
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET)


def test_cli_reports_where_it_pushed_and_how_to_deploy(tmp_path: Path, s3) -> None:
    make_model_dir(tmp_path)
    push_it = ["cache", "push", str(tmp_path), "--bucket", BUCKET, "--prefix", "kokoro/v1/", "--no-check"]
    result = CliRunner().invoke(app, push_it)  # random bytes for a model: only the upload is under test here
    assert result.exit_code == 0, result.output
    assert f"s3://{BUCKET}/kokoro/v1/: uploaded 3 file(s), kept 0, manifest written" in result.output
    assert "-c populate_model_cache=false -c model_prefix=kokoro/v1/" in result.output


def test_cli_reports_s3_failures_without_a_traceback(tmp_path: Path, s3) -> None:
    make_model_dir(tmp_path)
    result = CliRunner().invoke(app, ["cache", "push", str(tmp_path), "--bucket", "no-such-bucket", "--no-check"])
    assert result.exit_code == 1
    assert "error: S3 upload to s3://no-such-bucket failed" in result.output
    assert "Traceback" not in result.output


def test_cli_checks_the_model_as_the_server_would_load_it_before_uploading(tmp_path: Path, s3) -> None:
    make_model_dir(tmp_path)  # every byte matches its manifest, but the model is random bytes
    result = CliRunner().invoke(app, ["cache", "push", str(tmp_path), "--bucket", BUCKET])
    assert result.exit_code == 1
    assert f"error: the server could not use {tmp_path}" in result.output and "Traceback" not in result.output
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET)  # nothing uploaded
