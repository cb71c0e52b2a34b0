"""Where the engine runs and how its work is split, decided from what the session actually got.

The GPU image carries CUDA's libraries wherever it runs: on a host without a GPU, or with an
NVIDIA driver too old for CUDA 12, ONNX Runtime falls back to the CPU. The worker count and the
threads per worker follow the provider the session really runs on, never the one that was hoped
for: four workers share a GPU well, but on a CPU they would only split its cores four ways.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from pathlib import Path

import onnxruntime as ort

from kokoro_core.model_cache import Manifest
from kokoro_server.settings import Device, ServerSettings

from .kokoro import Engine, EngineOptions
from .speech_engine import RunsOn

GPU_WORKERS = 4  # inference calls in flight on one GPU: enough to keep it busy between small calls
# On a CPU, workers of two threads each (docs/bench/threads.md): a second thread makes one call about
# 1.6x faster, which first audio needs; past two, another worker adds more throughput than another thread.
CPU_THREADS_PER_WORKER = 2


@dataclass(frozen=True)
class Plan:
    device: RunsOn
    workers: int
    threads_per_worker: int  # 0: ONNX Runtime decides (GPU)
    note: str = ""  # why the plan differs from what was asked, if it does


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity, which containers narrow), not the host's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def nvidia_gpus() -> int:
    """GPUs the NVIDIA driver reports to this process; 0 when there is no driver (a CPU host)."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0
    count = ctypes.c_int(0)
    if driver.cuInit(0) != 0 or driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def wanted_device(settings: ServerSettings) -> RunsOn:
    if settings.device != "auto":
        return settings.device
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        return "cpu"
    return "cuda" if nvidia_gpus() else "cpu"


def plan_for(settings: ServerSettings, device: RunsOn, note: str = "") -> Plan:
    if device == "cuda":
        return Plan("cuda", settings.workers or GPU_WORKERS, 0, note)
    cores = available_cores()
    workers = settings.workers or max(1, cores // CPU_THREADS_PER_WORKER)
    return Plan("cpu", workers, max(1, cores // workers), note)


def engine_options(settings: ServerSettings, plan: Plan) -> EngineOptions:
    device: Device
    if settings.device == "auto" and plan.device == "cuda":
        device = "auto"  # ONNX Runtime may fall back to the CPU, which load_on_device notices; "cuda" would fail
    else:
        device = plan.device
    return EngineOptions(device, settings.cudnn_conv_algo_search, plan.threads_per_worker, settings.engine_slowdown)


def load_on_device(settings: ServerSettings, directory: Path, manifest: Manifest) -> tuple[Engine, Plan]:
    """The engine on the device it really got, and the worker plan for that device."""
    plan = plan_for(settings, wanted_device(settings))
    engine = Engine(directory, manifest, engine_options(settings, plan))
    if engine.device != plan.device:
        note = (
            "a GPU is present but ONNX Runtime could not use it (its CUDA 12 build needs an NVIDIA driver of "
            "525 or newer: on SageMaker, pin InferenceAmiVersion); running on the CPU"
        )
        plan = plan_for(settings, "cpu", note)
        engine = Engine(directory, manifest, engine_options(settings, plan))
    return engine, plan
