"""What the stacks need to know about a SageMaker instance type, read from its name."""

from __future__ import annotations

import re
from typing import Literal

# Instance families with local NVMe storage: SageMaker rejects a KMS key for their volumes.
_LOCAL_STORAGE_FAMILIES = {"g5", "g6", "g6e", "p4d", "p4de", "p5", "p5e", "p5en", "trn1", "trn1n", "trn2"}
_FIXED_SIZES = {"medium": 2, "large": 2, "xlarge": 4}  # medium: the burstable t2/t3 types, 2 vCPUs

# SageMaker's GPU host images (ProductionVariant InferenceAmiVersion) and their NVIDIA drivers. Without
# one, g4dn/g5/p4d hosts run driver 470 (CUDA 11.4), which cannot run the image's CUDA 12 libraries.
INFERENCE_AMIS = {
    "al2-ami-sagemaker-inference-gpu-2": "NVIDIA driver 535, CUDA 12.2",
    "al2-ami-sagemaker-inference-gpu-2-1": "NVIDIA driver 535, CUDA 12.2, no CUDA-compat mounting",
    "al2-ami-sagemaker-inference-gpu-3-1": "NVIDIA driver 550, CUDA 12.4, no CUDA-compat mounting",
}
# The image carries CUDA 12.9's libraries (nvidia-*-cu12 wheels, container/requirements-gpu.txt) for a driver of
# CUDA 12.2 or 12.4: CUDA's minor-version compatibility runs any CUDA 12.x runtime on a driver of 525 or newer,
# with no PTX compiled at run time (ONNX Runtime ships its kernels compiled for each GPU architecture). The
# tests hold every host image above to it.
CUDA_MAJOR = 12
MINIMUM_DRIVER = 525


def driver_of(ami: str) -> int:
    """The NVIDIA driver's major version on SageMaker host image ``ami``."""
    return int(INFERENCE_AMIS[ami].split(",")[0].removeprefix("NVIDIA driver "))


# Per family, the AMI documented for it: gpu-2 lists g4dn, g5, g6, p3, p4d, p4de and p5 as supported;
# p5e and p5en run driver 550 by default, and so does the gpu-3-1 image chosen for g6e.
_FAMILY_AMI = {
    **dict.fromkeys(("g4dn", "g5", "g6", "p3", "p4d", "p4de", "p5"), "al2-ami-sagemaker-inference-gpu-2"),
    **dict.fromkeys(("g6e", "p5e", "p5en"), "al2-ami-sagemaker-inference-gpu-3-1"),
}


def family(instance_type: str) -> str:
    return instance_type.split(".")[1]


def has_instance_storage(instance_type: str) -> bool:
    name = family(instance_type)
    generation_suffix = re.sub(r"^[a-z]+\d+", "", name)
    return name in _LOCAL_STORAGE_FAMILIES or "d" in generation_suffix


def has_gpu(instance_type: str) -> bool:
    """NVIDIA GPU families (g4dn, g5, g6, p4d, p5, ...)."""
    return family(instance_type)[0] in "gp"


def image_flavor(instance_type: str) -> Literal["cpu", "gpu"]:
    """The image flavor the instance type runs: CUDA on a GPU type, the small CPU image otherwise."""
    return "gpu" if has_gpu(instance_type) else "cpu"


def vcpus(instance_type: str) -> int:
    """vCPUs from the size, as EC2 names them: xlarge has 4, each Nxlarge 4N."""
    size = instance_type.split(".")[2]
    if size in _FIXED_SIZES:
        return _FIXED_SIZES[size]
    match = re.fullmatch(r"(\d+)xlarge", size)
    if not match:
        raise ValueError(f"instance size {size!r} of {instance_type} is not medium, large, xlarge or Nxlarge")
    return 4 * int(match.group(1))


def inference_ami(instance_type: str, choice: str) -> str | None:
    """The host image for ``instance_type``: ``choice`` if it names one, else the family's; None on a CPU."""
    if not has_gpu(instance_type):
        if choice != "auto":
            raise ValueError(f"{instance_type} has no GPU; inference_ami_version applies to GPU instance types only")
        return None
    if choice != "auto":
        return choice
    ami = _FAMILY_AMI.get(family(instance_type))
    if ami is None:
        raise ValueError(
            f"no SageMaker host image is known here to run CUDA 12 on {instance_type}; set inference_ami_version "
            f"to one that supports it: {', '.join(INFERENCE_AMIS)}"
        )
    return ami
