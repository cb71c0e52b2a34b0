"""Whether the server keeps its engine busy: a long reply's RTF through the server against the engine alone.

    uv run python -m kokoro_bench.pipeline [--replies long-narrative,tech-explainer,...] \
        [--repeats 6] [--compare-tree DIR] [--out docs/bench/pipeline.json] [--plot docs/bench/pipeline.png]

Starts ``python -m kokoro_server serve`` on the embedded model and loads the same model here with the
same worker threads, then, reply by reply and round by round, alternates on one machine:

- **server**: the whole reply in one POST; its RTF is the wall time from the request to the last byte
  over the audio's length. The server's own record of the utterance (``synth_ms``: time on its engine
  worker) gives the engine's **busy share**: time synthesizing over that wall time.
- **engine**: the same chunks (planned as the server plans them) prepared beforehand, then spoken one
  after another by ``Engine.speak``: the model alone, with no text work between chunks.
- with ``--compare-tree DIR``, a server from another checkout (its ``container`` and ``core``
  packages) measured like the first, for a before and after in one run.

The server's RTF over the engine's is the overhead of everything around the model; 1.0 is none. A
shared machine only ever adds time, in bursts that swing one run of the same work by a tenth or more,
so each figure is given as the best of its rounds (what the work costs) and as their median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from kokoro_bench.corpus import AGENT_REPLIES, load_replies
from kokoro_core.chunker import chunk_text
from kokoro_core.model_cache import SAMPLE_RATE, verify_directory
from kokoro_core.speakable import language_of
from kokoro_server.engine.device import engine_options, plan_for
from kokoro_server.engine.kokoro import Engine
from kokoro_server.settings import settings_from_env
from kokoro_server.text.reading import VoiceReading
from kokoro_tools.ports import free_port, wait_ready

from .server_overhead import emit

VOICE = "af_heart"
REPLIES = ("long-narrative", "tech-explainer", "router-troubleshoot")
FIRST_CHUNK_CHARS, MAX_CHUNK_CHARS = 80, 320  # the server's defaults (KOKORO_FIRST_CHUNK_CHARS, _MAX_)


class ServerProcess:
    """``python -m kokoro_server serve`` on a free port, its log lines collected as they come."""

    def __init__(self, name: str, model_dir: Path, tree: Path | None = None) -> None:
        self.name = name
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        environment = dict(os.environ)
        if tree is not None:  # that checkout's server and core packages, ahead of this one's
            paths = [str(tree / "container"), str(tree / "core"), environment.get("PYTHONPATH", "")]
            environment["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
        command = [sys.executable, "-m", "kokoro_server", "serve", "--host", "127.0.0.1", "--port", str(port)]
        self.process = subprocess.Popen(
            [*command, "--model-dir", str(model_dir)], stdout=subprocess.PIPE, text=True, env=environment
        )
        self._records: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read_log, daemon=True).start()

    def _read_log(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("event") == "utterance":
                self._records.put(record)

    def utterance_record(self, timeout: float = 60) -> dict[str, Any]:
        """The server's record of the utterance it finished last (written as the response ends)."""
        return self._records.get(timeout=timeout)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


@contextmanager
def servers(model_dir: Path, compare_tree: Path | None) -> Iterator[list[ServerProcess]]:
    started = [ServerProcess("server", model_dir)]
    if compare_tree is not None:
        started.append(ServerProcess("compared", model_dir, compare_tree))
    try:
        for server in started:
            wait_ready(server.url, server.process)
        yield started
    finally:
        for server in started:
            server.stop()


async def post_reply(url: str, text: str) -> tuple[float, int]:
    """Seconds from the request to the last byte of the reply's audio, and its bytes (16-bit PCM)."""
    async with aiohttp.ClientSession() as session:
        started = time.perf_counter()
        body = {"text": text, "voice": VOICE, "format": "pcm16"}
        async with session.post(f"{url}/invocations", json=body) as response:
            response.raise_for_status()
            audio = await response.read()
        return time.perf_counter() - started, len(audio)


