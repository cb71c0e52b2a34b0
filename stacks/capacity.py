"""A measured capacity profile, as the stacks deploy it: read, checked against the deployment, and laid
over the hand-set context keys it decides.

The profile is written by ``kokoro-stream capacity plan`` and validated by its own model
(``kokoro_core.capacity_profile``). The profile wins over the keys it sets: it is a measurement of this
instance type and image, the hand-set values are guesses, and synth names every value it replaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kokoro_core.capacity_profile import (
    CapacityProfile,
    CapacityProfileError,
    flavor_requirements,
    load_profile,
    requirements_sha256,
)

from .image_context import REPO_ROOT
from .instance_types import image_flavor

# The server settings the profile decides (container/kokoro_server/settings.py): its admission limit, and
# its batching when it has one, so the endpoint shares its model as the measured instance did.
ADMISSION_ENV = "KOKORO_MAX_ACTIVE_UTTERANCES"
MAX_BATCH_ENV = "KOKORO_MAX_BATCH"
BATCH_WAIT_ENV = "KOKORO_BATCH_WAIT_MS"


@dataclass(frozen=True)
class DeployedProfile:
    """The profile a deployment uses: where it came from, what it says, and what it replaced."""

    path: str  # as given in the context
    profile: CapacityProfile
    overrides: tuple[str, ...]  # "key: hand-set → profile", one per replaced value

    def summary(self) -> str:
        policy = self.profile.policy
        lines = [
            f"capacity profile {self.path} (measured on {self.profile.measured_on}, {self.profile.created:%Y-%m-%d}): "
            f"{policy.min_instances}-{policy.max_instances} instances, target tracking on {policy.metric} "
            f"{policy.statistic} at {policy.target_value:g} per instance (scale-in off), step scale-in -1 below "
            f"{policy.scale_in_threshold:g} for {policy.scale_in_evaluation_minutes} min, admission limit "
            f"{policy.admission_limit}, {self._batching()}"
        ]
        if self.overrides:
            lines.append("the profile replaces these hand-set values: " + "; ".join(self.overrides))
        return "\n".join(lines)

    def _batching(self) -> str:
        batching = self.profile.batching
        if batching is None:
            return "batching not pinned (the container's settings apply)"
        return f"batching {batching.max_batch} chunks per model call with a {batching.batch_wait_ms:g} ms wait"


def read(path: str, root: Path = REPO_ROOT) -> CapacityProfile:
    """The profile at ``path`` (relative to the repository root); CapacityProfileError names file and field."""
    return load_profile(root / path)


def profile_env(profile: CapacityProfile) -> dict[str, str]:
    """The container variables the profile decides; without a batching part, batching is not among them."""
    env = {ADMISSION_ENV: str(profile.policy.admission_limit)}
    if profile.batching is not None:
        env[MAX_BATCH_ENV] = str(profile.batching.max_batch)
        env[BATCH_WAIT_ENV] = f"{profile.batching.batch_wait_ms:g}"
    return env


def profile_context(profile: CapacityProfile, container_env: dict[str, str]) -> dict[str, Any]:
    """The context values the profile decides."""
    policy = profile.policy
    return {
        "min_instances": policy.min_instances,
        "max_instances": policy.max_instances,
        "scaling_target_concurrency": policy.target_value,
        "scale_out_cooldown_seconds": policy.scale_out_cooldown_seconds,
        "scale_in_cooldown_seconds": policy.scale_in_cooldown_seconds,
        "container_env": {**container_env, **profile_env(profile)},
    }


def apply(profile: CapacityProfile, values: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``values`` with the profile's keys laid over them, and a line for each hand-set value replaced."""
    env = values.get("container_env") or {}
    hand_set_env = env if isinstance(env, dict) else {}
    decided = profile_context(profile, hand_set_env)
    overrides = []
    for key, value in decided.items():
        if key == "container_env":
            for name, after in profile_env(profile).items():
                before = hand_set_env.get(name)
                if before is not None and _differs(before, after):
                    overrides.append(f"container_env.{name}: {before} → {after}")
        elif key in values and _differs(values[key], value):
            overrides.append(f"{key}: {values[key]} → {value}")
    return {**values, **decided}, tuple(overrides)


def _differs(hand_set: Any, measured: Any) -> bool:
    """Context from the command line is a string: "60" and 60 are the same value."""
    try:
        return float(hand_set) != float(measured)
    except (TypeError, ValueError):
        return True


def check_deployment(profile: CapacityProfile, path: str, instance_type: str, root: Path = REPO_ROOT) -> None:
    """Refuse a profile measured on another instance type or another image than this deployment's."""
    if profile.instance_type != instance_type:
        raise CapacityProfileError(
            f"capacity profile {path} was measured for {profile.instance_type}, but this deployment runs "
            f"{instance_type}: measure and plan again for {instance_type} (kokoro-stream capacity), or deploy "
            f"-c instance_type={profile.instance_type}"
        )
    flavor = image_flavor(instance_type)
    if profile.image.flavor != flavor:
        raise CapacityProfileError(
            f"capacity profile {path} was measured with the {profile.image.flavor} image, but {instance_type} "
            f"runs the {flavor} image: measure and plan again with the {flavor} image"
        )
    requirements = flavor_requirements(root, flavor)
    current = requirements_sha256(requirements)
    if profile.image.requirements_sha256 != current:
        raise CapacityProfileError(
            f"capacity profile {path} was measured with another image: its requirements_sha256 "
            f"{profile.image.requirements_sha256} is not the sha256 of {requirements.relative_to(root)} "
            f"({current}); the pinned packages changed since, so measure and plan again with this image"
        )
