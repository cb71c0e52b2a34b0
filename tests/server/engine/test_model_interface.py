"""The graph's inputs and outputs found by role, whatever each export names them: small graphs for each rule and
refusal, then the real weights under every interface a user may deploy, one chunk per call and batched."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from kokoro_core.model_cache import verify_directory
from kokoro_server.engine.device import load_on_device
from kokoro_server.engine.durations import NoDurations
from kokoro_server.engine.kokoro import Engine, EngineOptions
from kokoro_server.engine.model_interface import (
    ModelInterface,
    ModelInterfaceError,
    feed_speed_as_float,
    find_interface,
)
from kokoro_server.engine.model_session import ModelSession
from kokoro_server.engine.speech_engine import Speech, SpeechRequest
from kokoro_server.settings import ServerSettings
from kokoro_tools.deploy_shaped import deploy_shaped
from tests.server.serving.test_marks import DIGIT_NAMES, heard_digit

FLOAT, INT64, INT32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32


def model_of(
    inputs: list[tuple[str, int, list[int | str]]],
    outputs: list[tuple[str, int]],
    nodes: list[onnx.NodeProto] | None = None,
) -> onnx.ModelProto:
    """A graph with these inputs and outputs, each output computed from the first input unless ``nodes`` say."""
    if nodes is None:
        nodes = [helper.make_node("Cast", [inputs[0][0]], [name], to=kind) for name, kind in outputs]
    graph = helper.make_graph(
        nodes,
        "roles",
        [helper.make_tensor_value_info(name, kind, shape) for name, kind, shape in inputs],
        [helper.make_tensor_value_info(name, kind, None) for name, kind in outputs],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


KOKORO_ONNX = [("tokens", INT64, [1, "n"]), ("style", FLOAT, [1, 256]), ("speed", FLOAT, [1])]
ONNX_COMMUNITY = [("input_ids", INT64, [1, "sequence_length"]), ("style", FLOAT, [1, 256]), ("speed", FLOAT, [1])]


def test_each_role_is_found_whatever_the_export_calls_it() -> None:
    assert find_interface(model_of(KOKORO_ONNX, [("audio", FLOAT)])) == ModelInterface(
        "tokens", "style", "speed", "audio"
    )
    found = find_interface(model_of(list(reversed(ONNX_COMMUNITY)), [("waveform", FLOAT)]))
    assert (found.tokens, found.style, found.speed, found.audio, found.durations) == (
        "input_ids",
        "style",
        "speed",
        "waveform",
        None,  # found inside the graph, at load
    )
    renamed = [("ids", INT32, [1, "n"]), ("ref_s", FLOAT, [1, 256]), ("rate", FLOAT, [1])]
    found = find_interface(model_of(renamed, [("out", FLOAT), ("pred_dur", INT64)]))
    assert (found.tokens, found.tokens_dtype, found.style, found.speed, found.audio, found.durations) == (
        "ids",
        "int32",
        "ref_s",
        "rate",
        "out",
        "pred_dur",
    )


def test_weights_listed_among_the_inputs_are_not_inputs() -> None:
    model = model_of(KOKORO_ONNX, [("audio", FLOAT)])
    model.graph.initializer.append(helper.make_tensor("weight", FLOAT, [2], [1.0, 2.0]))
    model.graph.input.append(helper.make_tensor_value_info("weight", FLOAT, [2]))
    assert find_interface(model).speed == "speed"


@pytest.mark.parametrize("cast_to", [FLOAT, TensorProto.FLOAT16])
def test_an_integer_speed_only_cast_to_a_float_is_fed_as_a_float(cast_to: int) -> None:
    inputs = [("input_ids", INT64, [1, "n"]), ("style", FLOAT, [1, 256]), ("speed", INT32, [1])]
    nodes = [
        helper.make_node("Cast", ["speed"], ["speed_float"], to=cast_to),
        helper.make_node("Cast", ["speed_float"], ["waveform"], to=FLOAT),
        helper.make_node("Cast", ["input_ids"], ["duration"], to=INT64),
    ]
    model = model_of(inputs, [("waveform", FLOAT), ("duration", INT64)], nodes)
    found = find_interface(model)
    assert (found.speed_feed, found.speed_dtype) == ("cast", "int32")
    assert model.graph.input[2].type.tensor_type.elem_type == INT32  # finding changes nothing
    fed = feed_speed_as_float(model, found)
    assert (fed.speed_feed, fed.speed_dtype, fed.speeds([1.1])) == ("cast", "float32", [1.1])  # 1.1 is 1.1, not 1
    assert model.graph.input[2].type.tensor_type.elem_type == FLOAT
    assert "int in the export, fed as float" in fed.describe()


def test_an_integer_speed_the_graph_uses_as_one_is_fed_whole() -> None:
    inputs = [("input_ids", INT64, [1, "n"]), ("style", FLOAT, [1, 256]), ("speed", INT32, [1])]
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids32"], to=INT32),
        helper.make_node("Div", ["ids32", "speed"], ["slowed"]),
        helper.make_node("Cast", ["slowed"], ["waveform"], to=FLOAT),
    ]
    found = find_interface(model_of(inputs, [("waveform", FLOAT)], nodes))
    assert found.speed_feed == "whole" and found.speed_dtype == "int32" and "whole speeds only" in found.describe()
    assert found.speeds([0.6, 1.4, 1.5, 2.5]) == [1.0, 1.0, 2.0, 3.0]  # the nearest, halves up, at least 1


def test_an_integer_speed_read_inside_a_subgraph_is_fed_whole() -> None:
    inputs = [("input_ids", INT64, [1, "n"]), ("style", FLOAT, [1, 256]), ("speed", INT32, [1])]
    body = helper.make_graph(
        [helper.make_node("Identity", ["speed"], ["inner"])],
        "body",
        [],
        [helper.make_tensor_value_info("inner", INT32, None)],
    )
    nodes = [
        helper.make_node("Cast", ["speed"], ["speed_float"], to=FLOAT),
        helper.make_node("Cast", ["speed_float"], ["flag"], to=TensorProto.BOOL),
        helper.make_node("If", ["flag"], ["branch"], then_branch=body, else_branch=body),
        helper.make_node("Cast", ["speed_float"], ["waveform"], to=FLOAT),
    ]
    assert find_interface(model_of(inputs, [("waveform", FLOAT)], nodes)).speed_feed == "whole"


def test_other_ranks_and_undeclared_shapes_are_read_by_what_they_can_be() -> None:
    flat = [("input_ids", INT64, [1, "n"]), ("style", FLOAT, [256]), ("speed", FLOAT, [])]
    found = find_interface(model_of(flat, [("waveform", FLOAT)]))
    assert (found.style, found.style_rank, found.speed, found.speed_rank) == ("style", 1, "speed", 0)
    model = model_of(KOKORO_ONNX, [("audio", FLOAT)])
    for value in model.graph.input:
        if value.name != "speed":
            value.type.tensor_type.ClearField("shape")  # declared by type only
    found = find_interface(model)
    assert (found.tokens, found.style, found.speed) == ("tokens", "style", "speed")


@pytest.mark.parametrize(
    ("inputs", "outputs", "problem"),
    [
        (KOKORO_ONNX, [("durations", INT64)], "expected one float output that is the audio"),
        (KOKORO_ONNX, [("a", FLOAT), ("b", FLOAT)], "expected one float output that is the audio"),
        (KOKORO_ONNX[1:], [("audio", FLOAT)], "expected one input that is the token ids .* found none"),
        (KOKORO_ONNX[:2], [("audio", FLOAT)], "expected one input that is the speed .* found none"),
        (
            [*KOKORO_ONNX, ("voice_id", INT64, [1])],
            [("audio", FLOAT)],
            "expected one input that is the speed .* found speed, voice_id",
        ),
        (
            [*KOKORO_ONNX, ("mask", FLOAT, [1, "n", "n"])],
            [("audio", FLOAT)],
            "inputs mask are neither token ids, style nor speed",
        ),
        (KOKORO_ONNX, [("audio", FLOAT), ("d1", INT64), ("d2", INT64)], "at most one integer output .* d1, d2"),
    ],
)
def test_a_graph_without_a_role_is_refused_with_what_it_has_and_what_is_needed(inputs, outputs, problem) -> None:
    with pytest.raises(ModelInterfaceError, match=problem) as refused:
        find_interface(model_of(inputs, outputs))
    message = str(refused.value)
    assert "The graph has inputs" in message and "The server needs token ids" in message


def saved(tmp_path: Path, model: onnx.ModelProto) -> Path:
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    return path


def test_loading_a_graph_without_an_audio_output_fails_naming_it(tmp_path: Path) -> None:
    path = saved(tmp_path, model_of(ONNX_COMMUNITY, [("duration", INT64)]))
    with pytest.raises(ModelInterfaceError, match="float output that is the audio.*outputs duration \\(int64"):
        ModelSession(path, EngineOptions(device="cpu"), np.zeros((510, 256), np.float32))


def test_loading_a_graph_without_durations_fails_naming_them(tmp_path: Path) -> None:
    path = saved(tmp_path, model_of(ONNX_COMMUNITY, [("waveform", FLOAT)]))
    with pytest.raises(NoDurations, match="CumSum over rounded per-token durations.*integer output"):
        ModelSession(path, EngineOptions(device="cpu"), np.zeros((510, 256), np.float32))


# The real weights under each interface. The int8 ones are the embedded graph renamed: every sample must be
# the embedded model's. The fp32 one is onnx-community's interface around the float graph rebuilt from them.
DIGITS = "Your code is 4 7 1 9."


@pytest.fixture(scope="module")
def embedded_speech(embedded_model_dir: Path) -> Speech:
    engine = Engine(embedded_model_dir, verify_directory(embedded_model_dir), EngineOptions(device="cpu"))
    return engine.synthesize(DIGITS, "af_heart")


def loaded(name: str, float32: bool, max_batch: int) -> Engine:
    directory = deploy_shaped(name, float32)
    engine, plan = load_on_device(
        ServerSettings(device="cpu", max_batch=max_batch), directory, verify_directory(directory)
    )
    assert plan.max_batch == engine.max_batch == max_batch and not plan.note, plan.note  # batching, if asked, held
    return engine


def digits_heard_at_their_marks(speech: Speech, grammar: Path) -> int:
    digits = [word for word in speech.words if word.text.strip(".,").isdigit()]
    assert [word.text.strip(".") for word in digits] == ["4", "7", "1", "9"]
    return sum(
        heard_digit(speech.audio[word.start : word.end], grammar) == DIGIT_NAMES[int(word.text.strip("."))]
        for word in digits
    )


@pytest.fixture
def grammar(tmp_path: Path) -> Path:
    path = tmp_path / "digit.gram"
    path.write_text(f"#JSGF V1.0;\ngrammar digit;\npublic <digit> = ( {' | '.join(DIGIT_NAMES)} ) ;\n")
    return path


@pytest.mark.parametrize("max_batch", [1, 2])
def test_an_export_with_durations_out_and_an_int_speed_speaks_as_the_embedded_model(
    embedded_speech: Speech, embedded_model_dir: Path, max_batch: int, grammar: Path
) -> None:
    engine = loaded("with-durations", float32=False, max_batch=max_batch)
    assert "int in the export, fed as float" in engine.interface.describe()
    interface = engine.interface
    assert (interface.tokens, interface.audio, interface.speed_feed) == ("input_ids", "waveform", "cast")
    speech = engine.synthesize(DIGITS, "af_heart")
    if max_batch == 1:  # the export's own durations output, and every sample the embedded model's
        assert interface.durations == "duration"
        assert np.array_equal(speech.audio, embedded_speech.audio) and speech.words == embedded_speech.words
    else:
        (batched, other) = engine.speak_batch(
            [
                SpeechRequest(engine.prepare(DIGITS, "af_heart"), 1.0),
                SpeechRequest(engine.prepare("Hi.", "am_adam"), 1.2),
            ]
        )
        assert isinstance(batched, Speech) and isinstance(other, Speech)
        assert batched.words == speech.words and np.array_equal(batched.audio, speech.audio)  # alone or in company
    assert digits_heard_at_their_marks(speech, grammar) >= 3
    slower = engine.synthesize(DIGITS, "af_heart", speed=0.8)  # a fractional speed, through an int32 input
    assert len(slower.audio) > 1.15 * len(speech.audio)


def test_onnx_community_s_interface_around_the_float_weights_speaks_with_marks_at_its_words(
    embedded_speech: Speech, grammar: Path
) -> None:
    engine = loaded("onnx-community", float32=True, max_batch=1)
    assert (engine.interface.tokens, engine.interface.audio, engine.interface.durations) == (
        "input_ids",
        "waveform",
        None,
    )
    speech = engine.synthesize(DIGITS, "af_heart")
    assert [word.text for word in speech.words] == [word.text for word in embedded_speech.words]
    frame = 600  # samples of one duration frame: the float graph's rounding may move a word by one
    for word, int8_word in zip(speech.words, embedded_speech.words, strict=True):
        assert abs(word.start - int8_word.start) <= 2 * frame and abs(word.end - int8_word.end) <= 2 * frame
    assert digits_heard_at_their_marks(speech, grammar) >= 3
