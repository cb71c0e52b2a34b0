"""Batched inference on the real model: chunks of different voices, speeds and lengths spoken in one call,
each as it is alone. The int8 graph gives each item the same samples, durations and word marks; the float
graph rebuilt from its weights, the same durations and word marks and audio within 40 dB."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from kokoro_core.model_cache import verify_directory
from kokoro_server.engine import model_session
from kokoro_server.engine.batch_check import BatchMismatch, check_against_export, check_batch, snr_db
from kokoro_server.engine.batch_graph import batch_capable
from kokoro_server.engine.device import load_on_device
from kokoro_server.engine.float_graph import float_graph
from kokoro_server.engine.graph_edit import GraphEditError
from kokoro_server.engine.kokoro import Engine, EngineOptions
from kokoro_server.engine.model_check import without_cuda_kernel
from kokoro_server.engine.model_interface import ModelInterface, find_interface
from kokoro_server.engine.model_session import ModelInput
from kokoro_server.engine.speech_engine import Interrupted, Interruption, Speech, SpeechRequest
from kokoro_server.settings import ServerSettings
from tests.server.serving.test_marks import DIGIT_NAMES, heard_digit
from tests.waiting import wait_until

ITEMS = [  # (text, voice, speed): three lengths, three voices, three speeds
    ("Code 4 7 1.", "af_heart", 1.0),
    ("Call 2 8.", "am_michael", 1.25),
    ("The PIN is 6 5 1 4.", "bf_emma", 0.9),
]


@pytest.fixture(scope="module")
def int8_engine(embedded_model_dir: Path) -> Engine:
    """The engine as a server loads it to batch 4: rewritten, then checked against itself alone and the export."""
    engine, plan = load_on_device(
        ServerSettings(device="cpu", max_batch=4), embedded_model_dir, verify_directory(embedded_model_dir)
    )
    assert plan.max_batch == engine.max_batch == 4 and not plan.note, plan.note  # both start checks passed
    return engine


@pytest.fixture(scope="module")
def exported(embedded_model_dir: Path) -> Engine:
    return Engine(embedded_model_dir, verify_directory(embedded_model_dir), EngineOptions(device="cpu"))


def requests_for(engine: Engine) -> list[SpeechRequest]:
    return [SpeechRequest(engine.prepare(text, voice), speed, Interruption()) for text, voice, speed in ITEMS]


@pytest.fixture(scope="module")
def int8_alone(int8_engine: Engine) -> list[Speech]:
    """Each item spoken alone, once for the module's tests."""
    spoken = [
        int8_engine.speak_batch([SpeechRequest(request.chunk, request.speed)])[0]
        for request in requests_for(int8_engine)
    ]
    assert all(isinstance(speech, Speech) for speech in spoken)
    return spoken  # type: ignore[return-value]


def test_the_int8_graph_gives_each_item_of_a_batch_what_it_gets_alone(
    int8_engine: Engine, int8_alone: list[Speech], tmp_path: Path
) -> None:
    assert int8_engine.max_batch == 4
    requests = requests_for(int8_engine)
    batched = int8_engine.speak_batch(requests)
    grammar = tmp_path / "digit.gram"
    grammar.write_text(f"#JSGF V1.0;\ngrammar digit;\npublic <digit> = ( {' | '.join(DIGIT_NAMES)} ) ;\n")
    heard = right = 0
    for single, speech in zip(int8_alone, batched, strict=True):
        assert isinstance(speech, Speech)
        assert speech.words == single.words and speech.phonemes == single.phonemes  # durations and marks
        assert len(speech.audio) == len(single.audio) and snr_db(single.audio, speech.audio) > 80  # the same samples
        for word in speech.words:  # and the batch's audio says its digits where its marks say
            if word.text.strip(".,").isdigit():
                heard += 1
                said = heard_digit(speech.audio[word.start : word.end], grammar)
                right += said == DIGIT_NAMES[int(word.text.strip(".,"))]
    assert heard == 9 and right >= 0.8 * heard


