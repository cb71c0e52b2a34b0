"""What the stacks need to know about a SageMaker instance type, read from its name."""

from __future__ import annotations

import re

# Instance families with local NVMe storage: SageMaker rejects a KMS key for their volumes.
_LOCAL_STORAGE_FAMILIES = {"g5", "g6", "g6e", "p4d", "p4de", "p5", "p5e", "p5en", "trn1", "trn1n", "trn2"}
_FIXED_SIZES = {"medium": 1, "large": 2, "xlarge": 4}


def family(instance_type: str) -> str:
    return instance_type.split(".")[1]


def has_instance_storage(instance_type: str) -> bool:
    name = family(instance_type)
    generation_suffix = re.sub(r"^[a-z]+\d+", "", name)
    return name in _LOCAL_STORAGE_FAMILIES or "d" in generation_suffix


def has_gpu(instance_type: str) -> bool:
    """NVIDIA GPU families (g4dn, g5, g6, p4d, p5, ...)."""
    return family(instance_type)[0] in "gp"


def vcpus(instance_type: str) -> int:
    """vCPUs from the size, as EC2 names them: xlarge has 4, each Nxlarge 4N."""
    size = instance_type.split(".")[2]
    if size in _FIXED_SIZES:
        return _FIXED_SIZES[size]
    match = re.fullmatch(r"(\d+)xlarge", size)
    if not match:
        raise ValueError(f"instance size {size!r} of {instance_type} is not medium, large, xlarge or Nxlarge")
    return 4 * int(match.group(1))
