"""Deployment settings: one typed object, read once from cdk context and validated.

Defaults live in ``cdk.json``; ``-c key=value`` overrides them. Values given on the command
line arrive as strings, so numbers, booleans and JSON objects are parsed here. Any invalid
value stops synth with a message naming the key, the value and what is allowed.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

import aws_cdk as cdk
from aws_cdk import aws_logs as logs
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from kokoro_core.capacity_profile import CapacityProfileError
from kokoro_core.model_cache import ModelCacheError, cache_prefix, check_relative_path, voice_files
from kokoro_core.validation import problems

from . import capacity, instance_types

BIDI_LABEL = "com.amazonaws.sagemaker.capabilities.bidirectional-streaming"
_R = logs.RetentionDays
LOG_RETENTION = {
    1: _R.ONE_DAY,
    3: _R.THREE_DAYS,
    5: _R.FIVE_DAYS,
    7: _R.ONE_WEEK,
    14: _R.TWO_WEEKS,
    30: _R.ONE_MONTH,
    60: _R.TWO_MONTHS,
    90: _R.THREE_MONTHS,
    120: _R.FOUR_MONTHS,
    150: _R.FIVE_MONTHS,
    180: _R.SIX_MONTHS,
    365: _R.ONE_YEAR,
    400: _R.THIRTEEN_MONTHS,
    545: _R.EIGHTEEN_MONTHS,
    731: _R.TWO_YEARS,
    1096: _R.THREE_YEARS,
    1827: _R.FIVE_YEARS,
    2192: _R.SIX_YEARS,
    2557: _R.SEVEN_YEARS,
    2922: _R.EIGHT_YEARS,
    3288: _R.NINE_YEARS,
    3653: _R.TEN_YEARS,
}

ECR_IMAGE_URI = re.compile(
    r"^(?P<account>\d{12})\.dkr\.ecr\.(?P<region>[a-z0-9-]+)\.amazonaws\.com(?:\.cn)?/"
    r"(?P<repository>[a-z0-9][a-z0-9._/-]*)(?::(?P<tag>[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})|@(?P<digest>sha256:[0-9a-f]{64}))$"
)


# Container variables the stack sets itself: the server's metric names and dimensions depend on them.
STACK_OWNED_ENV = frozenset({"KOKORO_ENDPOINT_NAME", "KOKORO_METRICS_NAMESPACE", "KOKORO_LOAD_SAMPLE_SECONDS"})


class SettingsError(ValueError):
    """Raised when cdk context holds an invalid value; the message says what is allowed."""


class SourceFile(BaseModel):
    """A file of the model source. Without sha256, the hub's LFS sha256 at the revision is used."""

    model_config = ConfigDict(extra="forbid")
    bytes: int | None = Field(default=None, gt=0)
    sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")


class ModelSource(BaseModel):
    """Where the model comes from: a Hugging Face repository pinned to a commit."""

    model_config = ConfigDict(extra="forbid")
    repo: str = Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$",
        description="a hub repository id: owner/name",
    )
    revision: str = Field(pattern=r"^[0-9a-f]{40}$", description="a full 40-hex commit id, never a branch")
    files: dict[str, SourceFile] = Field(min_length=1)
    onnx: str
    voices: str

    @field_validator("files")
    @classmethod
    def _plain_paths(cls, files: dict[str, SourceFile]) -> dict[str, SourceFile]:
        for name in files:
            try:
                check_relative_path(name)
            except ModelCacheError as error:
                raise ValueError(str(error)) from None
        return files

    @model_validator(mode="after")
    def _consistent(self) -> ModelSource:
        if self.onnx not in self.files:
            raise ValueError(f"onnx {self.onnx!r} must be one of the listed files")
        if not voice_files(self.files, self.voices):
            raise ValueError(f"voices {self.voices!r} must name a listed .bin file or a folder of them")
        return self

    @property
    def source(self) -> str:
        return f"{self.repo}@{self.revision}"

    @property
    def voice_names(self) -> list[str]:
        return sorted(voice_files(self.files, self.voices))


