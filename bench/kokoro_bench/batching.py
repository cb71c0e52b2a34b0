"""Batching across sessions, measured: the engine alone at batch sizes 1 to 16, then servers with 1 to 16
sessions starting at once, batching off and on side by side in one run.

    uv run python -m kokoro_bench.batching --out docs/bench/batching.json --plot docs/bench/batching.png
    uv run python -m kokoro_bench.batching --device cuda --out OUT/batching.json --plot OUT/batching.png
    uv run python -m kokoro_bench.batching --engine fake --out /tmp/batching.json      # the steps, in seconds

On a CPU the model is the embedded int8 model; ``--device cuda`` is the GPU script: the float graph rebuilt
from the int8 weights (no hub on the device either; put the CUDA build of ONNX Runtime in place first:
``uv pip uninstall onnxruntime`` then ``uv pip install "onnxruntime-gpu[cuda,cudnn]==1.26.0"``), batch sizes
and sessions up to 64, each cuDNN convolution search but the exhaustive one first, within ten minutes on one
GPU.

1. **Engine**: corpus chunks of close lengths, spoken as batches of each size by one engine whose graph takes
   a batch; per size, audio seconds per wall second and each item's latency (an item's audio is there when its
   call ends). Beside it, the export as it is, one chunk per call: what a server without batching runs.
2. **Equivalence**, the same chunks: each item of a batch against itself alone (durations, samples), and the
   batch-capable graph alone against the export alone (what its numerics change: durations, word marks, SNR).
3. **Server**: one server per configuration (batching off, the device's defaults, and batching forced on),
   all loaded at once; at each level every configuration in turn, so drift hits them alike. A level is that
   many sessions speaking a short reply at the same moment: TTFA p50, p95 and max, max over min, audio
   seconds per wall second, stalls. Ratios against "off" are computed per level.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kokoro_bench.corpus import AGENT_REPLIES, load_replies
from kokoro_capacity.timeline import percentile
from kokoro_core.chunker import chunk_text
from kokoro_core.model_cache import verify_directory
from kokoro_server.engine.batch_check import snr_db
from kokoro_server.engine.fake_engine import FakeEngine
from kokoro_server.engine.kokoro import SAMPLE_RATE, Engine, EngineOptions
from kokoro_server.engine.speech_engine import PreparedChunk, Speech, SpeechEngine, SpeechRequest
from kokoro_server.serving.background import BackgroundServer
from kokoro_server.settings import CudnnAlgoSearch, ServerSettings
from kokoro_stream.websocket_transport import WebSocketTransport

from .server_overhead import emit
from .strategies import Target
from .sweep import concurrency_level

VOICE = "af_heart"
REPLY = "short-yes"
TOKENS_PER_SECOND = 60.0


@dataclass(frozen=True)
class Plan:
    sizes: tuple[int, ...]
    levels: tuple[int, ...]
    forced_batch: int  # "batching on" where the device's default is off
    repeats: int  # of each engine batch
    server_repeats: int  # of each server level, the configurations' order reversed each time


PLANS = {
    "cpu": Plan(sizes=(1, 2, 4, 8, 16), levels=(1, 2, 4, 8, 16), forced_batch=4, repeats=1, server_repeats=2),
    "cuda": Plan(
        sizes=(1, 2, 4, 8, 16, 32, 64), levels=(1, 2, 4, 8, 16, 32, 64), forced_batch=32, repeats=3, server_repeats=2
    ),
    "fake": Plan(sizes=(1, 2, 4), levels=(1, 2, 4), forced_batch=4, repeats=1, server_repeats=2),
}
FAKE_REAL_TIME_FACTOR = 0.05  # a fake device that speaks a batch in the time of its longest item


def corpus_chunks(engine: SpeechEngine, count: int) -> list[PreparedChunk]:
    """The ``count`` corpus chunks nearest the corpus's median length (the corpus again if it has fewer), the
    nearest first: the first ``n`` of them batch with little padding, as the scheduler groups them."""
    texts = [chunk for reply in load_replies(AGENT_REPLIES).values() for chunk in chunk_text(reply)]
    prepared = sorted((engine.prepare(text, VOICE) for text in texts), key=lambda chunk: chunk.length)
    median = prepared[len(prepared) // 2].length
    nearest = sorted(prepared, key=lambda chunk: abs(chunk.length - median))
    return (nearest * (1 + count // len(nearest)))[:count]


def seconds_of(speech: Speech | Exception) -> float:
    assert isinstance(speech, Speech), speech
    return len(speech.audio) / SAMPLE_RATE


def engine_figures(engine: SpeechEngine, alone: SpeechEngine | None, plan: Plan) -> dict[str, Any]:
    """Per batch size: audio seconds per wall second and per-item latency; and the export, one chunk a call."""
    chunks = corpus_chunks(engine, max(plan.sizes))
    engine.speak_batch([SpeechRequest(chunks[0])])  # first-call costs
    sizes = []
    for size in plan.sizes:
        walls, audio = [], 0.0
        for _ in range(plan.repeats):
            batch = [SpeechRequest(chunk) for chunk in chunks[:size]]
            started = time.perf_counter()
            spoken = engine.speak_batch(batch)
            walls.append(time.perf_counter() - started)
            audio += sum(seconds_of(speech) for speech in spoken)
        wall = sum(walls)
        sizes.append(
            {
                "batch": size,
                "audio_s_per_s": round(audio / wall, 3),
                "item_latency_ms": round(1000 * statistics.median(walls), 1),
                "tokens": [min(chunk.length for chunk in chunks[:size]), max(chunk.length for chunk in chunks[:size])],
            }
        )
    figures: dict[str, Any] = {"sizes": sizes}
    if alone is not None:  # the same chunks, each in a call of its own on the export as it is
        started, audio = time.perf_counter(), 0.0
        for chunk in chunks:
            audio += seconds_of(alone.speak(chunk))
        figures["export_one_per_call_audio_s_per_s"] = round(audio / (time.perf_counter() - started), 3)
    return figures


def rounded_snr_db(reference: np.ndarray, other: np.ndarray) -> float | None:
    """``other``'s signal-to-noise ratio against ``reference`` (same length), dB; None when they are identical."""
    snr = snr_db(reference, other)
    return round(snr, 1) if np.isfinite(snr) else None


