"""The model-cache populator against a loopback hub and moto's S3: real HTTP, real boto3 calls."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import unquote

import boto3
import pytest
from moto import mock_aws

from kokoro_server.model_cache import MANIFEST_NAME, Manifest
from stacks.handlers.hub import HubClient
from stacks.handlers.model_cache_populator import CacheRequest, PopulateError, Populator, on_event
from tests.s3_writes import keys_written_in_order

from .loopback import Reply, serve

REPO = "onnx-community/Kokoro-82M-v1.0-ONNX"
REVISION = "1939ad2a8e416c0acfeecc08a694d14ef25f2231"
BUCKET = "model-cache"
PREFIX = "models/kokoro/test/"
PART = 5 * 1024 * 1024  # S3's smallest multipart part


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class FakeHub:
    """Serves a pinned revision the way the hub does: paths-info, then resolve → redirect → bytes."""

    files: dict[str, bytes]
    not_lfs: set[str] = field(default_factory=set)
    corrupt: set[str] = field(default_factory=set)
    failures_left: Counter = field(default_factory=Counter)
    downloads: Counter = field(default_factory=Counter)

    def route(self, method: str, path: str, body: bytes) -> Reply:
        if method == "POST" and path == f"/api/models/{REPO}/paths-info/{REVISION}":
            asked = json.loads(body)["paths"]
            entries = []
            for name in asked:
                if name in self.files:
                    data = self.files[name]
                    entry = {"type": "file", "path": name, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}
                    if name not in self.not_lfs:
                        entry["lfs"] = {"oid": sha256(data), "size": len(data), "pointerSize": 134}
                    entries.append(entry)
            return Reply(body=json.dumps(entries).encode(), headers={"Content-Type": "application/json"})
        resolve = f"/{REPO}/resolve/{REVISION}/"
        if method == "GET" and path.startswith(resolve):
            return Reply(status=302, headers={"Location": "/cdn/" + path.removeprefix(resolve)})
        if method == "GET" and path.startswith("/cdn/"):
            name = unquote(path.removeprefix("/cdn/"))
            if self.failures_left[name] > 0:
                self.failures_left[name] -= 1
                return Reply(status=503, body=b"try again")
            self.downloads[name] += 1
            data = self.files[name]
            return Reply(body=data[:-1] + b"\0" if name in self.corrupt else data)
        return Reply(status=404, body=b"not found")


@pytest.fixture
def model_files() -> dict[str, bytes]:
    rng = __import__("random").Random(7)
    return {
        "onnx/model.onnx": rng.randbytes(2 * PART + 12345),  # three multipart parts
        "voices/af_heart.bin": rng.randbytes(510 * 256 * 4),
        "voices/am_michael.bin": rng.randbytes(510 * 256 * 4),
    }


@pytest.fixture
def s3():
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


def request_for(hub_url: str, files: dict[str, dict], **changes) -> CacheRequest:
    values = dict(
        bucket=BUCKET,
        prefix=PREFIX,
        repo=REPO,
        revision=REVISION,
        files=files,
        onnx="onnx/model.onnx",
        voices="voices",
        default_voice="af_heart",
        hub_endpoint=hub_url,
    )
    values.update(changes)
    return CacheRequest(**values)


def sizes_only(files: dict[str, bytes]) -> dict[str, dict]:
    """How cdk.json pins the default model: sizes, with sha256 taken from the hub."""
    return {name: {"bytes": len(data)} for name, data in files.items()}


def populator(hub_url: str, s3) -> Populator:
    return Populator(s3, HubClient(hub_url, backoff_seconds=0), part_bytes=PART)


def object_bytes(s3, key: str) -> bytes:
    return s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()


def test_create_uploads_every_file_verified_and_writes_the_manifest_last(s3, model_files) -> None:
    hub = FakeHub(model_files)
    order = keys_written_in_order(s3)
    with serve(hub.route) as server:
        manifest = populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))
    assert order[-1] == PREFIX + MANIFEST_NAME
    assert sorted(order[:-1]) == sorted(PREFIX + name for name in model_files)
    for name, data in model_files.items():
        assert object_bytes(s3, PREFIX + name) == data
        assert s3.head_object(Bucket=BUCKET, Key=PREFIX + name)["Metadata"] == {"sha256": sha256(data)}
    stored = Manifest.from_json(object_bytes(s3, PREFIX + MANIFEST_NAME))
    assert stored == manifest
    assert stored.source == f"{REPO}@{REVISION}"
    assert {name: entry.sha256 for name, entry in stored.files.items()} == {
        name: sha256(data) for name, data in model_files.items()
    }
    assert stored.voice_names == ("af_heart", "am_michael")


def test_a_complete_matching_prefix_is_left_alone(s3, model_files) -> None:
    hub = FakeHub(model_files)
    with serve(hub.route) as server:
        request = request_for(server.url, sizes_only(model_files))
        populator(server.url, s3).populate(request)
        order = keys_written_in_order(s3)
        populator(server.url, s3).populate(request)
    assert order == []
    assert sum(hub.downloads.values()) == len(model_files)


def test_an_interrupted_run_resumes_with_only_the_missing_files(s3, model_files) -> None:
    hub = FakeHub(model_files)
    with serve(hub.route) as server:
        request = request_for(server.url, sizes_only(model_files))
        populator(server.url, s3).populate(request)
        s3.delete_object(Bucket=BUCKET, Key=PREFIX + MANIFEST_NAME)
        s3.delete_object(Bucket=BUCKET, Key=PREFIX + "voices/am_michael.bin")
        hub.downloads.clear()
        populator(server.url, s3).populate(request)
    assert hub.downloads == Counter({"voices/am_michael.bin": 1})
    assert object_bytes(s3, PREFIX + "voices/am_michael.bin") == model_files["voices/am_michael.bin"]
    assert Manifest.from_json(object_bytes(s3, PREFIX + MANIFEST_NAME)).files


def test_corrupt_download_fails_and_leaves_no_manifest_and_no_object(s3, model_files) -> None:
    hub = FakeHub(model_files, corrupt={"onnx/model.onnx"})
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match=r"onnx/model.onnx from the hub does not match its pin"):
            populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])}
    assert PREFIX + MANIFEST_NAME not in keys
    assert PREFIX + "onnx/model.onnx" not in keys
    assert s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", []) == []


def test_corrupt_small_file_is_never_written(s3, model_files) -> None:
    hub = FakeHub(model_files, corrupt={"voices/af_heart.bin"})
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match="voices/af_heart.bin from the hub does not match"):
            populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])}
    assert PREFIX + "voices/af_heart.bin" not in keys and PREFIX + MANIFEST_NAME not in keys


def test_a_wrong_pinned_sha256_fails_the_deployment(s3, model_files) -> None:
    pins = {name: {"bytes": len(data), "sha256": sha256(data)} for name, data in model_files.items()}
    pins["voices/am_michael.bin"]["sha256"] = "0" * 64
    with serve(FakeHub(model_files).route) as server:
        with pytest.raises(PopulateError, match="expected 522240 bytes with sha256 0000"):
            populator(server.url, s3).populate(request_for(server.url, pins))
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX + MANIFEST_NAME)


def test_fully_pinned_files_need_no_metadata_from_the_hub(s3, model_files) -> None:
    pins = {name: {"bytes": len(data), "sha256": sha256(data)} for name, data in model_files.items()}
    with serve(FakeHub(model_files).route) as server:
        populator(server.url, s3).populate(request_for(server.url, pins))
        asked = [path for method, path in server.requests if method == "POST"]
    assert asked == []


def test_pinned_size_that_disagrees_with_the_hub_fails_before_downloading(s3, model_files) -> None:
    hub = FakeHub(model_files)
    pins = sizes_only(model_files)
    pins["onnx/model.onnx"] = {"bytes": 325_532_232}
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match=r"onnx/model.onnx is \d+ bytes at .*, but model_source pins 325532232"):
            populator(server.url, s3).populate(request_for(server.url, pins))
    assert sum(hub.downloads.values()) == 0


def test_file_missing_at_the_revision_is_named(s3, model_files) -> None:
    pins = {**sizes_only(model_files), "voices/zz_missing.bin": {"bytes": 10}}
    with serve(FakeHub(model_files).route) as server:
        with pytest.raises(PopulateError, match=f"{REPO}@{REVISION} has no file\\(s\\) voices/zz_missing.bin"):
            populator(server.url, s3).populate(request_for(server.url, pins))


def test_non_lfs_file_without_a_pinned_sha256_asks_for_one(s3, model_files) -> None:
    hub = FakeHub({**model_files, "config.json": b"{}"}, not_lfs={"config.json"})
    pins = {**sizes_only(model_files), "config.json": {}}
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match="config.json is not an LFS file .* pin its sha256"):
            populator(server.url, s3).populate(request_for(server.url, pins))


def test_transient_hub_errors_are_retried(s3, model_files) -> None:
    hub = FakeHub(model_files, failures_left=Counter({"voices/af_heart.bin": 2}))
    with serve(hub.route) as server:
        populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))
    assert object_bytes(s3, PREFIX + "voices/af_heart.bin") == model_files["voices/af_heart.bin"]


def test_persistent_hub_errors_fail_with_the_status(s3, model_files) -> None:
    hub = FakeHub(model_files, failures_left=Counter({"voices/af_heart.bin": 99}))
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match="voices/af_heart.bin .* HTTP 503"):
            populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))


def test_unreachable_hub_fails_with_a_clear_reason(s3, model_files) -> None:
    with serve(FakeHub(model_files).route) as server:
        url = server.url
    with pytest.raises(PopulateError, match="could not fetch file information .* after 3 attempts"):
        populator(url, s3).populate(request_for(url, sizes_only(model_files)))


def test_a_changed_selection_in_the_same_prefix_is_marked_incomplete_before_rewriting(s3, model_files) -> None:
    hub = FakeHub(model_files)
    with serve(hub.route) as server:
        fewer = {k: v for k, v in sizes_only(model_files).items() if k != "voices/am_michael.bin"}
        populator(server.url, s3).populate(request_for(server.url, fewer))
        deleted: list[str] = []
        s3.meta.events.register(
            "provide-client-params.s3.DeleteObject", lambda params, **_: deleted.append(params["Key"])
        )
        manifest = populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))
    assert deleted == [PREFIX + MANIFEST_NAME]
    assert "voices/am_michael.bin" in Manifest.from_json(object_bytes(s3, PREFIX + MANIFEST_NAME)).files
    assert manifest.voice_names == ("af_heart", "am_michael")


def test_s3_errors_fail_with_the_operation(model_files) -> None:
    with mock_aws(), serve(FakeHub(model_files).route) as server:
        client = boto3.client("s3", region_name="us-east-1")  # the bucket does not exist
        with pytest.raises(PopulateError, match="S3 refused GetObject"):
            populator(server.url, client).populate(request_for(server.url, sizes_only(model_files)))


def test_custom_resource_events_round_trip_with_cloudformation_strings(s3, model_files, monkeypatch) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setattr("stacks.handlers.model_cache_populator.PART_BYTES", PART)
    with serve(FakeHub(model_files).route) as server:
        properties = {
            "ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:provider",
            "Bucket": BUCKET,
            "Prefix": PREFIX,
            "Repo": REPO,
            "Revision": REVISION,
            # CloudFormation hands every scalar to a custom resource as a string.
            "Files": {name: {"bytes": str(len(data))} for name, data in model_files.items()},
            "Onnx": "onnx/model.onnx",
            "Voices": "voices",
            "DefaultVoice": "af_heart",
            "HubEndpoint": server.url,
        }
        created = on_event({"RequestType": "Create", "ResourceProperties": properties})
        updated = on_event(
            {
                "RequestType": "Update",
                "PhysicalResourceId": created["PhysicalResourceId"],
                "ResourceProperties": properties,
                "OldResourceProperties": properties,
            }
        )
    assert created["PhysicalResourceId"] == f"s3://{BUCKET}/{PREFIX}"
    assert created["Data"]["Prefix"] == PREFIX
    assert created["Data"]["Files"] == "3"
    assert updated == created
    deleted = on_event(
        {"RequestType": "Delete", "PhysicalResourceId": created["PhysicalResourceId"], "ResourceProperties": properties}
    )
    assert deleted == {"PhysicalResourceId": created["PhysicalResourceId"]}
    assert object_bytes(s3, PREFIX + MANIFEST_NAME)  # delete keeps the files for rollbacks


def test_missing_property_is_named() -> None:
    with pytest.raises(PopulateError, match="property 'Bucket' is missing"):
        on_event({"RequestType": "Create", "ResourceProperties": {}})


def test_download_cut_off_mid_stream_aborts_the_upload(s3, model_files) -> None:
    class CutOff(FakeHub):
        def route(self, method: str, path: str, body: bytes) -> Reply:
            reply = super().route(method, path, body)
            if path == "/cdn/onnx/model.onnx":
                # Announce the full length, then send only part of it and close the connection.
                return Reply(body=reply.body[: PART + 10], headers={"Content-Length": str(len(reply.body))})
            return reply

    hub = CutOff(model_files)
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match="does not match its pin: got 5242890 bytes"):
            populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))
    assert s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", []) == []
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX + MANIFEST_NAME)
