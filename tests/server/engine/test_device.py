"""The worker plan follows the device the engine really runs on."""

from __future__ import annotations

import pytest

from kokoro_core.model_cache import verify_directory
from kokoro_server.engine import device, model_session
from kokoro_server.engine.device import (
    GPU_BATCH_WAIT_MS,
    GPU_BATCH_WORKERS,
    GPU_MAX_BATCH,
    GPU_WORKERS,
    GpuUnavailable,
    admission_bound,
    load_on_device,
    plan_for,
    text_threads,
)
from kokoro_server.engine.graph_edit import GraphEditError
from kokoro_server.engine.kokoro import Engine
from kokoro_server.settings import ServerSettings


@pytest.mark.parametrize(("cores", "workers", "threads"), [(1, 1, 1), (2, 1, 2), (4, 2, 2), (8, 4, 2), (5, 2, 2)])
def test_a_cpu_gets_workers_of_two_threads(monkeypatch, cores, workers, threads) -> None:
    monkeypatch.setattr(device, "available_cores", lambda: cores)
    assert plan_for(ServerSettings(), "cpu") == device.Plan("cpu", workers, threads)


def test_a_gpu_gets_several_workers_and_an_explicit_count_wins(monkeypatch) -> None:
    monkeypatch.setattr(device, "available_cores", lambda: 8)
    batched = device.Plan("cuda", GPU_BATCH_WORKERS, 0, "", GPU_MAX_BATCH, GPU_BATCH_WAIT_MS)
    assert plan_for(ServerSettings(), "cuda") == batched
    assert plan_for(ServerSettings(max_batch=1), "cuda") == device.Plan("cuda", GPU_WORKERS, 0)
    assert plan_for(ServerSettings(workers=8), "cpu") == device.Plan("cpu", 8, 1)


def test_a_cpu_speaks_one_chunk_per_call_unless_told_and_admission_counts_batch_slots(monkeypatch) -> None:
    monkeypatch.setattr(device, "available_cores", lambda: 8)
    assert plan_for(ServerSettings(), "cpu").max_batch == 1
    told = plan_for(ServerSettings(max_batch=4, batch_wait_ms=2), "cpu")
    assert (told.max_batch, told.batch_wait_ms) == (4, 2.0)
    waitless = plan_for(ServerSettings(batch_wait_ms=2), "cpu")
    assert (
        waitless.batch_wait_ms == 0.0 and "KOKORO_BATCH_WAIT_MS=2 has no effect" in waitless.note
    )  # nothing to wait for
    assert admission_bound(ServerSettings(), plan_for(ServerSettings(), "cpu")) == 64
    assert (
        admission_bound(ServerSettings(), plan_for(ServerSettings(max_batch=32), "cuda")) == 2 * GPU_BATCH_WORKERS * 32
    )
    assert admission_bound(ServerSettings(max_active_utterances=5), told) == 5


def test_text_threads_grow_with_the_chunks_a_call_speaks_up_to_the_cores(monkeypatch) -> None:
    monkeypatch.setattr(device, "available_cores", lambda: 4)
    assert text_threads(plan_for(ServerSettings(), "cpu")) == 2  # one per worker
    assert text_threads(plan_for(ServerSettings(max_batch=2), "cpu")) == 2
    assert text_threads(plan_for(ServerSettings(max_batch=16), "cuda")) == 4  # the cores, not 16
    assert text_threads(plan_for(ServerSettings(max_batch=1, workers=6), "cuda")) == 6


def test_no_nvidia_driver_means_the_cpu_without_trying_cuda(monkeypatch) -> None:
    monkeypatch.setattr(
        device.ort, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"]
    )
    monkeypatch.setattr(device, "nvidia_gpus", lambda: 0)
    assert device.wanted_device(ServerSettings()) == "cpu"
    assert device.wanted_device(ServerSettings(device="cuda")) == "cuda"  # asked for: it fails loudly if absent


