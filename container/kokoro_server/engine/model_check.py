"""``kokoro-stream model check``: a model directory loaded as the server loads it, before anything is deployed.

It verifies every file against the manifest, finds the graph's interface (``model_interface``), loads it on
the device the settings give (as ``serve`` would), lists the operators of the graph that the GPU image's
CUDA provider has no kernel for (from the kernel table of the pinned onnxruntime-gpu, ``cuda_kernels.tsv``:
such nodes run on the host, with copies each call), speaks one sentence and checks its word marks against
its audio: every written word marked, in order, each on sound, and the sound inside the marks.
"""

from __future__ import annotations

import importlib.resources
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import onnx

from kokoro_core.model_cache import verify_directory
from kokoro_server.settings import ServerSettings
from kokoro_server.text.word_timing import TimedWord

from .device import Plan, load_on_device
from .kokoro import Engine
from .speech_engine import SILENCE_LEVEL, Speech

SENTENCE = "Your order 4 7 1 ships today, and it should arrive by Friday."
LOUD = 0.02  # of full scale: speech, not the breath around it
SOUND_WITHIN_MARKS = 0.9  # of the loud samples, at least this share lies inside the word marks
MARK_MARGIN_SAMPLES = 1200  # two duration frames: a word's first and last sounds may spill past its mark


@cache
def cuda_kernels() -> tuple[str, dict[tuple[str, str], list[tuple[int, int | None]]]]:
    """The pinned onnxruntime-gpu's name and, per (domain, operator), the opset ranges its CUDA kernels cover."""
    text = (importlib.resources.files(__package__) / "cuda_kernels.tsv").read_text()
    lines = text.splitlines()
    runtime = lines[0].removeprefix("# CUDAExecutionProvider kernels of ").split(",")[0]
    table: dict[tuple[str, str], list[tuple[int, int | None]]] = {}
    for line in lines[2:]:
        domain, op, since, until = line.split("\t")
        table.setdefault((domain, op), []).append((int(since), int(until) if until else None))
    return runtime, table


def _version(node: onnx.NodeProto, opsets: dict[str, int]) -> int:
    """The version of ``node``'s operator as the graph's opset defines it (the version kernels are chosen by)."""
    opset = opsets.get(node.domain, 1)
    if node.domain in ("", "ai.onnx"):
        try:
            return int(onnx.defs.get_schema(node.op_type, opset, "").since_version)
        except onnx.defs.SchemaError:
            return opset
    return opset


def without_cuda_kernel(model: onnx.ModelProto) -> Counter[str]:
    """How many nodes of each operator in ``model`` the CUDA provider has no kernel for."""
    _, table = cuda_kernels()
    opsets = {entry.domain: entry.version for entry in model.opset_import}
    missing: Counter[str] = Counter()
    for node in model.graph.node:
        version = _version(node, opsets)
        ranges = table.get((node.domain or "ai.onnx", node.op_type), [])
        if not any(since <= version and (until is None or version <= until) for since, until in ranges):
            missing[node.op_type if node.domain in ("", "ai.onnx") else f"{node.domain}.{node.op_type}"] += 1
    return missing


def mark_problems(audio: np.ndarray, words: Sequence[TimedWord], text: str) -> list[str]:
    """What is wrong with the word marks of ``audio`` (float samples) for ``text``: none where they match it."""
    problems = []
    if " ".join(word.text for word in words).split() != text.split():  # a span read as one is one mark ("3 pm")
        problems.append(f"marks for {[word.text for word in words]}, the sentence has {text.split()}")
    for previous, word in zip(words, words[1:], strict=False):
        if word.start < previous.end:
            problems.append(f"{word.text!r} starts before {previous.text!r} ends")
    for word in words:
        if not 0 <= word.start < word.end <= len(audio):
            problems.append(f"{word.text!r} is marked at samples {word.start}–{word.end} of {len(audio)}")
        elif not np.any(np.abs(audio[word.start : word.end]) > SILENCE_LEVEL):
            problems.append(f"{word.text!r} is marked where the audio is silent")
    loud = np.flatnonzero(np.abs(audio) > LOUD)
    inside = np.zeros(len(audio), dtype=bool)
    for word in words:
        inside[max(0, word.start - MARK_MARGIN_SAMPLES) : word.end + MARK_MARGIN_SAMPLES] = True
    share = float(inside[loud].mean()) if loud.size else 0.0
    if share < SOUND_WITHIN_MARKS:
        problems.append(f"only {share:.0%} of the speech lies within the word marks")
    return problems


@dataclass
class ModelReport:
    """What ``check_model`` found; ``problems`` empty means the server can speak with this model."""

    directory: Path
    source: str
    interface: str
    providers: tuple[str, ...]
    plan: Plan
    gpu_runtime: str
    without_cuda_kernel: dict[str, int]
    voice: str
    words: int
    audio_seconds: float
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        plan = self.plan
        per_call = f"{plan.max_batch} chunks per call" if plan.max_batch > 1 else "one chunk per call"
        missing = ", ".join(f"{op} ({count})" for op, count in sorted(self.without_cuda_kernel.items()))
        cuda = (
            f"{self.gpu_runtime} has no CUDA kernel for {sum(self.without_cuda_kernel.values())} node(s), which run "
            f"on the host with copies each call: {missing}"
            if missing
            else f"{self.gpu_runtime} has a CUDA kernel for every operator"
        )
        lines = [
            f"model      {self.directory} ({self.source})",
            f"interface  {self.interface}",
            f"runs on    {', '.join(self.providers)}: {plan.device}, {plan.workers} worker(s), {per_call}",
            f"on a GPU   {cuda}",
            f"spoke      {SENTENCE!r} in {self.voice}: {self.audio_seconds:.1f} s, {self.words} word marks",
        ]
        if plan.note:
            lines.insert(3, f"note       {plan.note}")
        lines += [f"problem    {problem}" for problem in self.problems] or ["ok         the marks match the audio"]
        return lines


def check_model(directory: Path, settings: ServerSettings) -> ModelReport:
    """Load ``directory`` as the server would with ``settings``, speak one sentence, check its marks. Raises what
    the server's start would raise (a file that fails verification, a graph without an interface)."""
    manifest = verify_directory(directory)
    engine, plan = load_on_device(settings, directory, manifest)
    export = onnx.load(str(directory / manifest.onnx))
    speech = _spoken(engine, manifest.default_voice)
    return ModelReport(
        directory=directory,
        source=manifest.source,
        interface=engine.interface.describe(),
        providers=engine.providers,
        plan=plan,
        gpu_runtime=cuda_kernels()[0],
        without_cuda_kernel=dict(without_cuda_kernel(export)),
        voice=manifest.default_voice,
        words=len(speech.words),
        audio_seconds=len(speech.audio) / engine.sample_rate,
        problems=mark_problems(speech.audio, speech.words, SENTENCE),
    )


def _spoken(engine: Engine, voice: str) -> Speech:
    try:
        return engine.synthesize(SENTENCE, voice)
    finally:
        engine.stop()
