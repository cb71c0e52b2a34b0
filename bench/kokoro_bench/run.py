"""Run the whole benchmark against one target and collect every raw figure."""

from __future__ import annotations

import asyncio
import os
import platform
import statistics
import time
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from kokoro_capacity.timeline import percentile
from kokoro_capacity.traffic import first_sentence
from kokoro_core.chunker import chunk_text
from kokoro_core.speakable import language_of
from kokoro_server.text.reading import VoiceReading

from .strategies import RUNNERS, STRATEGIES, Target, first_chunk_seconds, server_first_audio
from .sweep import concurrency_level

QUICK_REPLIES = ("short-yes",)
QUICK_LEVELS = (1, 2)
LEVELS = (1, 2, 4, 8, 16)
SWEEP_REPLY = "short-yes"


@dataclass(frozen=True)
class BenchPlan:
    replies: dict[str, str]
    tokens_per_second: tuple[float, ...] = (30.0,)
    levels: tuple[int, ...] = LEVELS
    sweep_text: str = ""


def engine_rtf(target: Target, texts: list[str]) -> float:
    synth = audio = 0.0
    for text in texts:
        for chunk in chunk_text(text, reading=VoiceReading(language_of(target.voice))):
            begun = time.perf_counter()
            samples = target.engine.synthesize(chunk, target.voice).audio
            synth += time.perf_counter() - begun
            audio += len(samples) / target.engine.sample_rate
    return synth / audio


def run_bench(target: Target, plan: BenchPlan, description: dict[str, Any]) -> dict[str, Any]:
    steps = len(plan.replies) * (len(STRATEGIES) * len(plan.tokens_per_second) + 1) + len(plan.levels) + 1
    progress = tqdm(total=steps, desc="bench", unit="step")
    results: dict[str, Any] = {"machine": machine(description), "plan": _plan(plan), "replies": {}}

    target.engine.warm_up()
    rtf = engine_rtf(target, [plan.sweep_text])
    results["engine_rtf"] = round(rtf, 3)
    results["engine_capacity_audio_s_per_s"] = round(1 / rtf, 3)
    progress.update()

    for reply_id, text in plan.replies.items():
        per_rate = {}
        for rate in plan.tokens_per_second:
            figures = {}
            for strategy in STRATEGIES:
                progress.set_postfix_str(f"{reply_id} {strategy} @{rate:g} tok/s")
                timeline = asyncio.run(RUNNERS[strategy](target, text, rate))
                figures[strategy] = {**timeline.summary(), "arrivals": [(round(a, 4), n) for a, n in timeline.arrivals]}
                progress.update()
            sentence, complete_at = first_sentence(text, rate)
            engine_first = first_chunk_seconds(target, sentence)
            figures["physical_limit_ms"] = round((complete_at + engine_first) * 1000, 1)
            per_rate[f"{rate:g}"] = figures
        sentence, _ = first_sentence(text, plan.tokens_per_second[0])
        engine_first = statistics.median(first_chunk_seconds(target, sentence) for _ in range(3))
        server_first = statistics.median(asyncio.run(server_first_audio(target, sentence)) for _ in range(3))
        progress.update()
        results["replies"][reply_id] = {
            "chars": len(text),
            "by_rate": per_rate,
            "first_sentence": sentence,
            "engine_first_chunk_ms": round(engine_first * 1000, 1),
            "server_first_audio_ms": round(server_first * 1000, 1),
        }

    results["concurrency"] = []
    for level in plan.levels:
        progress.set_postfix_str(f"{level} sessions")
        results["concurrency"].append(
            asyncio.run(concurrency_level(target, level, plan.sweep_text, plan.tokens_per_second[0]))
        )
        progress.update()
    progress.close()
    results["summary"] = summarize(results)
    return results


def summarize(results: dict[str, Any]) -> dict[str, Any]:
    """The headline figures and the targets they are measured against."""
    replies = results["replies"].values()
    rate = results["plan"]["tokens_per_second"][0]
    key = f"{rate:g}"
    summary: dict[str, Any] = {"tokens_per_second": rate, "ttfa_ms": {}}
    for strategy in STRATEGIES:
        values = [reply["by_rate"][key][strategy]["ttfa_ms"] for reply in replies]
        stalls = [reply["by_rate"][key][strategy]["stalls"] for reply in replies]
        stall_ms = [reply["by_rate"][key][strategy]["stall_ms"] for reply in replies]
        summary["ttfa_ms"][strategy] = {
            "p50": percentile(values, 50),
            "p95": percentile(values, 95),
            "stalls": sum(stalls),
            "stall_ms": round(sum(stall_ms), 1),
        }
    limits = [reply["by_rate"][key]["physical_limit_ms"] for reply in replies]
    summary["ttfa_ms"]["physical_limit"] = {"p50": percentile(limits, 50), "p95": percentile(limits, 95)}
    bidi = summary["ttfa_ms"]["bidi"]["p50"]
    summary["bidi_vs_wait_full"] = round(summary["ttfa_ms"]["wait_full"]["p50"] / bidi, 2)
    summary["bidi_vs_physical_limit"] = round(bidi / summary["ttfa_ms"]["physical_limit"]["p50"], 3)
    overheads = [reply["server_first_audio_ms"] / reply["engine_first_chunk_ms"] for reply in replies]
    extra = [reply["server_first_audio_ms"] - reply["engine_first_chunk_ms"] for reply in replies]
    summary["server_overhead_ratio"] = round(statistics.median(overheads), 3)
    summary["server_overhead_ms"] = round(statistics.median(extra), 1)
    capacity = results["engine_capacity_audio_s_per_s"]
    for level in results["concurrency"]:
        level["share_of_engine_capacity"] = round(level["throughput_audio_s_per_s"] / capacity, 3)
    eight = next((level for level in results["concurrency"] if level["sessions"] == 8), None)
    if eight:
        summary["eight_sessions"] = {
            "share_of_engine_capacity": eight["share_of_engine_capacity"],
            "fairness": eight["fairness_max_over_min_ttfa"],
        }
    summary["targets"] = {
        "bidi TTFA >= 10x lower than wait-for-full-text": summary["bidi_vs_wait_full"] >= 10,
        "bidi TTFA <= 1.2x the physical limit": summary["bidi_vs_physical_limit"] <= 1.2,
        "server overhead <= 1.05 (or <= 5 ms)": summary["server_overhead_ratio"] <= 1.05
        or summary["server_overhead_ms"] <= 5,
        "zero stalls after first audio (bidi)": summary["ttfa_ms"]["bidi"]["stalls"] == 0,
        "8 sessions: throughput >= 90% of engine capacity, fairness <= 2": bool(eight)
        and eight["share_of_engine_capacity"] >= 0.9
        and eight["fairness_max_over_min_ttfa"] <= 2,
    }
    return summary


def machine(description: dict[str, Any]) -> dict[str, Any]:
    import onnxruntime

    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "onnxruntime": onnxruntime.__version__,
        **description,
    }


def _plan(plan: BenchPlan) -> dict[str, Any]:
    return {
        "replies": list(plan.replies),
        "tokens_per_second": list(plan.tokens_per_second),
        "levels": list(plan.levels),
    }
