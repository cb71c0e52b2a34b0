"""Agent settings: read once from the environment (KOKORO_AGENT_*), validated with clear errors."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kokoro_core.env_settings import settings_from_environment
from kokoro_core.errors import ProtocolError
from kokoro_core.protocol import validate_client_message

ENV_PREFIX = "KOKORO_AGENT_"
DEFAULT_SYSTEM_PROMPT = (
    "You are a friendly voice assistant. Your answers are spoken aloud: use short, plain sentences, "
    "no lists, tables, markdown or emoji, and spell out symbols a listener could not see."
)


class AgentSettingsError(ValueError):
    """A setting is invalid; the message names it, its value and what is allowed."""


class AgentSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    model_id: str | None = Field(None, description="Bedrock model or inference profile id")
    script: str | None = Field(None, description="a scripted reply that stands in for the LLM (local runs)")
    tokens_per_second: float = Field(30.0, gt=0, le=10_000, description="the scripted reply's token rate")
    first_token_ms: float = Field(300.0, ge=0, le=60_000, description="the scripted reply's first-token delay")
    tts_endpoint: str | None = Field(None, description="SageMaker endpoint name of the speech server")
    tts_url: str | None = Field(None, pattern=r"^wss?://", description="a speech server's WebSocket URL (local runs)")
    tts_endpoint_url: str | None = Field(
        None, pattern=r"^https://", description="with TTS_ENDPOINT: a runtime URL other than the region's (an emulator)"
    )
    tts_ca_file: str | None = Field(None, description="with TTS_ENDPOINT_URL: the certificate authority to trust")
    region: str | None = None
    voice: str | None = None
    sample_rate: int | None = Field(None, description="8000, 16000, 22050 or 24000")
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    max_prompt_chars: int = Field(4000, ge=1)

    @model_validator(mode="after")
    def _one_of_each(self) -> AgentSettings:
        if (self.model_id is None) == (self.script is None):
            raise ValueError(
                f"set exactly one of {ENV_PREFIX}MODEL_ID (a Bedrock model) and {ENV_PREFIX}SCRIPT (a scripted reply)"
            )
        if (self.tts_endpoint is None) == (self.tts_url is None):
            raise ValueError(
                f"set exactly one of {ENV_PREFIX}TTS_ENDPOINT (a SageMaker endpoint) and {ENV_PREFIX}TTS_URL "
                "(a speech server's WebSocket URL)"
            )
        if self.tts_endpoint is not None and self.region is None:
            raise ValueError(f"{ENV_PREFIX}TTS_ENDPOINT needs a region: set AWS_REGION or {ENV_PREFIX}REGION")
        if self.tts_endpoint_url is not None and self.tts_endpoint is None:
            raise ValueError(f"{ENV_PREFIX}TTS_ENDPOINT_URL needs {ENV_PREFIX}TTS_ENDPOINT (the endpoint's name)")
        # The speech settings are the protocol's configure: refused at start, as a server would refuse them.
        speech = {"voice": self.voice, "sample_rate": self.sample_rate}
        try:
            validate_client_message({"type": "configure", **{k: v for k, v in speech.items() if v is not None}})
        except ProtocolError as error:
            raise ValueError(error.message) from None
        return self


def agent_settings_from_env(environ: dict[str, str] | None = None, **overrides: object) -> AgentSettings:
    """Settings from KOKORO_AGENT_<NAME> variables (AWS_REGION for the region), then explicit overrides."""
    return settings_from_environment(
        AgentSettings, ENV_PREFIX, AgentSettingsError, environ, aliases={"region": "AWS_REGION"}, overrides=overrides
    )
