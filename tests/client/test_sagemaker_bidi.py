"""The SageMaker bidirectional transport, where a test must inject what no runtime sends: a part of an
unknown DataType. Everything a runtime does send (PARTIAL parts, stream errors, refusals, reconnects)
goes over the real SDK through the emulator, in test_emulator.py."""

from __future__ import annotations

import pytest
from aws_sdk_sagemaker_runtime_http2.models import (
    ResponsePayloadPart,
    ResponseStreamEventPayloadPart,
)

from kokoro_stream import SpeechError
from kokoro_stream.sagemaker_bidi_transport import SageMakerBidiTransport, runtime_endpoint
from tests.server.speech import run


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
