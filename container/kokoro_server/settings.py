"""Server settings: read once from the environment (KOKORO_*), validated with clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kokoro_core import metrics
from kokoro_core.env_settings import settings_from_environment

# The values KOKORO_DEVICE and KOKORO_CUDNN_CONV_ALGO_SEARCH take (the engine reads them too).
Device = Literal["auto", "cuda", "cpu"]
CudnnAlgoSearch = Literal["HEURISTIC", "DEFAULT", "EXHAUSTIVE"]
ENV_PREFIX = "KOKORO_"
SAGEMAKER_MODEL_DIR = Path("/opt/ml/model")


class SettingsError(ValueError):
    """A setting is invalid; the message names it, its value and what is allowed."""


class ServerSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = "0.0.0.0"
    port: int = Field(8080, ge=0, le=65535, description="0 picks a free port")
    model_dir: Path | None = None
    device: Device = Field(
        "auto",
        description="auto: the GPU where one is present, else the CPU; cuda: the GPU or fail the start (the stacks "
        "set it on GPU instance types)",
    )
    allow_cpu_fallback: bool = Field(
        False,
        description="where a GPU is expected and ONNX Runtime's CUDA provider does not start, run on the CPU "
        "instead of failing the start",
    )
    cudnn_conv_algo_search: CudnnAlgoSearch = "HEURISTIC"
    workers: int = Field(
        0,
        ge=0,
        le=64,
        description="engine worker threads; 0: on a GPU 2 when it batches, else 4; one per two available cores on "
        "a CPU",
    )
    max_active_utterances: int = Field(
        0,
        ge=0,
        description="utterances admitted at once, queued or playing; 0: 64, or two per batch slot (workers × "
        "max_batch) if that is more",
    )
    max_batch: int = Field(
        0,
        ge=0,
        le=64,
        description="chunks one model call speaks, across sessions; 0: the device's default (1 on a CPU, where "
        "batching does not pay; 16 on a GPU)",
    )
    batch_wait_ms: float | None = Field(
        None,
        ge=0,
        le=50,
        description="how long a batch that is not full may wait for another session's chunk, counted from when its "
        "first chunk was ready (a lone session never waits); default: 0 on a CPU, 4 on a GPU",
    )
    max_session_utterances: int = Field(
        16, ge=1, description="utterances one WebSocket session may have queued or playing (fair sharing)"
    )
    max_session_contexts: int = Field(8, ge=1, le=64, description="text streams one session may have open at once")
    context_idle_seconds: float = Field(
        60.0, gt=0, description="a text stream with nothing to say that gets no text for this long ends"
    )
    send_timeout_seconds: float = Field(
        30.0, gt=0, description="a client that takes longer to accept one write is dropped and frees its slots"
    )
    heartbeat_seconds: float = Field(
        20.0, ge=0, description="WebSocket ping interval; a client silent for half of it more is dropped; 0: off"
    )
    max_text_chars: int = Field(20_000, ge=1)
    first_chunk_chars: int = Field(80, ge=10)
    max_chunk_chars: int = Field(320, ge=40, le=400)
    lexicon_file: Path | None = Field(
        None, description="server-wide pronunciations; default: lexicon.json in the model"
    )
    drain_seconds: float = Field(20.0, ge=0, le=28, description="SageMaker kills the container 30 s after SIGTERM")
    endpoint_name: str = "local"
    metrics_namespace: str = metrics.NAMESPACE
    load_sample_seconds: float = Field(
        metrics.LOAD_SAMPLE_SECONDS, gt=0, description="how often the load gauge is sent"
    )
    engine: Literal["kokoro", "fake"] = Field(
        "kokoro", description="fake: a deterministic engine without a model, for trying clients and for fast tests"
    )
    engine_slowdown: float = Field(
        1.0, ge=1, le=100, description="testing: every inference call after the warm-up takes this many times as long"
    )

    @property
    def max_message_bytes(self) -> int:
        """A control message may carry the longest text in UTF-8 (4 bytes a character) plus its fields."""
        return self.max_text_chars * 4 + 4096


def settings_from_env(environ: dict[str, str] | None = None, **overrides: object) -> ServerSettings:
    """Settings from KOKORO_<NAME> variables (SM_MODEL_DIR too), then explicit overrides."""
    fallbacks = {"model_dir": SAGEMAKER_MODEL_DIR} if SAGEMAKER_MODEL_DIR.is_dir() else {}
    return settings_from_environment(
        ServerSettings,
        ENV_PREFIX,
        SettingsError,
        environ,
        aliases={"model_dir": "SM_MODEL_DIR"},
        overrides=overrides,
        fallbacks=fallbacks,
    )