def cuda_offered_but_not_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a GPU host whose driver is too old for CUDA 12: ONNX Runtime offers the CUDA provider and a GPU is
    seen, but the session falls back to the CPU (here, because this onnxruntime has no CUDA kernels at all)."""
    monkeypatch.setattr(
        device.ort, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"]
    )
    monkeypatch.setattr(device, "nvidia_gpus", lambda: 1)
    monkeypatch.setattr(device, "cuda_driver_version", lambda: "11.4")


@pytest.mark.parametrize("asked", ["auto", "cuda"])
def test_a_gpu_whose_cuda_provider_does_not_start_fails_the_start_naming_it(
    embedded_model_dir, monkeypatch, asked
) -> None:
    cuda_offered_but_not_started(monkeypatch)
    with pytest.raises(GpuUnavailable) as failed:
        load_on_device(ServerSettings(device=asked), embedded_model_dir, verify_directory(embedded_model_dir))
    message = str(failed.value)
    assert "CUDA provider did not start" in message and "CUDA 11.4" in message  # what the host offers
    assert "['CPUExecutionProvider']" in message and "KOKORO_ALLOW_CPU_FALLBACK=1" in message  # and the way out


def test_a_deployment_that_allows_the_cpu_gets_the_cpu_plan_and_says_why(embedded_model_dir, monkeypatch) -> None:
    cuda_offered_but_not_started(monkeypatch)
    settings = ServerSettings(allow_cpu_fallback=True)
    engine, plan = load_on_device(settings, embedded_model_dir, verify_directory(embedded_model_dir))
    assert engine.device == plan.device == "cpu"
    assert plan == plan_for(settings, "cpu", plan.note)  # the CPU's plan, not the GPU's
    assert "CUDA provider did not start" in plan.note and "running on the CPU" in plan.note


def test_the_cpu_onnxruntime_where_a_gpu_is_required_says_so() -> None:
    assert "this onnxruntime has no CUDA provider" in device.gpu_failure(("CPUExecutionProvider",))


def test_a_cpu_by_choice_needs_no_note(embedded_model_dir, monkeypatch) -> None:
    cuda_offered_but_not_started(monkeypatch)
    engine, plan = load_on_device(
        ServerSettings(device="cpu"), embedded_model_dir, verify_directory(embedded_model_dir)
    )
    assert engine.device == plan.device == "cpu" and plan == plan_for(ServerSettings(device="cpu"), "cpu")


def test_a_gpu_plan_whose_rewrite_fails_gets_the_workers_of_one_chunk_per_call(embedded_model_dir, monkeypatch) -> None:
    def unknown_graph(*_: object) -> None:
        raise GraphEditError("no node computes '/decoder/decoder/generator/Concat'")

    monkeypatch.setattr(model_session, "batch_capable", unknown_graph)
    monkeypatch.setattr(Engine, "device", property(lambda engine: "cuda"))  # as its session would be on a GPU
    settings = ServerSettings()
    batched = plan_for(settings, "cuda")
    assert (batched.workers, batched.max_batch) == (GPU_BATCH_WORKERS, GPU_MAX_BATCH)
    _, plan = device._batching_or_not(settings, embedded_model_dir, verify_directory(embedded_model_dir), batched)
    assert (plan.workers, plan.max_batch, plan.batch_wait_ms) == (GPU_WORKERS, 1, 0.0)  # what really runs
    assert plan.note == "batching off: no node computes '/decoder/decoder/generator/Concat'"


def test_a_server_told_its_instance_type_has_a_gpu_fails_its_start_without_one(embedded_model_dir) -> None:
    """As the stack starts it on a GPU instance type (KOKORO_DEVICE=cuda), on a host whose ONNX Runtime has no
    CUDA provider: the process exits 1 with a fatal event that names the cause, and /ping never answers 200."""
    from kokoro_tools.ports import free_port
    from tests.server.serving.server_process import log_events, ping_statuses, start

    port = free_port()
    process = start(embedded_model_dir, port, KOKORO_DEVICE="cuda")
    try:
        statuses = ping_statuses(port, process)
        output, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert 200 not in statuses and process.returncode == 1
    (fatal,) = [event for event in log_events(output) if event["event"] == "fatal"]
    assert "a GPU was expected" in fatal["error"] and "KOKORO_ALLOW_CPU_FALLBACK=1" in fatal["error"]
