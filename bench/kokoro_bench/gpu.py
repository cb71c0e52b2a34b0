"""GPU figures in one short run: engine RTF per cuDNN search mode, and server TTFA by workers and sessions.

    uv run python -m kokoro_bench.gpu --out docs/bench/gpu            # on a machine with an NVIDIA GPU
    uv run python -m kokoro_bench.gpu --dry-run --out /tmp/gpu-dry     # the same steps, small, on the CPU

On the GPU machine, first put the CUDA build of ONNX Runtime in place of the CPU one, the version
the driver runs (1.26 for CUDA 12, as the image; a CUDA 13 driver can take the newest):
``uv pip install "onnxruntime-gpu[cuda,cudnn]==1.26.0"`` after ``uv pip uninstall onnxruntime``.

The model is the float32 graph rebuilt from the embedded int8 model (kokoro_bench/float_model.py): the
int8 model's integer kernels do not run on the CUDA provider, and no hub download is needed.
Steps, within about 8 minutes on one GPU:
1. the float model, built into a scratch folder;
2. engine real-time factor on corpus chunks for each cuDNN convolution search mode (HEURISTIC,
   DEFAULT, EXHAUSTIVE), each on a fresh engine, after a warm-up;
3. a local server per worker count (1, 2, 4, 8), each swept at 1, 4, 8 and 16 simultaneous sessions
   speaking a short reply: time to first audio p50/p95, throughput, stalls.
Writes gpu.json and gpu.md to --out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from kokoro_bench.corpus import AGENT_REPLIES, load_replies
from kokoro_bench.strategies import Target
from kokoro_bench.sweep import concurrency_level
from kokoro_core.chunker import chunk_text
from kokoro_server.engine.kokoro import SAMPLE_RATE, Engine, EngineOptions
from kokoro_server.serving.background import BackgroundServer
from kokoro_server.settings import ServerSettings
from kokoro_stream.websocket_transport import WebSocketTransport

from .float_model import build

VOICE = "af_heart"
FULL = {"modes": ("HEURISTIC", "DEFAULT", "EXHAUSTIVE"), "workers": (1, 2, 4, 8), "levels": (1, 4, 8, 16), "chunks": 40}
DRY = {"modes": ("HEURISTIC",), "workers": (1,), "levels": (1, 2), "chunks": 2}
SWEEP_REPLY = "short-yes"
TOKENS_PER_SECOND = 60.0


def engine_rtf(model_dir: Path, device: str, mode: str, chunks: list[str]) -> tuple[dict, Engine]:
    """The engine's figures with one cuDNN search mode, and the engine, which the sweep's floor reuses."""
    from kokoro_core.model_cache import verify_directory

    started = time.perf_counter()
    engine = Engine(model_dir, verify_directory(model_dir), EngineOptions(device=device, cudnn_conv_algo_search=mode))
    load_s = time.perf_counter() - started
    engine.warm_up()
    synth = audio = 0.0
    for chunk in chunks:
        begun = time.perf_counter()
        samples = engine.synthesize(chunk, VOICE).audio
        synth += time.perf_counter() - begun
        audio += len(samples) / SAMPLE_RATE
    figures = {
        "mode": mode,
        "providers": list(engine.providers),
        "load_s": round(load_s, 2),
        "rtf": round(synth / audio, 4),
        "audio_s": round(audio, 1),
    }
    return figures, engine


async def sweep(url: str, levels: tuple[int, ...], text: str, engine: Engine) -> list[dict]:
    ws_url = url.replace("http://", "ws://") + "/invocations-bidirectional-stream"
    target = Target(lambda: WebSocketTransport(ws_url), None, "local", engine, VOICE)
    return [await concurrency_level(target, level, text, TOKENS_PER_SECOND) for level in levels]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--dry-run", action="store_true", help="the same steps, small, on the CPU")
    parser.add_argument("--model-dir", type=Path, help="the int8 model folder (default: the embedded model)")
    args = parser.parse_args()
    plan = DRY if args.dry_run else FULL
    device = "cpu" if args.dry_run else "cuda"
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    began = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix="kokoro-gpu-"))
    float_dir = scratch / "float32"
    build(args.model_dir, float_dir)
    built_s = time.perf_counter() - began

    replies = load_replies(AGENT_REPLIES)
    chunks = [chunk for text in replies.values() for chunk in chunk_text(text)][: plan["chunks"]]
    engines: list[dict] = []
    fastest: dict | None = None
    floor: Engine | None = None  # the fastest mode's engine, kept for the sweep
    for mode in plan["modes"]:
        figures, engine = engine_rtf(float_dir, device, mode, chunks)
        engines.append(figures)
        if fastest is None or figures["rtf"] < fastest["rtf"]:
            fastest, floor = figures, engine
        del engine  # a slower mode's session is freed before the next one loads
    assert fastest is not None and floor is not None
    best = fastest["mode"]
    servers = []
    for workers in plan["workers"]:
        settings = ServerSettings(
            host="127.0.0.1", port=0, model_dir=float_dir, device=device, workers=workers, cudnn_conv_algo_search=best
        )
        with BackgroundServer(settings) as server:
            levels = asyncio.run(sweep(server.url, plan["levels"], replies[SWEEP_REPLY], floor))
        servers.append({"workers": workers, "levels": levels})

    result = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "device": device, "dry_run": args.dry_run},
        "float_model_build_s": round(built_s, 1),
        "engine": engines,
        "best_cudnn_conv_algo_search": best,
        "server": servers,
        "sweep_reply": SWEEP_REPLY,
        "tokens_per_second": TOKENS_PER_SECOND,
        "total_s": round(time.perf_counter() - began, 1),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gpu.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "# GPU figures" + (" (dry run on the CPU)" if args.dry_run else ""),
        "",
        f"`uv run python -m kokoro_bench.gpu{' --dry-run' if args.dry_run else ''}` on {platform.platform()}; "
        f"float32 graph rebuilt from the int8 model; {result['total_s']} s in all.",
        "",
        "| cuDNN search | providers | engine RTF | load s |",
        "| --- | --- | ---: | ---: |",
        *(f"| {e['mode']} | {', '.join(e['providers'])} | {e['rtf']} | {e['load_s']} |" for e in engines),
        "",
        f"Server with {best}, {SWEEP_REPLY} reply at {TOKENS_PER_SECOND:g} tokens/s:",
        "",
        "| workers | sessions | TTFA p50 ms | TTFA p95 ms | throughput audio s/s | stalls |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
        *(
            f"| {s['workers']} | {level['sessions']} | {level['ttfa_p50_ms']} | {level['ttfa_p95_ms']} | "
            f"{level['throughput_audio_s_per_s']} | {level['stalls']} |"
            for s in servers
            for level in s["levels"]
        ),
    ]
    (args.out / "gpu.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
