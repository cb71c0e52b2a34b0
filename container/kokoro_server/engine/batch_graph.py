"""The Kokoro graph made to speak a batch: several chunks, of different voices, speeds and lengths, in one
inference call, each item's audio and durations what it gets alone.

The export was traced at batch 1 with no padding, so a batch needs more than a wider first axis:

1. **Batch axes** (``_batch_axes``): shapes the trace froze at 1 follow the batch (a reshape to [1, -1], the
   STFT's [1, samples]), the style is broadcast per item, the iSTFT's window normalisation scatters into
   every item, not the first, and the LSTMs start from zero states of any batch.
2. **Lengths and alignment** (``_lengths_and_alignment``): a new input, ``lengths``, gives each item's token
   count. The ALBERT encoder's attention mask is made from it (the trace's was all ones); a padded token's
   duration is 0; each item's frames are aligned to its own tokens from its own durations; the outputs are
   audio [batch, samples], ``durations`` [batch, tokens] and ``frames`` [batch]. The export's inputs and outputs
   are found by role (``model_interface``), whatever the export calls them.
3. **Padding** (``padding_masks``, on the resolutions ``time_axes`` measures): what reads past an item's end
   reads zeros, instance norms average over the item alone, LSTMs stop at its end, the STFT reflects it.
4. **Quantization**, in the int8 graph (``item_quantization``, ``float_graph``): each item quantized on its
   own range; the LSTMs, which ONNX Runtime quantizes over the whole batch, in float.
5. **The harmonic source** (``harmonic_source``): computed so that its output does not hang on rounding.

Each step finds the export's nodes by name and raises ``GraphEditError`` naming what it did not find: a graph
this does not know is refused (the server then speaks one chunk per call), never half-batched.

In a batch, an item's tokens are followed by pad tokens (0) up to the longest item's; its audio is the first
``frames × samples_per_frame`` samples of its row. The int8 graph gives each item the very samples it gets
alone; the float graph, the same to float rounding (``tests/server/engine/test_batched_engine.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto, helper

from . import harmonic_source
from .float_graph import float_graph
from .graph_edit import GraphEdit, GraphEditError
from .item_quantization import quantize_per_item
from .model_interface import DURATIONS, FRAMES, LENGTHS, ModelInterface
from .padding_masks import LSTMS, MASKED_INPUTS, Masks, mask_padding, reflect_each_end
from .time_axes import measure

# The export's node names (kokoro-onnx's Kokoro-82M v1.0 graph, its int8 quantization and its float rebuild).
ENCODER = "/encoder/"
GENERATOR = "/decoder/decoder/generator/"
ISTFT = GENERATOR + "istft/stft/"
SINE = GENERATOR + "m_source/l_sin_gen/"
ATTENTION_MASK = ENCODER + "bert/ConstantOfShape_output_0"  # all ones: the trace had no padding
ROUNDED_DURATIONS = ENCODER + "Cast_output_0"  # [batch, tokens] int64, each at least 1
ALIGNMENT = ENCODER + "Cast_4_output_0"  # [tokens, frames]: which frames each token lasts


@dataclass(frozen=True)
class BatchGraph:
    """What the rewrite did, for the log and the tests."""

    samples_per_frame: int
    changed: dict[str, int] = field(default_factory=dict)


def _batch_axes(e: GraphEdit, interface: ModelInterface) -> None:
    if (interface.style_rank, interface.speed_rank) != (2, 1):
        raise GraphEditError(
            f"the style is of rank {interface.style_rank}, the speed {interface.speed_rank}: expected 2, 1"
        )
    del e.graph.value_info[:]  # the shapes recorded at batch 1
    for value in e.graph.input:
        if value.name in (interface.tokens, interface.style, interface.speed):
            value.type.tensor_type.shape.dim[0].dim_param = "batch"
    expand = e.find(ENCODER + "predictor/text_encoder/Expand")  # the style, [batch, 128], over [batch, tokens, 128]
    expand.input[0] = e.node("Unsqueeze", [expand.input[0], e.const([1])])
    frozen = [
        node
        for node in e.graph.node
        if node.op_type == "Reshape" and (shape := e.array(node.input[1])) is not None and shape.tolist() == [1, -1]
    ]
    if len(frozen) != 3:  # F0, N and the audio
        raise GraphEditError(f"expected 3 reshapes to [1, -1], found {len(frozen)}")
    for node in frozen:
        node.input[1] = e.const([0, -1])
    source_shape = e.find(GENERATOR + "Concat")  # [1, 1, samples] of the harmonic source
    source_shape.input[0] = e.node(
        "Slice", [e.node("Shape", [GENERATOR + "Squeeze_output_0"]), e.const([0]), e.const([1])]
    )
    e.find(GENERATOR + "Concat_2").input[0] = e.const([-1])  # the STFT's input, [1, samples]
    audio = e.made_by(interface.audio)
    if audio.op_type != "Gather":
        raise GraphEditError(f"the audio is made by a {audio.op_type}, expected the Gather of the first item")
    audio.op_type = "Identity"
    del audio.input[1:]
    del audio.attribute[:]
    # The export's own outputs but the audio (its durations, at batch 1) give way to the batch's.
    audio_type = next(output.type.tensor_type.elem_type for output in e.graph.output if output.name == interface.audio)
    kept = [helper.make_tensor_value_info(interface.audio, audio_type, ["batch", "samples"])]
    del e.graph.output[:]
    e.graph.output.extend(kept)
    for node in e.graph.node:
        if node.op_type in LSTMS:
            for index in (5, 6):  # zero initial states, of batch 1
                if len(node.input) > index:
                    node.input[index] = ""
    # The iSTFT divides its first samples by the window's overlap sum with a ScatterND into item 0: transposed,
    # the same scatter updates every item.
    time_major = e.node("Transpose", [ISTFT + "Squeeze_1_output_0"], perm=[1, 0])
    updates = e.node("Transpose", [e.node("Squeeze", [ISTFT + "Div_output_0", e.const([2])])], perm=[1, 0])
    scattered = e.node("ScatterND", [time_major, ISTFT + "Transpose_output_0", updates])
    e.rewire(e.made_by(ISTFT + "ScatterND_output_0").output[0], e.node("Transpose", [scattered], perm=[1, 0]))
    e.commit()


def _lengths_and_alignment(e: GraphEdit, interface: ModelInterface) -> None:
    e.graph.input.append(helper.make_tensor_value_info(LENGTHS, TensorProto.INT64, ["batch"]))
    tokens = e.node("Gather", [e.node("Shape", [interface.tokens]), e.const(1)])
    positions = e.node("Unsqueeze", [e.node("Range", [e.const(0), tokens, e.const(1)]), e.const([0])])
    real = e.node("Less", [positions, e.node("Unsqueeze", [LENGTHS, e.const([1])])])  # [batch, tokens]
    e.made_by(ATTENTION_MASK)
    e.rewire(ATTENTION_MASK, e.node("Cast", [real], to=TensorProto.FLOAT))
    division = e.find(ENCODER + "Div")  # the summed duration logits by speed
    division.input[1] = e.node("Unsqueeze", [division.input[1], e.const([1])])
    e.made_by(ROUNDED_DURATIONS)
    durations = e.node("Mul", [ROUNDED_DURATIONS, e.node("Cast", [real], to=TensorProto.INT64)])
    ends = e.node("CumSum", [durations, e.const(1)])
    starts = e.node("Sub", [ends, durations])
    frames = e.node("Squeeze", [e.node("Slice", [ends, e.const([-1]), e.const([2**62]), e.const([1])]), e.const([1])])
    longest = e.node("ReduceMax", [frames], keepdims=0)
    frame = e.node("Unsqueeze", [e.node("Range", [e.const(0), longest, e.const(1)]), e.const([0, 1])])
    within = e.node(
        "And",
        [
            e.node("GreaterOrEqual", [frame, e.node("Unsqueeze", [starts, e.const([2])])]),
            e.node("Less", [frame, e.node("Unsqueeze", [ends, e.const([2])])]),
        ],
    )
    e.made_by(ALIGNMENT)
    e.rewire(ALIGNMENT, e.node("Cast", [within], to=TensorProto.FLOAT))  # [batch, tokens, frames]
    e.add(helper.make_node("Identity", [durations], [DURATIONS], name=DURATIONS))
    e.add(helper.make_node("Identity", [frames], [FRAMES], name=FRAMES))
    e.graph.output.extend(
        [
            helper.make_tensor_value_info(DURATIONS, TensorProto.INT64, ["batch", "tokens"]),
            helper.make_tensor_value_info(FRAMES, TensorProto.INT64, ["batch"]),
        ]
    )
    e.commit()


def batch_capable(model: onnx.ModelProto, interface: ModelInterface, styles: np.ndarray) -> BatchGraph:
    """Rewrite ``model`` (the int8 export, or its float rebuild), whose tensors play the roles ``interface``
    names, in place to speak a batch; ``styles`` is a voice's style table ([lengths, 256]), for the short runs
    that measure the graph's time axes. Raises ``GraphEditError`` for a graph it does not know."""
    e = GraphEdit(model, "batch")
    _batch_axes(e, interface)
    _lengths_and_alignment(e, interface)
    changed: Counter[str] = Counter(float_graph(model, operators=("DynamicQuantizeLSTM",)))
    e.refresh()
    pad = e.made_by(GENERATOR + "Pad_output_0")  # the harmonic source, padded by reflection for its STFT
    read = {node.input[0] for node in e.graph.node if node.op_type in (*MASKED_INPUTS, "ReduceMean", *LSTMS)}
    axes, ranks = measure(model, interface, sorted(read | {pad.input[0]}), styles)
    source = axes.get(pad.input[0])
    masks = Masks(e, LENGTHS, e.made_by(FRAMES).input[0])
    changed.update(mask_padding(e, axes, ranks, masks))
    if source is None or (source.rank, source.time, source.level, source.offset) != (3, 2, "frames", 0):
        raise GraphEditError(f"the harmonic source is not [batch, 1, frames × n]: {source}")
    reflect_each_end(e, pad, source, masks)
    if any(node.op_type == "DynamicQuantizeLinear" for node in e.graph.node):
        changed["DynamicQuantizeLinear"] = quantize_per_item(e, axes, ranks)
    harmonic_source.precise_phase(
        e, GENERATOR + "f0_upsamp/Resize", SINE + "Resize_1", harmonics_mul=SINE + "Mul", rate_div=SINE + "Div"
    )
    harmonic_source.stable_phase(
        e, GENERATOR + "Gather_4_output_0", GENERATOR + "Gather_5_output_0", GENERATOR + "Where_1_output_0"
    )
    return BatchGraph(source.factor, dict(changed))


def is_batch_capable(model: onnx.ModelProto) -> bool:
    """Whether ``model`` already takes ``lengths`` (a graph this module wrote, saved)."""
    return any(value.name == LENGTHS for value in model.graph.input)