def test_a_canceled_item_leaves_the_batch_and_the_others_finish(int8_engine: Engine, int8_alone: list[Speech]) -> None:
    requests = requests_for(int8_engine)[:2]
    canceled = requests[0].interruption
    assert canceled is not None
    results: list[Speech | Interrupted] = []
    worker = threading.Thread(target=lambda: results.extend(int8_engine.speak_batch(requests)))
    worker.start()
    wait_until(lambda: canceled.in_flight or not worker.is_alive(), "the batch's call to start", poll_seconds=0.001)
    assert canceled.interrupt() == 1  # the call was running
    worker.join()
    assert isinstance(results[0], Interrupted)
    for single, speech in zip(int8_alone[1:2], results[1:], strict=True):
        assert isinstance(speech, Speech) and speech.words == single.words


def test_a_batch_whose_items_are_all_canceled_stops_its_call(int8_engine: Engine) -> None:
    requests = requests_for(int8_engine)
    results: list[Speech | Interrupted] = []
    worker = threading.Thread(target=lambda: results.extend(int8_engine.speak_batch(requests)))
    worker.start()
    first = requests[0].interruption
    assert first is not None
    wait_until(lambda: first.in_flight or not worker.is_alive(), "the batch's call to start", poll_seconds=0.001)
    for request in requests:
        assert request.interruption is not None
        request.interruption.interrupt()
    worker.join()
    assert all(isinstance(result, Interrupted) for result in results)
    late = requests_for(int8_engine)[:1]
    late[0].interruption.interrupt()  # type: ignore[union-attr]
    assert isinstance(int8_engine.speak_batch(late)[0], Interrupted)  # refused before the call


def test_the_float_graph_gives_each_item_of_a_batch_what_it_gets_alone(
    int8_engine: Engine, embedded_model_dir: Path
) -> None:
    manifest = verify_directory(embedded_model_dir)
    model = onnx.load(str(embedded_model_dir / manifest.onnx))
    float_graph(model)
    styles = np.fromfile(embedded_model_dir / "voices" / "af_heart.bin", dtype=np.float32).reshape(-1, 256)
    export_without_kernels = without_cuda_kernel(model)
    batch_capable(model, find_interface(model), styles)
    assert without_cuda_kernel(model) == export_without_kernels  # the rewrite adds nothing a GPU lacks
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    items = [(request.chunk.pieces[0][1], request.speed) for request in requests_for(int8_engine)[:2]]

    def run(batch: list[tuple[tuple[int, ...], float]]) -> list[np.ndarray]:
        tokens = np.zeros((len(batch), max(len(ids) for ids, _ in batch) + 2), np.int64)
        for row, (ids, _) in enumerate(batch):
            tokens[row, 1 : len(ids) + 1] = ids
        feed = {
            "tokens": tokens,
            "lengths": np.array([len(ids) + 2 for ids, _ in batch]),
            "style": np.stack([styles[len(ids) - 1] for ids, _ in batch]),
            "speed": np.array([speed for _, speed in batch], np.float32),
        }
        return session.run(["audio", "durations", "frames"], feed)

    audio, durations, frames = run(items)
    for row, item in enumerate(items):
        one_audio, one_durations, one_frames = run([item])
        assert np.array_equal(durations[row, : len(item[0]) + 2], one_durations[0]) and frames[row] == one_frames[0]
        samples = one_audio.shape[1]
        assert snr_db(one_audio[0], audio[row, :samples]) >= 40


Outputs = list[tuple[np.ndarray, np.ndarray]]


class Harmed:
    """An engine whose every output is harmed alike, as a rewrite that does not fit the model would."""

    def __init__(self, engine: Engine, harm: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]):
        self.engine, self.harm = engine, harm

    def english_input(self, text: str, speed: float = 1.0) -> ModelInput:
        return self.engine.english_input(text, speed)

    def run_model(self, inputs: list[ModelInput]) -> Outputs:
        return [self.harm(audio, durations) for audio, durations in self.engine.run_model(inputs)]


