"""ONNX Runtime versions on this CPU, and this project's engine against kokoro-onnx's own Kokoro.create.

    uv run python -m kokoro_bench.cpu_runtime [--versions 1.32.0] [--peers 1.26.0,1.32.0] [--rounds 3] [--out DIR]

Every configuration runs as its own process in its own virtual environment (made once with uv, under
the cache folder), and the configurations take turns round by round, so they share the machine's
state. The same int8 model, voice and corpus for all:
- ``engine@V``: this project's engine (container/kokoro_server on core/kokoro_core) on ONNX Runtime V, chunk by chunk as
  the server plans them, with text normalization off so that both say the same words;
- ``engine-convinteger@V`` (V the last of ``--versions``): the same, with the int8 model's convolutions left
  as ``ConvInteger`` (``kokoro_server.engine.integer_conv``), to show what that rewrite gains;
- ``kokoro-onnx@V`` for each V of ``--peers``: kokoro-onnx 0.6.1's ``Kokoro.create`` on each whole reply, the
  setup a user would otherwise pick; the last (by default ONNX Runtime 1.32, the best a user can install)
  is the baseline every speed-up is measured against;
- with ``--openvino V``, ``openvino-f32@V`` and ``openvino-bf16@V``: OpenVINO V on the CPU, running the
  float graph rebuilt from the int8 weights (``float_model``; OpenVINO runs the int8 graph's dynamic
  quantization slower than ONNX Runtime does) on each whole reply as ``Kokoro.create`` splits it, at
  float32 or at bfloat16 inference precision (native on CPUs with AVX512-BF16 or AMX).
The last round's audio of every configuration is transcribed by pocketsphinx, an offline recognizer
(its English model ships in its wheel), so the words heard can be compared. Writes cpu_runtime.json
and cpu_runtime.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

PEERS = "1.26.0,1.32.0"
VOICE = "af_heart"
SAMPLE_RATE = 24_000


def venv(name: str, packages: list[str]) -> Path:
    """A cached virtual environment holding ``packages`` (a new one when they change); returns its python."""
    key = hashlib.sha256(" ".join(packages).encode()).hexdigest()[:10]
    cache = Path(os.environ.get("KOKORO_CACHE_DIR", Path.home() / ".cache" / "kokoro-stream"))
    root = cache / "bench-venvs" / f"{name}-{key}"
    python = root / "bin" / "python"
    if not python.exists():
        subprocess.run(["uv", "venv", "--quiet", "--python", sys.executable, str(root)], check=True)
        subprocess.run(["uv", "pip", "install", "--quiet", "--python", str(python), *packages], check=True)
    return python


def project_sources(folder: Path) -> Path:
    """The project's engine and what it imports, copied out alone, so a configuration's environment
    imports them without the rest of this environment (another ONNX Runtime, say)."""
    import kokoro_bench
    import kokoro_core
    import kokoro_server
    import kokoro_tools

    for package in (kokoro_bench, kokoro_core, kokoro_server, kokoro_tools):
        source = Path(package.__file__).parent
        shutil.copytree(source, folder / source.name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def runtime_python(configuration: str) -> Path:
    kind, version = configuration.split("@")
    # The worker imports the engine, whose text pipeline needs num2words (kokoro_server.text.spoken) and whose
    # word times need onnx (kokoro_server.engine.durations), and kokoro_core its validation (pydantic) and SSML
    # parser (defusedxml), whichever configuration it runs.
    common = [
        "kokoro-onnx==0.6.1",
        "numpy==2.5.5",
        "num2words==0.5.14",
        "onnx==1.23.2",
        "pydantic==2.14.4",
        "defusedxml==0.7.1",
    ]
    if kind.startswith("openvino"):
        return venv(f"openvino-{version}", [f"openvino=={version}", "onnxruntime==1.32.0", *common])
    return venv(f"ort-{version}", [f"onnxruntime=={version}", *common])


def write_wav(path: Path, audio) -> None:
    import numpy as np

    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes((np.clip(audio, -1, 1) * 32767).astype(np.int16).tobytes())


def work(kind: str, model_dir: Path, texts: dict[str, str], wav_dir: Path) -> dict:
    """Runs inside a configuration's environment: synthesize every text, time it, write each reply's WAV."""
    import numpy as np
    import onnxruntime

    from kokoro_core.chunker import chunk_text
    from kokoro_core.model_cache import verify_directory
    from kokoro_server.engine.kokoro import Engine, EngineOptions
    from kokoro_server.text.reading import VoiceReading

    manifest = verify_directory(model_dir)
    if kind.startswith("engine"):
        options = EngineOptions(
            device="cpu", threads_per_worker=os.cpu_count() or 1, convolutions_as_matmuls=kind == "engine"
        )
        engine = Engine(model_dir, manifest, options)
        engine.warm_up()
        runtime = f"onnxruntime {onnxruntime.__version__}"

        # As written, like Kokoro.create: the same words to synthesize and to hear.
        as_written = VoiceReading(normalized=False)

        def speak(text: str):
            chunks = chunk_text(text, reading=as_written)
            return np.concatenate([engine.synthesize(chunk, VOICE, reading=as_written).audio for chunk in chunks])
    elif kind.startswith("openvino"):
        import importlib

        import onnx

        # Only this worker imports OpenVINO, in the environment runtime_python makes for it; the project
        # itself neither needs nor installs it.
        openvino = importlib.import_module("openvino")
        from kokoro_onnx.chunker import split_phonemes
        from kokoro_onnx.config import MAX_PHONEME_LENGTH
        from kokoro_onnx.tokenizer import Tokenizer

        from kokoro_server.engine.float_graph import float_graph
        from kokoro_server.engine.model_interface import find_interface

        model = onnx.load(str(model_dir / manifest.onnx))
        float_graph(model)
        roles = find_interface(model)
        core = openvino.Core()
        precision = kind.removeprefix("openvino-")
        compiled = core.compile_model(
            core.read_model(model.SerializeToString()),
            "CPU",
            {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": precision},
        )
        request = compiled.create_infer_request()
        tokenizer = Tokenizer()
        style = np.fromfile(model_dir / manifest.voices / f"{VOICE}.bin", np.float32).reshape(-1, 1, 256)

        def speak(text: str):
            pieces = []
            for phonemes in split_phonemes(tokenizer.phonemize(text, "en-us"), MAX_PHONEME_LENGTH):
                tokens = tokenizer.tokenize(phonemes)
                inputs = {
                    roles.tokens: np.array([[0, *tokens, 0]], dtype=roles.tokens_dtype),
                    roles.style: style[len(tokens) - 1],
                    roles.speed: np.array([1.0], dtype=roles.speed_dtype),
                }
                pieces.append(request.infer(inputs)[compiled.output(roles.audio)].ravel())
            return np.concatenate(pieces)

        speak("Ready.")
        runtime = f"openvino {openvino.__version__.split('-')[0]} ({precision})"
    else:
        from kokoro_onnx import Kokoro

        voices = wav_dir / "voices.npz"
        np.savez(
            voices, **{VOICE: np.fromfile(model_dir / manifest.voices / f"{VOICE}.bin", np.float32).reshape(-1, 1, 256)}
        )
        kokoro = Kokoro(str(model_dir / manifest.onnx), str(voices))
        kokoro.create("Ready.", voice=VOICE, lang="en-us")

        def speak(text: str):
            return kokoro.create(text, voice=VOICE, speed=1.0, lang="en-us")[0]

        runtime = f"onnxruntime {onnxruntime.__version__}"

    synth = audio = 0.0
    for name, text in texts.items():
        started = time.perf_counter()
        samples = speak(text)
        synth += time.perf_counter() - started
        audio += len(samples) / SAMPLE_RATE
        write_wav(wav_dir / f"{name}.wav", samples)
    return {"runtime": runtime, "synth_s": synth, "audio_s": audio}


def transcribe(wav_dir: Path, names: list[str]) -> dict[str, str]:
    """Words pocketsphinx hears in each WAV (resampled to its 16 kHz)."""
    python = venv("recognizer", ["pocketsphinx==5.1.1", "soxr==1.1.0", "numpy==2.5.5"])
    program = (
        "import json, sys, wave, numpy as np, soxr\n"
        "from pocketsphinx import Decoder\n"
        "heard = {}\n"
        "for path in sys.argv[1:]:\n"
        "    with wave.open(path) as r:\n"
        "        a = np.frombuffer(r.readframes(r.getnframes()), np.int16).astype(np.float32) / 32768\n"
        "    pcm = (np.clip(soxr.resample(a, 24000, 16000), -1, 1) * 32767).astype(np.int16).tobytes()\n"
        "    d = Decoder(samprate=16000)\n"
        "    d.start_utt(); d.process_raw(pcm, full_utt=True); d.end_utt()\n"
        "    heard[path] = d.hyp().hypstr if d.hyp() else ''\n"
        "print(json.dumps(heard))\n"
    )
    paths = [str(wav_dir / f"{name}.wav") for name in names]
    heard = json.loads(
        subprocess.run([str(python), "-c", program, *paths], check=True, capture_output=True, text=True).stdout
    )
    return {name: heard[path] for name, path in zip(names, paths, strict=True)}


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word-level edit distance over the reference's length."""
    ref, hyp = reference.split(), hypothesis.split()
    row = list(range(len(hyp) + 1))
    for i, word in enumerate(ref, start=1):
        previous, row[0] = row[0], i
        for j, other in enumerate(hyp, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
    return row[-1] / max(1, len(ref))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--versions", default="1.26.0,1.29.0,1.31.1,1.32.0", help="ONNX Runtime versions for the engine"
    )
    parser.add_argument("--peers", default=PEERS, help="ONNX Runtime versions for kokoro-onnx (the last: the baseline)")
    parser.add_argument("--openvino", help="an OpenVINO version to run the float graph on, at f32 and bf16")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--replies", type=int, default=12, help="how many corpus replies (from the first)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--texts", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--wav-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        texts = json.loads(args.texts.read_text())
        print(json.dumps(work(args.worker, args.model_dir, texts, args.wav_dir)))
        return

    from kokoro_bench.corpus import AGENT_REPLIES, load_replies

    if args.model_dir is None:
        from kokoro_server.engine.embedded_model import model_directory

        args.model_dir = model_directory()
    texts = dict(list(load_replies(AGENT_REPLIES).items())[: args.replies])
    versions = args.versions.split(",")
    peers = [f"kokoro-onnx@{version}" for version in args.peers.split(",")]
    baseline = peers[-1]
    configurations = [f"engine@{version}" for version in versions] + [f"engine-convinteger@{versions[-1]}", *peers]
    if args.openvino:
        configurations += [f"openvino-{precision}@{args.openvino}" for precision in ("f32", "bf16")]
    scratch = Path(tempfile.mkdtemp(prefix="cpu-runtime-"))
    sources = project_sources(scratch / "sources")
    (scratch / "texts.json").write_text(json.dumps(texts))
    samples: dict[str, list[dict]] = {configuration: [] for configuration in configurations}
    for round_number in range(args.rounds):
        for configuration in configurations:
            wav_dir = scratch / configuration
            wav_dir.mkdir(exist_ok=True)
            command = [
                str(runtime_python(configuration)),
                "-m",
                "kokoro_bench.cpu_runtime",
                "--worker",
                configuration.split("@")[0],
                "--model-dir",
                str(args.model_dir),
                "--texts",
                str(scratch / "texts.json"),
                "--wav-dir",
                str(wav_dir),
            ]
            env = {**os.environ, "PYTHONPATH": str(sources)}
            result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout)
            samples[configuration].append(result)
            print(
                f"round {round_number + 1}: {configuration}: RTF {result['synth_s'] / result['audio_s']:.3f}",
                flush=True,
            )

    heard = {configuration: transcribe(scratch / configuration, list(texts)) for configuration in configurations}
    summary = {}
    for configuration, runs in samples.items():
        rtf = [run["synth_s"] / run["audio_s"] for run in runs]
        summary[configuration] = {
            "runtime": runs[0]["runtime"],
            "rtf_median": round(statistics.median(rtf), 3),
            "rtf_runs": [round(value, 3) for value in rtf],
            "synth_s_median": round(statistics.median(run["synth_s"] for run in runs), 1),
            "audio_s": round(runs[0]["audio_s"], 1),
            "speedup_vs_baseline": None,
            "words_differing_from_baseline": round(
                statistics.mean(word_error_rate(heard[baseline][n], heard[configuration][n]) for n in texts), 3
            ),
        }
    for configuration in configurations:
        summary[configuration]["speedup_vs_baseline"] = round(
            summary[baseline]["synth_s_median"] / summary[configuration]["synth_s_median"], 2
        )
    result = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "replies": list(texts),
        "rounds": args.rounds,
        "voice": VOICE,
        "configurations": summary,
        "heard": heard,
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "cpu_runtime.json").write_text(json.dumps(result, indent=2) + "\n")
        lines = [
            "# CPU runtimes, and the engine against kokoro-onnx's Kokoro.create",
            "",
            f"`uv run python -m kokoro_bench.cpu_runtime {shlex.join(sys.argv[1:])}` on {platform.platform()}, "
            f"{os.cpu_count()} CPUs; {len(texts)} corpus replies, voice {VOICE}, int8 model; configurations "
            "alternate round by round. Words differing: word error rate of pocketsphinx's transcript against "
            f"its transcript of {baseline}'s audio.",
            "",
            "| configuration | runtime | RTF (median) | synthesis s | speed-up vs baseline | words differing |",
            "| --- | --- | ---: | ---: | ---: | ---: |",
        ]
        for configuration, figures in summary.items():
            lines.append(
                f"| {configuration} | {figures['runtime']} | {figures['rtf_median']} | "
                f"{figures['synth_s_median']} | {figures['speedup_vs_baseline']}x | "
                f"{figures['words_differing_from_baseline']:.1%} |"
            )
        (args.out / "cpu_runtime.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
