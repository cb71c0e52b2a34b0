"""What the emulator catches and enforces, as SageMaker's runtime does: a client that breaks the
bidirectional wire format (HTTP/1.1, a wrong path or content type, unsigned or corrupt events) is refused
with the reason, and the service limits a client meets (request size, a container's answer time, a
stream's lifetime and idle time) apply. Each check is shown failing a request broken in that one way,
so the passing tests of the real clients mean those clients get it right."""

from __future__ import annotations

import asyncio
import json
import ssl
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from botocore.exceptions import ClientError

from kokoro_stream import Speaker, TransportClosed
from kokoro_tools.emulator import Limits
from kokoro_tools.emulator_host import RunningEmulator, emulating
from kokoro_tools.event_stream import EventReader, payload_part
from tests.fake_server import fake_server
from tests.local_server import RunningServer
from tests.speech import run
from tests.tools.emulated import ENDPOINT, REGION, any_credentials, bidi, by_sentence, runtime, spoken
from tests.waiting import await_until

BIDI_PATH = f"/endpoints/{ENDPOINT}/invocations-bidirectional-stream"


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    any_credentials(monkeypatch)


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[RunningServer, RunningEmulator]]:
    with fake_server() as (server, _), emulating(server.url, ENDPOINT, REGION) as emulator:
        yield server, emulator


def signed_headers(**overrides: str) -> dict[str, str]:
    """The headers the SDK sends (its SigV4 scope; the emulator never checks the signature's value)."""
    headers = {
        "content-type": "application/vnd.amazon.eventstream",
        "x-amz-date": "20261130T120000Z",
        "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-EVENTS",
        "authorization": (
            f"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/{REGION}/sagemaker/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=" + "0" * 64
        ),
    }
    return headers | overrides


def signed_envelope(part: bytes) -> bytes:
    from smithy_aws_event_stream.events import EventMessage

    headers = {":date": datetime.now(UTC), ":chunk-signature": bytes(32)}
    return EventMessage(headers=headers, payload=part).encode()


async def exchange(
    emulator: RunningEmulator, body: list[bytes], path: str = BIDI_PATH, http2: bool = True, **headers: str
) -> tuple[int, dict[str, str], list[Any]]:
    """One raw request to the emulator: status, error-type header, and the event messages answered."""

    async def content() -> AsyncIterator[bytes]:
        for data in body:
            yield data

    trust = ssl.create_default_context(cafile=str(emulator.ca_file))
    async with httpx.AsyncClient(http2=http2, http1=not http2, verify=trust, timeout=20) as client:
        url, all_headers = emulator.url + path, signed_headers(**headers)
        request = client.build_request("POST", url, headers=all_headers, content=content())
        response = await client.send(request, stream=True)
        reader, messages = EventReader(), []
        data = b""
        async for piece in response.aiter_bytes():
            data += piece
            if response.headers.get("content-type") == "application/vnd.amazon.eventstream":
                messages += reader.feed(piece)
        await response.aclose()
        error = response.headers.get("x-amzn-errortype", "")
        return response.status_code, {"type": error, "body": data.decode(errors="replace")}, messages


def test_a_well_formed_raw_stream_is_relayed_so_the_refusals_below_are_for_their_one_fault(stack) -> None:
    _, emulator = stack
    session = [b'{"type": "configure", "voice": "af_heart"}', b'{"type": "close"}']  # the container closes 1000
    status, _, messages = run(exchange(emulator, [signed_envelope(payload_part(m, "UTF8")) for m in session]))
    assert status == 200
    # The container's answers, then a clean end: no error event.
    assert [json.loads(m.payload)["type"] for m in messages] == ["ready", "configured"]
    assert {m.headers["DataType"] for m in messages} == {"UTF8"}


@pytest.mark.parametrize(
    ("fault", "request_options", "status", "error_type", "reason"),
    [
        ("HTTP/1.1", {"http2": False}, 400, "InputValidationError", "takes HTTP/2"),
        ("a path off by a word", {"path": BIDI_PATH.removesuffix("-stream")}, 404, "UnknownOperation", "not a Sage"),
        ("a JSON body", {"content-type": "application/json"}, 400, "InputValidationError", "vnd.amazon.eventstream"),
        ("unsigned events", {"x-amz-content-sha256": "UNSIGNED-PAYLOAD"}, 403, "InvalidSignature", "event by event"),
    ],
)
def test_a_request_broken_in_one_way_is_refused_with_the_reason(
    stack, fault: str, request_options: dict[str, Any], status: int, error_type: str, reason: str
) -> None:
    _, emulator = stack
    configure = signed_envelope(payload_part(b'{"type": "configure"}', "UTF8"))
    got_status, error, _ = run(exchange(emulator, [configure], **request_options))
    assert (got_status, error["type"].split("Exception")[0]) == (status, error_type.split("Exception")[0]), fault
    assert reason in error["body"], fault