def equivalence(engine: Engine, export: Engine, items: int) -> dict[str, Any]:
    """Each item of a batch against itself alone (its samples and its word marks), and the batch-capable graph
    against the export, each alone, on the model's own output before trimming (its durations, its audio)."""
    chunks = corpus_chunks(engine, items)
    speeds = np.linspace(0.8, 1.3, items)
    requests = [SpeechRequest(chunk, float(speed)) for chunk, speed in zip(chunks, speeds, strict=True)]
    together = engine.speak_batch(requests)
    batched = {"items": items, "identical_samples": 0, "same_marks": 0}
    export_rows = []
    for request, speech in zip(requests, together, strict=True):
        (single,) = engine.speak_batch([SpeechRequest(request.chunk, request.speed)])
        assert isinstance(speech, Speech) and isinstance(single, Speech)
        batched["identical_samples"] += bool(np.array_equal(single.audio, speech.audio))
        batched["same_marks"] += speech.words == single.words
        ours = engine.model_outputs(request.chunk, request.speed)
        theirs = export.model_outputs(request.chunk, request.speed)
        durations = np.concatenate([frames for _, frames in ours]), np.concatenate([frames for _, frames in theirs])
        audio = np.concatenate([samples for samples, _ in ours]), np.concatenate([samples for samples, _ in theirs])
        same_length = len(audio[0]) == len(audio[1])
        export_rows.append(
            {
                "tokens": int(len(durations[0])),
                "tokens_of_other_duration": int((durations[0] != durations[1]).sum()),
                "largest_frame_difference": int(np.abs(durations[0] - durations[1]).max()),
                "identical_audio": bool(same_length and np.array_equal(audio[0], audio[1])),
                "snr_db": rounded_snr_db(audio[1], audio[0]) if same_length else None,  # None too when lengths differ
            }
        )
    return {"batched_vs_alone": batched, "batch_graph_vs_export": export_rows}


