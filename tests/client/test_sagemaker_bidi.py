"""The SageMaker bidirectional transport, where a test must inject what no runtime sends: a part of an
unknown DataType. Everything a runtime does send (PARTIAL parts, stream errors, refusals, reconnects)
goes over the real SDK through the emulator, in test_emulator.py."""

from __future__ import annotations

import asyncio

import pytest
from aws_sdk_sagemaker_runtime_http2.models import (
    ResponsePayloadPart,
    ResponseStreamEventPayloadPart,
)

from kokoro_stream import SpeechError
from kokoro_stream.sagemaker_bidi_transport import SageMakerBidiTransport, runtime_endpoint
from tests.speech import run
from tests.waiting import await_until, within


def test_an_unknown_data_type_is_an_error_not_a_guess():
    class OddOutput:
        async def receive(self):
            part = ResponsePayloadPart(bytes_=b"{}", data_type="XML", completion_state="COMPLETE")
            return ResponseStreamEventPayloadPart(value=part)

    transport = SageMakerBidiTransport("kokoro-tts", "us-east-1", client=object())
    transport._output = OddOutput()
    with pytest.raises(SpeechError, match="DataType 'XML'"):
        run(transport.receive())


def test_the_runtime_endpoint_is_the_regional_http2_port():
    assert runtime_endpoint("eu-west-1") == "https://runtime.sagemaker.eu-west-1.amazonaws.com:8443"


class HeldOutput:
    """An output stream whose events the test releases one at a time; counts the events handed out."""

    def __init__(self, *parts: tuple[bytes, str]) -> None:
        self._parts = list(parts)
        self.released = asyncio.Semaphore(0)
        self.handed_out = 0

    async def receive(self):
        await self.released.acquire()
        data, state = self._parts.pop(0)
        self.handed_out += 1
        return ResponseStreamEventPayloadPart(
            value=ResponsePayloadPart(bytes_=data, data_type="BINARY", completion_state=state)
        )


def held_transport(output: HeldOutput) -> SageMakerBidiTransport:
    transport = SageMakerBidiTransport("kokoro-tts", "us-east-1", client=object())
    transport._output = output
    return transport


def test_an_event_read_just_before_its_receive_is_canceled_goes_to_the_next_receive():
    output = HeldOutput((b"first", "COMPLETE"), (b"second", "COMPLETE"))
    transport = held_transport(output)

    async def scenario() -> list[bytes]:
        waiting = asyncio.ensure_future(transport.receive())
        await asyncio.sleep(0.01)  # the read is in flight
        output.released.release()
        # The read has its event; the receive has not resumed yet: look again at each turn of the loop.
        await await_until(lambda: output.handed_out, "the read to get its event", poll_seconds=0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        output.released.release()
        first = await within(transport.receive(), "the event read before the cancel", timeout=10)
        return [first.data, (await within(transport.receive(), "the next event", timeout=10)).data]

    assert run(scenario()) == [b"first", b"second"]


def test_the_parts_of_a_message_survive_a_canceled_receive():
    output = HeldOutput((b"audio, ", "PARTIAL"), (b"then the rest", "COMPLETE"))
    transport = held_transport(output)

    async def scenario() -> bytes:
        output.released.release()  # the first part comes at once, the second is held
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(transport.receive(), 0.05)
        output.released.release()
        return (await within(transport.receive(), "the whole message", timeout=10)).data

    assert run(scenario()) == b"audio, then the rest"
