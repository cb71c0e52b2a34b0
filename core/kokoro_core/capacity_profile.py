"""The capacity profile: what one instance was measured to carry and the scaling policy derived from it.

Written by ``kokoro-stream capacity plan`` and read by the stacks (cdk.json ``capacity_profile``), so both
sides validate the same JSON with this one model. Schema version 1. Its ``batching`` part is optional: a
profile without it (one planned from a measurement that did not know the server's batching, or written
before profiles had the part) leaves batching to the container's own settings.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, model_validator

SCHEMA_VERSION = 1
Route = Literal["bidi", "post"]
Flavor = Literal["cpu", "gpu"]
# SageMaker's per-instance concurrency metrics (namespace AWS/SageMaker, dimensions EndpointName, VariantName).
PolicyMetric = Literal["ConcurrentRequestsPerModelHighResolution", "ConcurrentRequestsPerModel"]
PolicyStatistic = Literal["Average", "Maximum", "Sum"]
LOCAL_PREFIX = "local"  # measured_on of a rehearsal on a local machine starts with it


class CapacityProfileError(ValueError):
    """A capacity profile that cannot be read or does not hold together; the message says what and where."""


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Image(_Part):
    flavor: Flavor
    requirements_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="of container/requirements-<flavor>.txt")


class Batching(_Part):
    """How the measured server shared its model between sessions: the endpoint is deployed to do the same,
    since what one instance carries depends on it. Bounds as the server's KOKORO_MAX_BATCH and
    KOKORO_BATCH_WAIT_MS take them."""

    max_batch: int = Field(ge=1, le=64, description="chunks one model call spoke, across sessions (1: no batching)")
    batch_wait_ms: float = Field(ge=0, le=50, description="how long a batch that was not full waited for company")


class Slo(_Part):
    ttfa_p95_ms: float = Field(gt=0, description="time to first audio, 95th percentile, milliseconds")
    max_stalls: int = Field(ge=0, description="playback stalls after the first audio, over a whole level")


class Growth(_Part):
    sessions_per_minute: float = Field(ge=0, description="how fast sessions are added at peak")


class Policy(_Part):
    metric: PolicyMetric
    statistic: PolicyStatistic
    target_value: float = Field(gt=0, description="target tracking value on metric/statistic, per instance")
    scale_in_threshold: float = Field(ge=0, description="the step scale-in alarm fires below it")
    scale_in_evaluation_minutes: int = Field(ge=1)
    scale_out_cooldown_seconds: int = Field(ge=0)
    scale_in_cooldown_seconds: int = Field(ge=0)
    min_instances: int = Field(ge=1)
    max_instances: int = Field(ge=1)
    admission_limit: int = Field(ge=1, description="the container's max_active_utterances")

    @model_validator(mode="after")
    def _consistent(self) -> Policy:
        if self.max_instances < self.min_instances:
            raise ValueError(f"max_instances {self.max_instances} is below min_instances {self.min_instances}")
        if self.scale_in_threshold >= self.target_value:
            raise ValueError(
                f"scale_in_threshold {self.scale_in_threshold} must be below target_value {self.target_value},"
                " or the two policies fight"
            )
        return self


class Cost(_Part):
    price_table_date: date
    usd_per_instance_hour: float = Field(ge=0)
    usd_per_audio_hour: float = Field(ge=0)
    usd_per_million_chars: float = Field(ge=0)


class CapacityProfile(_Part):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_version: Literal[1] = Field(alias="schema")
    created: AwareDatetime
    instance_type: str = Field(pattern=r"^ml\.[a-z0-9]+\.[a-z0-9]+$", description="like ml.g5.xlarge")
    measured_on: str = Field(min_length=1, description="the endpoint and instances, or 'local ...' for a rehearsal")
    image: Image
    batching: Batching | None = Field(
        default=None, description="the measured server's batching; absent: not pinned, the container's settings apply"
    )
    slo: Slo
    q_max: dict[Route, int] = Field(min_length=1, description="highest level meeting the SLO, per route measured")
    route: Route = Field(description="the route the policy is sized for")
    metric_ratio: float = Field(gt=0, description="policy metric / client in-flight sessions, as measured")
    speech_duty: float = Field(gt=0, le=1, description="share of a session's time that holds the engine")
    scale_out_seconds: float = Field(gt=0, description="from the alarm to the added instance's first traffic")
    growth: Growth
    peak_sessions: int = Field(ge=1)
    policy: Policy
    cost: Cost

    @model_validator(mode="after")
    def _route_measured(self) -> CapacityProfile:
        if any(value < 0 for value in self.q_max.values()):
            raise ValueError(f"q_max values must be 0 or more, got {self.q_max}")
        if self.q_max.get(self.route, 0) < 1:
            raise ValueError(f"route {self.route!r} needs a q_max of 1 or more, got q_max {self.q_max}")
        return self

    @property
    def is_rehearsal(self) -> bool:
        """Measured on a local machine standing for ``instance_type``, not on that instance."""
        return self.measured_on.startswith(LOCAL_PREFIX)

    def to_json(self) -> str:
        # A profile that does not pin batching leaves the part out, as profiles written before it existed do.
        unpinned = {"batching"} if self.batching is None else None
        return self.model_dump_json(by_alias=True, indent=2, exclude=unpinned) + "\n"


def load_profile(path: Path) -> CapacityProfile:
    """Read and validate a profile; any problem raises CapacityProfileError naming the file and the field."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CapacityProfileError(f"capacity profile {path}: cannot read it ({error.strerror})") from error
    except json.JSONDecodeError as error:
        raise CapacityProfileError(f"capacity profile {path}: not JSON ({error})") from error
    if not isinstance(raw, dict):
        raise CapacityProfileError(f"capacity profile {path}: must be a JSON object, got {type(raw).__name__}")
    if raw.get("schema") != SCHEMA_VERSION:
        raise CapacityProfileError(
            f"capacity profile {path}: schema {raw.get('schema')!r} is not supported; this version reads schema "
            f"{SCHEMA_VERSION} (re-run kokoro-stream capacity plan)"
        )
    try:
        return CapacityProfile.model_validate(raw)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or '(profile)'}: {item['msg']}" for item in error.errors()
        )
        raise CapacityProfileError(f"capacity profile {path}: {problems}") from error


def requirements_sha256(requirements: Path) -> str:
    """The image fingerprint a profile records: sha256 of the flavor's pinned requirements file."""
    return hashlib.sha256(requirements.read_bytes()).hexdigest()


def flavor_requirements(repository_root: Path, flavor: Flavor) -> Path:
    return repository_root / "container" / f"requirements-{flavor}.txt"


def created_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
