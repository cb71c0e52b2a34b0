"""The model-cache populator against a loopback hub and moto's S3: real HTTP, real boto3 calls."""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import unquote

import boto3
import pytest
from moto import mock_aws

from kokoro_core.model_cache import MANIFEST_NAME, Manifest
from stacks.handlers.hub import HubClient, HubError, retry_after_seconds
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
    failure: Reply = field(default_factory=lambda: Reply(status=503, body=b"try again"))
    seconds_per_64k: float = 0.0

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
                return self.failure
            if name not in self.files:
                return Reply(status=404, body=b"entry not found")
            self.downloads[name] += 1
            data = self.files[name]
            body = data[:-1] + b"\0" if name in self.corrupt else data
            return Reply(body=body, seconds_per_64k=self.seconds_per_64k)
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
    with pytest.raises(PopulateError, match="could not fetch file information .* after 8 attempts"):
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


def test_rate_limits_wait_as_long_as_the_hub_asks(s3, model_files) -> None:
    hub = FakeHub(
        model_files,
        failures_left=Counter({"voices/af_heart.bin": 2}),
        failure=Reply(status=429, body=b"slow down", headers={"Retry-After": "7"}),
    )
    slept: list[float] = []
    with serve(hub.route) as server:
        client = HubClient(server.url, sleep=slept.append)
        Populator(s3, client, part_bytes=PART).populate(request_for(server.url, sizes_only(model_files)))
    assert slept == [7, 7]
    assert object_bytes(s3, PREFIX + "voices/af_heart.bin") == model_files["voices/af_heart.bin"]


def test_a_hub_that_stays_busy_fails_in_bounded_time_saying_what_to_do(s3, model_files) -> None:
    hub = FakeHub(
        model_files,
        failures_left=Counter({"voices/af_heart.bin": 99}),
        failure=Reply(status=503, body=b"busy", headers={"Retry-After": "100"}),
    )
    slept: list[float] = []
    with serve(hub.route) as server:
        client = HubClient(server.url, sleep=slept.append, max_wait_seconds=180)
        with pytest.raises(PopulateError) as failed:
            Populator(s3, client, part_bytes=PART).populate(request_for(server.url, sizes_only(model_files)))
    assert slept == [100]  # a second wait of 100 s would pass the 180 s bound
    message = str(failed.value)
    assert "voices/af_heart.bin" in message and "HTTP 503" in message and "retry the deployment later" in message
    assert "hub_token_secret_arn" in message


def test_without_retry_after_the_waits_grow_exponentially() -> None:
    slept: list[float] = []
    hub = FakeHub({"x.bin": b"data"}, failures_left=Counter({"x.bin": 3}))
    with serve(hub.route) as server:
        client = HubClient(server.url, backoff_seconds=2, sleep=slept.append)
        with client.open(REPO, REVISION, "x.bin") as stream:
            assert stream.read() == b"data"
        with pytest.raises(HubError, match="HTTP 404"):
            client.open(REPO, REVISION, "missing.bin")  # not transient: no retry
    assert slept == [2, 4, 8]


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after_seconds("12") == 12
    soon = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 25 <= retry_after_seconds(soon) <= 31
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0  # in the past: no wait
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None


def test_a_token_goes_to_the_hub_and_never_to_the_redirect_target(s3, model_files) -> None:
    hub = FakeHub(model_files)
    with serve(hub.route) as server:
        client = HubClient(server.url, token="hf_secret")
        Populator(s3, client, part_bytes=PART).populate(request_for(server.url, sizes_only(model_files)))
    sent = zip(server.requests, server.headers, strict=True)
    seen = {path: headers.get("Authorization") for (_, path), headers in sent}
    assert seen[f"/api/models/{REPO}/paths-info/{REVISION}"] == "Bearer hf_secret"
    assert seen[f"/{REPO}/resolve/{REVISION}/onnx/model.onnx"] == "Bearer hf_secret"
    assert seen["/cdn/onnx/model.onnx"] is None