class Settings(BaseModel):
    """Everything a deployment can vary. Every key is documented in docs/deploy.md (Configuration)."""

    model_config = ConfigDict(extra="forbid")

    endpoint_name: str = Field(
        pattern=r"^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$",
        description="1-63 letters, digits and hyphens, starting and ending with a letter or digit",
    )
    instance_type: str = Field(pattern=r"^ml\.[a-z0-9]+\.[a-z0-9]+$", description="like ml.g5.xlarge")
    min_instances: int = Field(ge=1, le=100, description="1-100; a real-time endpoint keeps at least one instance")
    max_instances: int = Field(ge=1, le=100, description="1-100; above min_instances turns autoscaling on")
    initial_instance_count: int | None = Field(
        default=None, ge=1, le=100, description="instances at creation, between min and max; unset: min_instances"
    )
    capacity_profile: str | None = Field(
        default=None, description="a capacity profile JSON file, relative to the repository root; unset: none"
    )
    scaling_target_concurrency: float = Field(
        gt=0, le=1000, description="concurrent requests (bidi sessions included) per instance that scaling keeps"
    )
    scaling_high_resolution: bool
    scale_out_cooldown_seconds: int = Field(ge=0, le=3600, description="0-3600 seconds")
    scale_in_cooldown_seconds: int = Field(ge=0, le=86400, description="0-86400 seconds")
    queue_depth_scale_out: float | None = Field(
        default=None, gt=0, description="average queued synthesis jobs per instance that adds instances; unset: off"
    )
    alarm_email: str | None = Field(
        default=None, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", description="an email address like ops@example.com"
    )
    alarm_5xx_errors_per_5_minutes: int = Field(ge=1, description="1 or more")
    alarm_model_latency_p95_ms: int = Field(ge=1)
    alarm_ttfa_p95_ms: int = Field(ge=1)
    alarm_cpu_percent: int = Field(ge=1, le=100, description="1-100, of all the instance's vCPUs")
    alarm_gpu_percent: int = Field(ge=1, le=100, description="1-100")
    model_source: ModelSource
    default_voice: str
    hub_endpoint: str = Field(
        pattern=r"^https://[A-Za-z0-9.-]+(:\d+)?(/[A-Za-z0-9._/-]*)?$",
        description="an https:// URL of the hub or a mirror",
    )
    hub_token_secret_arn: str | None = Field(
        default=None,
        pattern=r"^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$",
        description="the full ARN of a Secrets Manager secret (with its 6-character suffix) holding a hub token",
    )
    populate_model_cache: bool
    model_prefix: str | None = Field(
        default=None, pattern=r"^[A-Za-z0-9!_.*'()/-]+/$", description="an S3 key prefix ending in '/', e.g. kokoro/v1/"
    )
    image_uri: str | None = None
    container_env: dict[str, str] = Field(default_factory=dict)
    bucket_removal_policy: Literal["retain", "destroy"]
    keep_endpoint_logs: bool
    inference_ami_version: str = Field(
        description="auto (by instance family) or one of: " + ", ".join(instance_types.INFERENCE_AMIS)
    )
    health_check_timeout_seconds: int = Field(ge=60, le=3600)
    model_download_timeout_seconds: int = Field(ge=60, le=3600)
    log_retention_days: int
    agent: bool
    agent_model_id: str | None = Field(
        default=None,
        pattern=r"^[a-z0-9-]+(\.[a-z0-9-]+)*\.[A-Za-z0-9._:-]+$",
        description="a Bedrock model id or inference profile id, e.g. us.anthropic.claude-haiku-4-5-20251001-v1:0",
    )

    @field_validator(
        "model_prefix",
        "image_uri",
        "alarm_email",
        "initial_instance_count",
        "queue_depth_scale_out",
        "agent_model_id",
        "hub_token_secret_arn",
        "capacity_profile",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        return None if value == "" else value

    @field_validator("image_uri")
    @classmethod
    def _ecr_uri(cls, value: str | None) -> str | None:
        if value and not ECR_IMAGE_URI.match(value):
            raise ValueError(
                "must be an Amazon ECR image like "
                "123456789012.dkr.ecr.us-east-1.amazonaws.com/repo:tag or ...@sha256:<digest>"
            )
        return value or None

    @field_validator("instance_type")
    @classmethod
    def _known_size(cls, instance_type: str) -> str:
        instance_types.vcpus(instance_type)  # the CPU alarm divides by it
        return instance_type

    @field_validator("inference_ami_version")
    @classmethod
    def _known_ami(cls, value: str) -> str:
        if value != "auto" and value not in instance_types.INFERENCE_AMIS:
            raise ValueError(f"must be auto or one of: {', '.join(instance_types.INFERENCE_AMIS)}")
        return value

    @field_validator("container_env")
    @classmethod
    def _env_names(cls, env: dict[str, str]) -> dict[str, str]:
        for name in env:
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]{0,1023}$", name):
                raise ValueError(f"variable name {name!r} must be letters, digits and underscores")
            if name in STACK_OWNED_ENV:
                raise ValueError(
                    f"{name} is set by the stack: the alarms, dashboard and scaling read the metrics it shapes"
                )
        return env

    @field_validator("log_retention_days")
    @classmethod
    def _retention(cls, days: int) -> int:
        if days not in LOG_RETENTION:
            raise ValueError(f"must be one of CloudWatch's retention periods: {', '.join(map(str, LOG_RETENTION))}")
        return days

    @model_validator(mode="after")
    def _voice_exists(self) -> Settings:
        voices = self.model_source.voice_names
        if self.default_voice not in voices:
            raise ValueError(
                f"default_voice {self.default_voice!r} is not in the model source; choose one of: {', '.join(voices)}"
            )
        return self

    @model_validator(mode="after")
    def _consistent_settings(self) -> Settings:
        """Settings that cannot hold together stop synth: scaling never silently disappears."""
        if self.max_instances < self.min_instances:
            raise ValueError(
                f"max_instances={self.max_instances} is below min_instances={self.min_instances}; "
                "set max_instances >= min_instances (equal: a fixed fleet, no autoscaling)"
            )
        count = self.initial_instance_count
        if count is not None and not self.min_instances <= count <= self.max_instances:
            raise ValueError(
                f"initial_instance_count={count} is outside min_instances..max_instances "
                f"({self.min_instances}..{self.max_instances}); choose a count in that range or leave it unset"
            )
        if self.agent and self.agent_model_id is None:
            raise ValueError(
                "agent=true needs the Bedrock model the agent thinks with: "
                "-c agent_model_id=<model or inference profile id>, e.g. us.anthropic.claude-haiku-4-5-20251001-v1:0"
            )
        instance_types.inference_ami(self.instance_type, self.inference_ami_version)  # raises with what to set
        if self.queue_depth_scale_out is not None and not self.autoscaling:
            raise ValueError(
                f"queue_depth_scale_out={self.queue_depth_scale_out} needs autoscaling, but max_instances equals "
                f"min_instances ({self.min_instances}); raise max_instances or unset queue_depth_scale_out"
            )
        return self

    _profile: capacity.DeployedProfile | None = PrivateAttr(default=None)

    @property
    def profile(self) -> capacity.DeployedProfile | None:
        """The measured capacity profile the scaling values came from, when ``capacity_profile`` names one."""
        return self._profile

    def attach_profile(self, profile: capacity.DeployedProfile) -> None:
        """Record the profile whose values these settings hold (set once, by ``settings_from_context``)."""
        self._profile = profile

    @property
    def autoscaling(self) -> bool:
        return self.max_instances > self.min_instances

    @property
    def instance_count(self) -> int:
        """Instances the endpoint starts with."""
        return self.initial_instance_count or self.min_instances

    @property
    def inference_ami(self) -> str | None:
        """The SageMaker host image pinned for the instance type (None on a CPU type: SageMaker's default)."""
        return instance_types.inference_ami(self.instance_type, self.inference_ami_version)

    @property
    def removal_policy(self) -> cdk.RemovalPolicy:
        """What happens to the buckets, and to the KMS keys, when their stack is deleted."""
        return cdk.RemovalPolicy.DESTROY if self.bucket_removal_policy == "destroy" else cdk.RemovalPolicy.RETAIN

    @property
    def log_retention(self) -> logs.RetentionDays:
        return LOG_RETENTION[self.log_retention_days]

    @property
    def cache_prefix(self) -> str:
        """The S3 prefix the model lives under, derived from the source unless given."""
        return self.model_prefix or cache_prefix(self.model_source.source, list(self.model_source.files))

    @property
    def image_reference(self) -> dict[str, str] | None:
        """Repository, tag or digest, account and region of ``image_uri``, when one is given."""
        if not self.image_uri:
            return None
        match = ECR_IMAGE_URI.match(self.image_uri)
        assert match is not None  # validated above
        return {k: v for k, v in match.groupdict().items() if v}


