"""Where the engine runs and how its work is split, decided from what the session actually got: the device,
the engine workers, and how many chunks one model call speaks (a batch, on a device that gains from it).

The GPU image carries CUDA's libraries wherever it runs. On a host without a GPU it runs on the CPU. On a
host with one (or where ``KOKORO_DEVICE=cuda``, as the stacks set on GPU instance types), a CUDA provider
that does not start fails the start, with the reason (``GpuUnavailable``): ONNX Runtime would fall back to
the CPU with nothing but a log line, and an endpoint on a GPU instance serving from its 4 vCPUs is worse than
one that never goes InService. ``KOKORO_ALLOW_CPU_FALLBACK=1`` runs on the CPU then, saying why.

The worker count and the threads per worker follow the provider the session really runs on, never the one
that was hoped for: four workers share a GPU well, but on a CPU they would only split its cores four ways.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, replace
from pathlib import Path

import onnxruntime as ort

from kokoro_core.model_cache import Manifest
from kokoro_server.settings import Device, ServerSettings

from .batch_check import BatchMismatch, check_against_export, check_batch
from .graph_edit import GraphEditError
from .kokoro import Engine, EngineOptions
from .speech_engine import RunsOn

# The GPU image's CUDA (its nvidia-*-cu12 wheels) and the oldest driver that runs it (minor-version compatibility).
CUDA_MAJOR, CUDA_MINIMUM_DRIVER = 12, 525
GPU_WORKERS = 4  # inference calls in flight on one GPU, one chunk each: enough to keep it busy between small calls
# Batched, fewer and larger calls: one speaks while the next batch gathers and its inputs are copied.
GPU_BATCH_WORKERS = 2
# Chunks one call speaks on a GPU, and how long a batch may wait for company: not yet measured on a GPU
# (docs/batching.md#measured); `kokoro_bench.batching --device cuda` measures them.
GPU_MAX_BATCH = 16
GPU_BATCH_WAIT_MS = 4.0
# On a CPU, workers of two threads each (docs/bench/threads.md): a second thread makes one call about
# 1.6x faster, which first audio needs; past two, another worker adds more throughput than another thread.
# A batch does not pay there: one call of several chunks takes longer than they take one after another
# (docs/batching.md#measured), so a CPU speaks one chunk per call.
CPU_THREADS_PER_WORKER = 2
CPU_MAX_BATCH = 1


class GpuUnavailable(RuntimeError):
    """A GPU was expected and ONNX Runtime's CUDA provider did not start; the message says what was seen."""


@dataclass(frozen=True)
class Plan:
    device: RunsOn
    workers: int
    threads_per_worker: int  # 0: ONNX Runtime decides (GPU)
    note: str = ""  # why the plan differs from what was asked, if it does
    max_batch: int = 1  # chunks one model call speaks
    batch_wait_ms: float = 0.0  # how long a batch that is not full may wait for company


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity, which containers narrow), not the host's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _nvidia_driver() -> ctypes.CDLL | None:
    """The NVIDIA driver's CUDA library, None where there is none (a CPU host)."""
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def nvidia_gpus() -> int:
    """GPUs the NVIDIA driver reports to this process; 0 when there is no driver (a CPU host)."""
    driver = _nvidia_driver()
    if driver is None:
        return 0
    count = ctypes.c_int(0)
    if driver.cuInit(0) != 0 or driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def gpu_usable() -> bool:
    """Whether this ONNX Runtime has a CUDA provider and the NVIDIA driver reports a GPU."""
    return "CUDAExecutionProvider" in ort.get_available_providers() and nvidia_gpus() > 0


def cuda_driver_version() -> str | None:
    """The CUDA version the host's NVIDIA driver supports ("12.2"), None without a driver."""
    driver = _nvidia_driver()
    version = ctypes.c_int(0)
    if driver is None or driver.cuDriverGetVersion(ctypes.byref(version)) != 0:
        return None
    return f"{version.value // 1000}.{version.value % 1000 // 10}"


def gpu_failure(providers: tuple[str, ...]) -> str:
    """Why a session meant for the GPU runs on ``providers``: what the host and ONNX Runtime offer."""
    available = ort.get_available_providers()
    if "CUDAExecutionProvider" not in available:
        return f"a GPU was expected, but this onnxruntime has no CUDA provider (it offers {available}): the CPU image?"
    gpus, driver = nvidia_gpus(), cuda_driver_version()
    host = f"{gpus} NVIDIA GPU(s), a driver for CUDA {driver}" if driver else "no NVIDIA driver in the container"
    reason = (
        f"a GPU was expected ({host}), but ONNX Runtime's CUDA provider did not start and the session runs on "
        f"{list(providers)}; ONNX Runtime's log above says why"
    )
    if driver is None or int(driver.split(".")[0]) < CUDA_MAJOR:
        reason += (
            f". Its CUDA {CUDA_MAJOR} build needs an NVIDIA driver of {CUDA_MINIMUM_DRIVER} or newer: on SageMaker, "
            "pin InferenceAmiVersion (inference_ami_version)"
        )
    return reason


