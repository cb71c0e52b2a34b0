"""Kokoro streaming speech client: agent text in, audio out, over one persistent session."""

from .endpoint import Endpoint
from .reply import AudioChunk, Heard, HeardUtterance, Reply
from .sagemaker_bidi_transport import SageMakerBidiTransport
from .sagemaker_post_transport import SageMakerPostTransport
from .speaker import Speaker
from .transport import ServerError, SpeechError, SpeechTimeout, Transport, TransportClosed
from .websocket_transport import WebSocketTransport

__all__ = [
    "AudioChunk",
    "Endpoint",
    "Heard",
    "HeardUtterance",
    "Reply",
    "SageMakerBidiTransport",
    "SageMakerPostTransport",
    "ServerError",
    "Speaker",
    "SpeechError",
    "SpeechTimeout",
    "Transport",
    "TransportClosed",
    "WebSocketTransport",
]