def _one_token_longer(audio: np.ndarray, durations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return audio, durations + (np.arange(len(durations)) == 2) * 3


def _noise_as_loud(audio: np.ndarray, durations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    noise = np.random.default_rng(0).standard_normal(len(audio)).astype(np.float32)
    return noise * float(np.sqrt((audio**2).mean())), durations


@pytest.mark.parametrize("harm", [_one_token_longer, _noise_as_loud])
def test_a_rewrite_that_harms_every_item_alike_fails_the_check_against_the_export(
    int8_engine: Engine, exported: Engine, harm: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
) -> None:
    harmed: Any = Harmed(int8_engine, harm)
    check_batch(harmed)  # alike in a batch and alone: the first check cannot see it
    with pytest.raises(BatchMismatch, match="export"):
        check_against_export(harmed, exported)


def test_a_rewrite_that_fails_in_any_way_leaves_the_export_speaking_one_chunk_per_call(
    embedded_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def out_of_memory(*_: object) -> None:
        raise RuntimeError("out of memory while measuring the time axes")

    monkeypatch.setattr(model_session, "batch_capable", out_of_memory)
    engine, plan = load_on_device(
        ServerSettings(device="cpu", max_batch=4, batch_wait_ms=5),
        embedded_model_dir,
        verify_directory(embedded_model_dir),
    )
    assert engine.max_batch == plan.max_batch == 1 and plan.batch_wait_ms == 0
    assert plan.note == "batching off: RuntimeError: out of memory while measuring the time axes"
    (speech,) = engine.speak_batch([SpeechRequest(engine.prepare("Still speaking.", "af_heart"), 1.0)])
    assert isinstance(speech, Speech) and [word.text for word in speech.words] == ["Still", "speaking."]


def test_a_graph_it_does_not_know_is_refused_by_name() -> None:
    graph = helper.make_graph(
        [helper.make_node("Identity", ["tokens"], ["audio"])],
        "not-kokoro",
        [helper.make_tensor_value_info("tokens", TensorProto.INT64, [1, None])],
        [helper.make_tensor_value_info("audio", TensorProto.INT64, None)],
    )
    with pytest.raises(GraphEditError, match="predictor/text_encoder/Expand"):
        model = helper.make_model(graph)
        batch_capable(model, ModelInterface("tokens", "style", "speed", "audio"), np.zeros((510, 256), np.float32))


def test_a_server_batches_two_sessions_on_the_real_model_and_each_hears_what_it_hears_alone(
    int8_engine: Engine,
) -> None:
    """Through the whole server: a first caller's chunk keeps the worker busy while two more callers' first
    chunks queue; they are spoken in one call, and each hears the very bytes it hears alone."""
    from tests.local_server import RunningServer, wait_until_idle
    from tests.speech import audio_of, connect, run, until
    from tests.waiting import await_until

    texts = ["Code 4 7 1.", "Call 2 8."]

    async def scenario(server: RunningServer) -> tuple[list[bytes], list[bytes]]:
        async with aiohttp.ClientSession() as http:
            busy, *callers = [await connect(http, server.ws_url) for _ in range(3)]
            await busy.send_json({"type": "speak", "id": "busy", "text": "One moment while I look that up for you."})
            await await_until(lambda: server.stats()["running_jobs"], "the first caller's chunk to be spoken")
            for ws, text in zip(callers, texts, strict=True):
                await ws.send_json({"type": "speak", "id": "u", "text": text})
            await await_until(lambda: server.stats()["queued_jobs"] >= 2, "both callers' chunks to queue")
            together = [audio_of(await until(ws, "done", "u")) for ws in callers]
            await until(busy, "done", "busy")
            alone = []
            for text in texts:  # one at a time now: each alone in its call
                await callers[0].send_json({"type": "speak", "id": text, "text": text})
                alone.append(audio_of(await until(callers[0], "done", text)))
            for ws in (busy, *callers):
                await ws.close()
            return together, alone

    settings = ServerSettings(host="127.0.0.1", port=0, workers=1, batch_wait_ms=20)
    with RunningServer(settings, engine=int8_engine) as server:
        together, alone = run(scenario(server))
        scheduler = server.server.runtime.scheduler
        assert scheduler.items > scheduler.calls  # some call spoke more than one chunk
        assert wait_until_idle(server)["active_utterances"] == 0
    assert together == alone and all(together)