def measure_server(server: ServerProcess, text: str) -> dict[str, float]:
    wall, audio_bytes = asyncio.run(post_reply(server.url, text))
    record = server.utterance_record()
    audio_s = audio_bytes / 2 / SAMPLE_RATE
    # synth_ms: time on the engine worker. A server without it (an older checkout) held its worker for
    # the whole job, planning included, and reported that job time as rtf × audio.
    synth_s = record["synth_ms"] / 1000 if "synth_ms" in record else record["rtf"] * record["audio_ms"] / 1000
    return {"wall_s": wall, "audio_s": audio_s, "rtf": wall / audio_s, "busy_share": synth_s / wall}


def measure_engine(engine: Engine, chunks: list[str]) -> dict[str, float]:
    """The model alone, on chunks prepared beforehand."""
    prepared = [engine.prepare(chunk, VOICE) for chunk in chunks]
    started = time.perf_counter()
    audio = sum(len(engine.speak(chunk).audio) for chunk in prepared)
    audio_s = audio / SAMPLE_RATE
    return {"audio_s": audio_s, "rtf": (time.perf_counter() - started) / audio_s}


def _stat(rounds: list[dict[str, float]], key: str, how: str) -> float:
    values = [r[key] for r in rounds]
    return round(min(values) if how == "best" else statistics.median(values), 4)


def summarize(rounds: dict[str, dict[str, list[dict[str, float]]]], names: list[str]) -> dict[str, Any]:
    """Per reply and over all, the best and the median of each measure, and each server's RTF over the
    engine's by both."""
    summary: dict[str, Any] = {}
    for reply, measured in rounds.items():
        row: dict[str, Any] = {}
        for how in ("best", "median"):
            engine_rtf = row[f"engine_rtf_{how}"] = _stat(measured["engine"], "rtf", how)
            for name in names:
                rtf = row[f"{name}_rtf_{how}"] = _stat(measured[name], "rtf", how)
                row[f"{name}_over_engine_{how}"] = round(rtf / engine_rtf, 4)
        for name in names:
            row[f"{name}_busy_share_median"] = _stat(measured[name], "busy_share", "median")
        summary[reply] = row
    replies = list(rounds)
    totals: dict[str, Any] = {}
    for how in ("best", "median"):
        audio = sum(rounds[reply]["engine"][0]["audio_s"] for reply in replies)
        for name in ["engine", *names]:  # each reply's figure weighted by its audio
            work = sum(summary[reply][f"{name}_rtf_{how}"] * rounds[reply]["engine"][0]["audio_s"] for reply in replies)
            totals[f"{name}_rtf_{how}"] = round(work / audio, 4)
        for name in names:
            totals[f"{name}_over_engine_{how}"] = round(totals[f"{name}_rtf_{how}"] / totals[f"engine_rtf_{how}"], 4)
    for name in names:
        walls = [r["wall_s"] for m in rounds.values() for r in m[name]]
        busy = [r["busy_share"] * r["wall_s"] for m in rounds.values() for r in m[name]]
        totals[f"{name}_busy_share"] = round(sum(busy) / sum(walls), 4)
    summary["all"] = totals
    return summary


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary, names = result["summary"], result["servers"]
    replies = [reply for reply in summary if reply != "all"]
    series = [("engine alone", "engine"), *((name, name) for name in names)]
    figure, (rtf_axis, ratio_axis) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(series)
    for index, (label, key) in enumerate(series):
        positions = [i + index * width for i in range(len(replies))]
        best = [summary[reply][f"{key}_rtf_best"] for reply in replies]
        median = [summary[reply][f"{key}_rtf_median"] for reply in replies]
        bars = rtf_axis.bar(positions, best, width, label=f"{label} (best)")
        rtf_axis.scatter(positions, median, color=bars.patches[0].get_facecolor(), edgecolor="black", zorder=3, s=18)
    rtf_axis.set_xticks([i + 0.4 - width / 2 for i in range(len(replies))], replies, rotation=15)
    rtf_axis.set_ylabel("RTF (seconds of work per second of audio)")
    rtf_axis.set_title("Whole reply: bars the best round, dots the median")
    rtf_axis.legend(fontsize=8)
    width = 0.8 / len(names)
    for index, name in enumerate(names):
        positions = [i + index * width for i in range(len(replies))]
        best = [summary[reply][f"{name}_over_engine_best"] for reply in replies]
        median = [summary[reply][f"{name}_over_engine_median"] for reply in replies]
        color = f"C{index + 1}"  # as in the left panel, where the engine alone is C0
        ratio_axis.bar(positions, [value - 1 for value in best], width, bottom=1, color=color, label=f"{name} (best)")
        ratio_axis.scatter(positions, median, color=color, edgecolor="black", zorder=3, s=18)
    ratio_axis.axhline(1.0, color="black", linewidth=0.8)
    ratio_axis.axhspan(0.97, 1.03, color="grey", alpha=0.15, label="within 3 % of the engine")
    ratio_axis.set_xticks([i + 0.4 - width / 2 for i in range(len(replies))], replies, rotation=15)
    ratio_axis.set_ylim(0.85, 1.15)
    ratio_axis.set_ylabel("RTF over the engine alone's")
    ratio_axis.set_title("What the server adds to the model (1.0: nothing)")
    ratio_axis.legend(fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)