def pooled(sessions: int, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One level's figures over its repeats: TTFA percentiles over every session of every repeat."""
    ttfas = sorted(ttfa for run in runs for ttfa in run["ttfas_ms"])
    return {
        "sessions": sessions,
        "repeats": len(runs),
        "ttfa_p50_ms": round(percentile(ttfas, 50), 1),
        "ttfa_p95_ms": round(percentile(ttfas, 95), 1),
        "ttfa_max_ms": round(max(ttfas), 1),
        "fairness_max_over_min_ttfa": round(statistics.mean(run["fairness_max_over_min_ttfa"] for run in runs), 2),
        "throughput_audio_s_per_s": round(statistics.mean(run["throughput_audio_s_per_s"] for run in runs), 3),
        "stalls": sum(run["stalls"] for run in runs),
        "chunks_per_call": round(statistics.mean(run["chunks_per_call"] for run in runs), 2),
    }


async def server_level(server: BackgroundServer, sessions: int, text: str) -> dict[str, Any]:
    target = Target(lambda: WebSocketTransport(server.ws_url), None, "local", None, VOICE)  # type: ignore[arg-type]
    return await concurrency_level(target, sessions, text, TOKENS_PER_SECOND)


def server_figures(configs: dict[str, ServerSettings], engine_for: Any, plan: Plan) -> dict[str, Any]:
    text = load_replies(AGENT_REPLIES)[REPLY]
    servers = {name: BackgroundServer(settings, engine_for(name)).start() for name, settings in configs.items()}
    try:
        plans = {
            name: {
                "max_batch": server.server.runtime.scheduler.max_batch,
                "batch_wait_ms": server.server.runtime.plan.batch_wait_ms if server.server.runtime.plan else 0.0,
                "workers": server.server.runtime.scheduler.workers,
            }
            for name, server in servers.items()
        }
        levels: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
        for level in plan.levels:
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
            for repeat in range(plan.server_repeats):  # each configuration in turn, the order reversed each time
                for name in list(servers)[:: 1 if repeat % 2 == 0 else -1]:
                    scheduler = servers[name].server.runtime.scheduler
                    calls, items = scheduler.calls, scheduler.items
                    figures = asyncio.run(server_level(servers[name], level, text))
                    figures["chunks_per_call"] = (scheduler.items - items) / max(1, scheduler.calls - calls)
                    runs[name].append(figures)
            for name, figures in runs.items():
                levels[name].append(pooled(level, figures))
    finally:
        for server in servers.values():
            server.stop()
    ratios = [
        {
            "sessions": off["sessions"],
            **{
                name: {
                    "ttfa_p50_x": round(row["ttfa_p50_ms"] / off["ttfa_p50_ms"], 3),
                    "ttfa_p95_x": round(row["ttfa_p95_ms"] / off["ttfa_p95_ms"], 3),
                    "throughput_x": round(row["throughput_audio_s_per_s"] / off["throughput_audio_s_per_s"], 3),
                }
                for name, rows in levels.items()
                if name != "off"
                for row in [rows[index]]
            },
        }
        for index, off in enumerate(levels["off"])
    ]
    return {"configs": plans, "levels": levels, "against_off": ratios}


def plot(result: dict[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (engine_axes, ttfa_axes, rate_axes) = plt.subplots(1, 3, figsize=(15, 4.2))
    sizes = result["engine"]["sizes"]
    engine_axes.plot([row["batch"] for row in sizes], [row["audio_s_per_s"] for row in sizes], "o-")
    if "export_one_per_call_audio_s_per_s" in result["engine"]:
        engine_axes.axhline(
            result["engine"]["export_one_per_call_audio_s_per_s"], ls="--", c="gray", label="export, one a call"
        )
        engine_axes.legend()
    engine_axes.set(xscale="log", xlabel="chunks per call", ylabel="audio s per s", title="Engine alone")
    for name, rows in result["server"]["levels"].items():
        sessions = [row["sessions"] for row in rows]
        ttfa_axes.plot(sessions, [row["ttfa_p95_ms"] for row in rows], "o-", label=name)
        rate_axes.plot(sessions, [row["throughput_audio_s_per_s"] for row in rows], "o-", label=name)
    ttfa_axes.set(xscale="log", xlabel="sessions at once", ylabel="TTFA p95 (ms)", title="Server: first audio")
    rate_axes.set(xscale="log", xlabel="sessions at once", ylabel="audio s per wall s", title="Server: throughput")
    for axes in (ttfa_axes, rate_axes):
        axes.set_xticks(sessions, [str(level) for level in sessions])
    ttfa_axes.legend()
    figure.suptitle(f"Batching across sessions ({result['machine']['device']}, {result['machine']['model']})")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--engine", choices=("kokoro", "fake"), default="kokoro")
    parser.add_argument("--model-dir", type=Path, help="the int8 model folder (default: the embedded model)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    began = time.perf_counter()
    fake = args.engine == "fake"
    plan = PLANS["fake" if fake else args.device]
    result: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "device": args.device,
            "model": "fake engine" if fake else ("int8" if args.device == "cpu" else "float32 from int8"),
        },
        "reply": REPLY,
        "tokens_per_second": TOKENS_PER_SECOND,
    }
    base = ServerSettings(host="127.0.0.1", port=0, device=args.device)
    if fake:
        batched = FakeEngine(FAKE_REAL_TIME_FACTOR, max_batch=max(plan.sizes))
        result["engine"] = engine_figures(batched, None, plan)
        configs = {"off": base, "on": base.model_copy(update={"batch_wait_ms": 2.0})}

        def engine_for(name: str) -> FakeEngine:
            return FakeEngine(FAKE_REAL_TIME_FACTOR, max_batch=1 if name == "off" else plan.forced_batch)

        result["server"] = server_figures(configs, engine_for, plan)
    else:
        model_dir = args.model_dir
        if model_dir is None:
            from kokoro_server.engine.embedded_model import model_directory

            model_dir = model_directory()
        if args.device == "cuda":  # the CUDA provider runs no integer kernels: the float graph of the same weights
            model_dir = build_float(model_dir)
        manifest = verify_directory(model_dir)
        search = "HEURISTIC"
        if args.device == "cuda":
            result["cudnn_conv_algo_search"], search = cudnn_searches(model_dir, plan)
        options = EngineOptions(device=args.device, cudnn_conv_algo_search=search, max_batch=max(plan.sizes))
        batched_engine = Engine(model_dir, manifest, options)
        export = Engine(model_dir, manifest, EngineOptions(device=args.device, cudnn_conv_algo_search=search))
        result["engine"] = engine_figures(batched_engine, export, plan)
        result["equivalence"] = {"int8" if args.device == "cpu" else "float32": equivalence(batched_engine, export, 8)}
        del batched_engine, export
        if args.device == "cpu":  # what a GPU runs, on this CPU: the float graph of the same weights
            float_dir = build_float(model_dir)
            float_manifest = verify_directory(float_dir)
            float_batched = Engine(float_dir, float_manifest, EngineOptions(device="cpu", max_batch=4))
            float_export = Engine(float_dir, float_manifest, EngineOptions(device="cpu"))
            result["equivalence"]["float32"] = equivalence(float_batched, float_export, 3)
            del float_batched, float_export
        base = base.model_copy(update={"model_dir": model_dir, "cudnn_conv_algo_search": search})
        configs = {
            "off": base.model_copy(update={"max_batch": 1}),
            "default": base,
            f"batch {plan.forced_batch}": base.model_copy(update={"max_batch": plan.forced_batch}),
        }
        result["server"] = server_figures(configs, lambda name: None, plan)
    result["total_s"] = round(time.perf_counter() - began, 1)
    emit(result, args.out)
    if args.plot:
        plot(result, args.plot)


CUDNN_SEARCHES = ("HEURISTIC", "DEFAULT")  # EXHAUSTIVE times every algorithm for each new shape: minutes here


def cudnn_searches(model_dir: Path, plan: Plan) -> tuple[list[dict[str, Any]], CudnnAlgoSearch]:
    """The engine at one chunk per call and at the largest batch, for each cuDNN convolution search; and the
    search that gave the largest batch the most audio per second (the rest of the run uses it)."""
    rows = []
    for search in CUDNN_SEARCHES:
        options = EngineOptions(device="cuda", cudnn_conv_algo_search=search, max_batch=max(plan.sizes))
        engine = Engine(model_dir, verify_directory(model_dir), options)
        single = Plan((1, max(plan.sizes)), (), plan.forced_batch, plan.repeats, 0)
        figures = engine_figures(engine, None, single)["sizes"]
        rows.append({"search": search, "providers": list(engine.providers), "sizes": figures})
        del engine
    best = max(rows, key=lambda row: row["sizes"][-1]["audio_s_per_s"])["search"]
    return rows, best


def build_float(int8_dir: Path) -> Path:
    from .float_model import build

    float_dir = Path(tempfile.mkdtemp(prefix="kokoro-batching-")) / "float32"
    build(int8_dir, float_dir)
    return float_dir


if __name__ == "__main__":
    main()