CONFIGURE = payload_part(b'{"type": "configure"}', "UTF8")


@pytest.mark.parametrize(
    ("fault", "envelope", "reason"),
    [
        ("an unsigned event", payload_part(CONFIGURE), "without its signature"),
        ("a corrupt checksum", signed_envelope(CONFIGURE)[:-1] + b"\0", "Checksum"),
        ("a corrupt prelude", b"\0\0\0\x20" + bytes(28), "prelude"),
        ("a part of no known DataType", signed_envelope(payload_part(b"{}", "XML")), "DataType 'XML'"),
    ],
)
def test_an_input_event_broken_in_one_way_ends_the_stream_with_the_reason(
    stack, fault: str, envelope: bytes, reason: str
) -> None:
    _, emulator = stack
    status, _, messages = run(exchange(emulator, [envelope]))
    assert status == 200, fault  # the stream had started: its error comes as its last event
    last = messages[-1]
    assert last.headers[":message-type"] == "exception" and last.headers[":exception-type"] == "ModelStreamError"
    assert reason in last.payload.decode(), fault


def test_the_sdk_without_event_signing_is_refused_and_the_emulator_goes_on(stack, monkeypatch) -> None:
    """The real transport, broken the way a client built on an SDK that does not sign events would be."""
    from smithy_aws_core.auth import sigv4

    _, emulator = stack
    with monkeypatch.context() as patch:
        patch.setattr(sigv4.SigV4AuthScheme, "event_signer", lambda self, *, request: None)
        with pytest.raises(TransportClosed, match="without its signature"):
            run(spoken(bidi(emulator), "Never heard."))
    assert run(spoken(bidi(emulator), "Signed again."))  # the same emulator serves the next client


def test_a_body_over_six_megabytes_is_refused_before_the_container() -> None:
    with fake_server() as (server, engine), emulating(server.url, ENDPOINT, REGION) as emulator:
        body = b'{"text": "' + b"a" * (Limits().max_request_bytes - 10) + b'"}'
        with pytest.raises(ClientError) as refused:
            runtime(emulator).invoke_endpoint(EndpointName=ENDPOINT, Body=body, ContentType="application/json")
        assert refused.value.response["Error"]["Code"] == "ValidationError"
        assert "6291456" in refused.value.response["Error"]["Message"]
        assert engine.calls == []


def test_a_container_that_does_not_answer_in_time_is_a_timed_out_model_error() -> None:
    gate = threading.Event()  # held: the engine answers nothing until the test lets it
    with fake_server(gate=gate) as (server, _):
        # 2 s: held, the engine never answers in it; let go, a short answer comes well inside it, even on a
        # machine several times slower than this one.
        with emulating(server.url, ENDPOINT, REGION, limits=Limits(invocation_seconds=2.0)) as emulator:
            client = runtime(emulator)
            arguments = {"EndpointName": ENDPOINT, "Body": b'{"text": "Hello."}', "ContentType": "application/json"}
            for operation in (client.invoke_endpoint, client.invoke_endpoint_with_response_stream):
                with pytest.raises(ClientError) as timed_out:
                    operation(**arguments)
                assert timed_out.value.response["Error"]["Code"] == "ModelError"
                assert "timed out while waiting for a response from container" in str(timed_out.value)
            gate.set()
            assert client.invoke_endpoint(**arguments)["Body"].read()  # the next one, answered, comes back


@pytest.mark.parametrize("limit", ["session_seconds", "idle_seconds"])
def test_a_stream_ended_by_its_lifetime_or_idle_time_reconnects_and_speaks_on(limit: str) -> None:
    with fake_server() as (server, _):
        with fake_server() as (reference, _):
            from kokoro_stream import WebSocketTransport

            expected = by_sentence(run(spoken(WebSocketTransport(reference.ws_url), "After the stream ended.")))
        # 2 s: opening a stream takes a small part of that even on a machine several times slower than this one.
        with emulating(server.url, ENDPOINT, REGION, limits=Limits(**{limit: 2.0})) as emulator:

            async def scenario() -> tuple[int, list[Any]]:
                async with Speaker(bidi(emulator), timeout=20, reconnect_delay=0.05) as speaker:
                    await await_until(
                        lambda: speaker.reconnects, "the service to end the stream under the open session"
                    )
                    return speaker.reconnects, [chunk async for chunk in speaker.speak("After the stream ended.")]

            reconnects, chunks = run(asyncio.wait_for(scenario(), timeout=60))
    assert reconnects >= 1
    assert [(sentence, len(audio)) for sentence, audio in by_sentence(chunks)] == [
        (sentence, len(audio)) for sentence, audio in expected
    ]