def wanted_device(settings: ServerSettings) -> RunsOn:
    if settings.device != "auto":
        return settings.device
    return "cuda" if gpu_usable() else "cpu"


def plan_for(settings: ServerSettings, device: RunsOn, note: str = "") -> Plan:
    if device == "cuda":
        batch = settings.max_batch or GPU_MAX_BATCH
        wait = GPU_BATCH_WAIT_MS if settings.batch_wait_ms is None else settings.batch_wait_ms
        workers = settings.workers or (GPU_BATCH_WORKERS if batch > 1 else GPU_WORKERS)
        threads = 0
    else:
        cores = available_cores()
        workers = settings.workers or max(1, cores // CPU_THREADS_PER_WORKER)
        batch = settings.max_batch or CPU_MAX_BATCH
        wait = settings.batch_wait_ms or 0.0
        threads = max(1, cores // workers)
    if batch <= 1 and settings.batch_wait_ms:
        note = noted(note, f"KOKORO_BATCH_WAIT_MS={settings.batch_wait_ms:g} has no effect at one chunk per call")
    return Plan(device, workers, threads, note, batch, wait if batch > 1 else 0.0)


def noted(note: str, more: str) -> str:
    """``note`` with ``more`` said after it."""
    return "; ".join(filter(None, [note, more]))


def text_threads(plan: Plan) -> int:
    """Threads for the text work around the model: one per worker; a call of several chunks brings several
    chunks' text work at once (their rendering, the next ones' preparation), so as many as it has chunks, up
    to the cores there are."""
    if plan.max_batch <= 1:
        return plan.workers
    return max(plan.workers, min(plan.max_batch, available_cores()))


def admission_bound(settings: ServerSettings, plan: Plan) -> int:
    """Utterances admitted at once: as set, else 64, or two per batch slot (workers × max batch) if more."""
    return settings.max_active_utterances or max(64, 2 * plan.workers * plan.max_batch)


def engine_options(settings: ServerSettings, plan: Plan) -> EngineOptions:
    # ONNX Runtime may fall back to the CPU, which load_on_device notices and decides on; "cuda" would fail.
    device: Device = "auto" if plan.device == "cuda" else plan.device
    return EngineOptions(
        device,
        settings.cudnn_conv_algo_search,
        plan.threads_per_worker,
        settings.engine_slowdown,
        max_batch=plan.max_batch,
    )


def load_on_device(settings: ServerSettings, directory: Path, manifest: Manifest) -> tuple[Engine, Plan]:
    """The engine on the device it really got, and the worker plan for that device. Raises ``GpuUnavailable``
    where a GPU was expected and the CUDA provider did not start, unless the settings allow the CPU then."""
    plan = plan_for(settings, wanted_device(settings))
    engine, plan = _batching_or_not(settings, directory, manifest, plan)
    if engine.device != plan.device:
        reason = gpu_failure(engine.providers)
        if not settings.allow_cpu_fallback:
            raise GpuUnavailable(f"{reason}. Set KOKORO_ALLOW_CPU_FALLBACK=1 to run on the CPU instead")
        note = f"{reason}; running on the CPU (KOKORO_ALLOW_CPU_FALLBACK)"
        engine, plan = _batching_or_not(settings, directory, manifest, plan_for(settings, "cpu", note))
    return engine, plan


def _batching_or_not(settings: ServerSettings, directory: Path, manifest: Manifest, plan: Plan) -> tuple[Engine, Plan]:
    """The engine for ``plan``. Batching is turned off, with the reason in the plan's note, when the graph
    cannot be made to speak a batch (an export this server does not know), or the rewritten graph does not
    speak as it must (``batch_check``): the export's engine, which speaks one chunk per call, serves then."""
    single = replace(plan, max_batch=1, batch_wait_ms=0.0)
    exported = Engine(directory, manifest, engine_options(settings, single))
    if plan.max_batch <= 1 or exported.device != plan.device:  # not on the device planned for: load_on_device decides
        return exported, plan
    try:
        engine = Engine(directory, manifest, engine_options(settings, plan))
        check_batch(engine)
        check_against_export(engine, exported)
    except Exception as error:  # whatever fails in the rewrite or its checks, the export speaks as it is
        expected = isinstance(error, GraphEditError | BatchMismatch)
        reason = "batching off: " + (str(error) if expected else f"{type(error).__name__}: {str(error)[:300]}")
        # The plan of what runs: one chunk per call, with as many workers as that wants.
        unbatched = settings.model_copy(update={"max_batch": 1, "batch_wait_ms": None})
        return exported, plan_for(unbatched, plan.device, noted(plan.note, reason))
    return engine, plan