def test_a_gated_repository_without_a_token_says_how_to_give_one(s3, model_files) -> None:
    hub = FakeHub(model_files, failures_left=Counter({"onnx/model.onnx": 1}), failure=Reply(status=401))
    with serve(hub.route) as server:
        with pytest.raises(PopulateError, match="HTTP 401 .* -c hub_token_secret_arn=ARN"):
            populator(server.url, s3).populate(request_for(server.url, sizes_only(model_files)))


def test_a_download_that_cannot_finish_in_time_fails_at_once_naming_cache_push(s3) -> None:
    files = {"onnx/model.onnx": bytes(16 * 1024 * 1024), "voices/af_heart.bin": bytes(510 * 256 * 4)}
    hub = FakeHub(files, seconds_per_64k=0.1)  # at most 0.6 MB/s: the 16 MB model needs 25 s or more
    deadline = time.monotonic() + 45  # 45 s left, 30 of them kept back to answer CloudFormation
    with serve(hub.route) as server:
        slow = Populator(
            s3, HubClient(server.url), part_bytes=PART, remaining_seconds=lambda: deadline - time.monotonic()
        )
        with pytest.raises(PopulateError) as failed:
            slow.populate(request_for(server.url, sizes_only(files)))
    # It failed once the pace was clear (after 5 s), not when the 15 s it may use ran out.
    assert time.monotonic() < deadline - 30
    message = str(failed.value)
    assert "MB/s" in message and "left" in message
    assert f"kokoro-stream cache push MODEL_DIR --bucket {BUCKET} --prefix {PREFIX}" in message
    assert f"-c populate_model_cache=false -c model_prefix={PREFIX}" in message
    assert s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", []) == []
    assert "Contents" not in s3.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX + MANIFEST_NAME)


def test_a_download_with_time_to_spare_is_left_to_finish(s3, model_files) -> None:
    with serve(FakeHub(model_files).route) as server:
        roomy = Populator(s3, HubClient(server.url), part_bytes=PART, remaining_seconds=lambda: 600.0)
        manifest = roomy.populate(request_for(server.url, sizes_only(model_files)))
    assert object_bytes(s3, PREFIX + MANIFEST_NAME) == manifest.to_json().encode()


@pytest.mark.parametrize("stored", ["hf_plain", '{"token": "hf_plain"}'])
def test_the_hub_token_comes_from_secrets_manager(s3, model_files, monkeypatch, stored) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    secret_arn = boto3.client("secretsmanager", region_name="us-east-1").create_secret(
        Name="hub-token", SecretString=stored
    )["ARN"]
    hub = FakeHub(model_files)
    with serve(hub.route) as server:
        properties = {
            "Bucket": BUCKET,
            "Prefix": PREFIX,
            "Repo": REPO,
            "Revision": REVISION,
            "Files": sizes_only(model_files),
            "Onnx": "onnx/model.onnx",
            "Voices": "voices",
            "DefaultVoice": "af_heart",
            "HubEndpoint": server.url,
            "HubTokenSecretArn": secret_arn,
        }
        on_event({"RequestType": "Create", "ResourceProperties": properties})
    assert server.headers[0]["Authorization"] == "Bearer hf_plain"


def test_an_unreadable_token_secret_is_named(s3, monkeypatch) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    missing = "arn:aws:secretsmanager:us-east-1:123456789012:secret:hub-token-AbCdEf"
    with pytest.raises(PopulateError, match=f"could not read the hub token secret {missing}"):
        on_event(
            {
                "RequestType": "Create",
                "ResourceProperties": {
                    "Bucket": BUCKET,
                    "Prefix": PREFIX,
                    "Repo": REPO,
                    "Revision": REVISION,
                    "Files": {},
                    "Onnx": "onnx/model.onnx",
                    "Voices": "voices",
                    "DefaultVoice": "af_heart",
                    "HubEndpoint": "http://127.0.0.1:9",
                    "HubTokenSecretArn": missing,
                },
            }
        )