def _described(tree: Path) -> str:
    """A checkout and the commit it holds."""
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return f"{tree} at {commit.stdout.strip() or 'an unknown commit'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, help="default: the embedded model")
    parser.add_argument("--replies", default=",".join(REPLIES), help="comma-separated ids from the corpus")
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--compare-tree", type=Path, help="also measure a server from this checkout")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    texts = load_replies(AGENT_REPLIES)
    replies = args.replies.split(",")
    # The engine as the server would run it on this machine's CPU: its threads per worker.
    settings = settings_from_env(device="cpu")
    plan = plan_for(settings, "cpu")
    engine = Engine(args.model_dir, verify_directory(args.model_dir), engine_options(settings, plan))
    engine.warm_up()
    rounds: dict[str, dict[str, list[dict[str, float]]]] = {}
    with servers(args.model_dir, args.compare_tree) as started:
        names = [server.name for server in started]
        for server in started:
            measure_server(server, texts[replies[0]])  # warm: first requests pay one-time costs
        for reply in replies:
            text = texts[reply]
            reading = VoiceReading(language_of(VOICE))
            chunks = chunk_text(text, FIRST_CHUNK_CHARS, MAX_CHUNK_CHARS, False, reading)
            measured: dict[str, list[dict[str, float]]] = {name: [] for name in ["engine", *names]}
            for repeat in range(args.repeats):
                order = [*started] if repeat % 2 == 0 else [*reversed(started)]
                for server in order:
                    measured[server.name].append(measure_server(server, text))
                measured["engine"].append(measure_engine(engine, chunks))
                print(f"{reply} round {repeat + 1}: " + json.dumps({k: v[-1] for k, v in measured.items()}), flush=True)
            rounds[reply] = measured
    result = {
        "command": "uv run python -m kokoro_bench.pipeline " + " ".join(sys.argv[1:]),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "device": engine.device},
        "engine_threads": plan.threads_per_worker,
        "voice": VOICE,
        "servers": names,
        "compare_tree": _described(args.compare_tree) if args.compare_tree else None,
        "notes": (
            "busy_share: seconds on the engine worker over the wall time of the POST. A server from before text "
            "work moved to text threads held its worker for planning too, so its share counts that as busy."
        ),
        "summary": summarize(rounds, names),
        "rounds": rounds,
    }
    emit(result, args.out)
    if args.plot:
        plot(result, args.plot)


if __name__ == "__main__":
    main()