_JSON_KEYS = {"model_source", "container_env"}


def _parse(key: str, value: Any) -> Any:
    """Context given with -c is a string: JSON objects for the structured keys."""
    if key in _JSON_KEYS and isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError as error:
            raise SettingsError(f"context {key}={value!r} is not valid JSON: {error}") from None
    return value


def settings_from_context(context: dict[str, Any]) -> Settings:
    """Build Settings from cdk context (cdk.json plus -c overrides); raise SettingsError."""
    known = set(Settings.model_fields)
    # CDK adds its own context (feature flags like "@aws-cdk/..." and "aws:cdk:..."); project
    # keys are plain snake_case words, so only those are checked for typos.
    ours = {k: v for k, v in context.items() if re.match(r"^[a-z][a-z0-9_]*$", k)}
    unknown = sorted(set(ours) - known)
    if unknown:
        raise SettingsError(f"unknown context key(s) {', '.join(unknown)}; known keys: {', '.join(sorted(known))}")
    values = {k: _parse(k, v) for k, v in ours.items()}
    given = values.get("capacity_profile")
    path = given if isinstance(given, str) and given else None  # anything else is refused by Settings below
    try:
        profile = capacity.read(path) if path else None
    except CapacityProfileError as error:
        raise SettingsError(f"{error} (context capacity_profile={path!r}, relative to the repository root)") from None
    overrides: tuple[str, ...] = ()
    if profile is not None:
        values, overrides = capacity.apply(profile, values)
    try:
        settings = Settings.model_validate(values)
    except ValidationError as error:
        source = (
            f"\n  (the scaling keys and {capacity.ADMISSION_ENV} come from capacity profile {path})" if profile else ""
        )
        raise SettingsError(_describe(error) + source) from None
    if profile is not None and path is not None:
        try:
            capacity.check_deployment(profile, path, settings.instance_type)
        except CapacityProfileError as error:
            raise SettingsError(str(error)) from None
        settings.attach_profile(capacity.DeployedProfile(path, profile, overrides))
    return settings


def _describe(error: ValidationError) -> str:
    lines = []
    for problem in problems(error):
        key = problem.where
        description = _field_description(tuple(key.split("."))) if key else None
        allowed = f" ({description})" if description else ""
        if not key:  # a rule across keys: its message names them
            lines.append(problem.message)
        elif problem.kind == "missing":
            lines.append(f"context key {key!r} is required{allowed}; set it in cdk.json or with -c {key}=...")
        else:
            lines.append(f"context {key}={problem.value!r} is invalid: {problem.message}{allowed}")
    return "invalid configuration:\n  " + "\n  ".join(lines)


def _field_description(location: tuple) -> str | None:
    """The description of the field an error points at, following nested models."""
    model: Any = Settings
    description = None
    for part in location:
        fields = getattr(model, "model_fields", {})
        if part not in fields:
            return None
        description = fields[part].description
        model = fields[part].annotation
    return description
