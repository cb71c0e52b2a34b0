"""The generator's harmonic source, computed so that an item's audio does not hang on rounding.

Kokoro's vocoder drives its convolutions with a harmonic source (a sine at the predicted F0 and its
overtones) and with that source's STFT, magnitude and phase. The export computes both in a way that a
change in the last bit of anything upstream can swing, and in a batch the last bits do change (a sum
over a longer, masked axis rounds differently):

- **The sine's phase** is the running sum of F0 over the utterance, in radians, in float32: past a few
  seconds it is above 10^5, where float32 steps by 0.01 radian. Here the sum runs in float64 from the
  frame-level F0 (the export's per-sample increments are constant over each of its 300-sample steps), is
  upsampled by the same linear interpolation the export's ``Resize`` does, and is wrapped to one turn
  before it becomes float32.
- **The source's STFT phase** is atan2 of parts that are exactly 0 in a silent stretch (the source is
  constant there, and a constant frame's DFT is 0 past its second bin, whose imaginary part is 0), but
  come out as rounding noise of either sign: the export's atan2 then flips between -π and π with that
  sign, and the model's output follows. Here parts within ``NOISE_FLOOR`` of 0 are 0, as in exact
  arithmetic, and a bin with both parts 0 has phase 0.

Both change the audio of a chunk alone too, only where the export's output was rounding noise (measured
in ``docs/batching.md``).
"""

from __future__ import annotations

import math

import numpy as np
from onnx import TensorProto

from .graph_edit import GraphEdit, GraphEditError

TWO_PI = 2 * math.pi
NOISE_FLOOR = 1e-5  # a source STFT part below this is rounding noise: the parts of speech are far above it


def precise_phase(edit: GraphEdit, f0_upsample: str, phase_upsample: str, harmonics_mul: str, rate_div: str) -> None:
    """Compute the sine's phase in float64 from the F0 that ``f0_upsample`` (a Resize) upsamples, in place of
    what ``phase_upsample`` (the Resize of the float32 phase) gives."""
    e = edit
    f0_resize, phase_resize = e.find(f0_upsample), e.find(phase_upsample)
    f0 = f0_resize.input[0]  # [batch, 1, steps]: F0 at twice the frame rate
    scales = e.array(phase_resize.input[2])
    if scales is None:
        raise GraphEditError(f"{phase_upsample!r} has no constant scales: not the export this rewrite knows")
    per_step = int(scales.ravel()[-1])  # samples per F0 step
    turns = e.node("Div", [e.node("Mul", [f0, e.find(harmonics_mul).input[1]]), e.find(rate_div).input[1]])
    increment = e.node("Sub", [turns, e.node("Floor", [turns])])  # [batch, harmonics, steps], as the export
    wide = e.node("Cast", [increment], to=TensorProto.DOUBLE)
    phase = e.node("Mul", [e.node("CumSum", [wide, e.const(2)]), e.const(TWO_PI * per_step, np.float64)])
    steps = e.node("Gather", [e.node("Shape", [phase]), e.const(2)])
    last = e.node("Sub", [steps, e.const(1)])
    following = e.node("Min", [e.node("Add", [e.node("Range", [e.const(0), steps, e.const(1)]), e.const(1)]), last])
    rise = e.node("Sub", [e.node("Gather", [phase, following], axis=2), phase])  # to the next step; 0 at the end
    wrapped = e.node("Mod", [phase, e.const(TWO_PI, np.float64)], fmod=1)
    # Linear interpolation with half-pixel centres, clamped at both ends: the export's Resize.
    samples = e.node("Range", [e.const(0), e.node("Mul", [steps, e.const(per_step)]), e.const(1)])
    source = e.node("Cast", [samples], to=TensorProto.DOUBLE)
    centre = e.node(
        "Sub",
        [
            e.node("Div", [e.node("Add", [source, e.const(0.5, np.float64)]), e.const(float(per_step), np.float64)]),
            e.const(0.5, np.float64),
        ],
    )
    clamped = e.node(
        "Min",
        [e.node("Max", [centre, e.const(0.0, np.float64)]), e.node("Cast", [last], to=TensorProto.DOUBLE)],
    )
    below = e.node("Floor", [clamped])
    weight = e.node("Sub", [clamped, below])
    index = e.node("Cast", [below], to=TensorProto.INT64)
    upsampled = e.node(
        "Add",
        [e.node("Gather", [wrapped, index], axis=2), e.node("Mul", [e.node("Gather", [rise, index], axis=2), weight])],
    )
    turned = e.node("Mod", [upsampled, e.const(TWO_PI, np.float64)], fmod=1)
    e.rewire(phase_resize.output[0], e.node("Cast", [turned], to=TensorProto.FLOAT))
    e.commit()


def stable_phase(edit: GraphEdit, real: str, imaginary: str, phase: str) -> None:
    """Replace ``phase`` (the export's atan2 of ``real`` and ``imaginary``) where it feeds a Concat with atan2
    of the parts with their rounding noise set to 0."""
    e = edit
    zero = e.const(0.0, np.float32)

    def snapped(part: str) -> str:
        quiet = e.node("Less", [e.node("Abs", [part]), e.const(NOISE_FLOOR, np.float32)])
        return e.node("Where", [quiet, zero, part])

    re, im = snapped(real), snapped(imaginary)
    pi = e.const(math.pi, np.float32)
    angle = e.node("Atan", [e.node("Div", [im, re])])  # ±inf where re is 0: ±π/2, as atan2
    upper = e.node("Where", [e.node("Greater", [im, zero]), e.node("Add", [angle, pi]), e.node("Sub", [angle, pi])])
    quadrant = e.node("Where", [e.node("Less", [re, zero]), upper, angle])
    silent = e.node("And", [e.node("Equal", [re, zero]), e.node("Equal", [im, zero])])
    e.rewire(
        phase,
        e.node("Where", [silent, zero, quadrant]),
        only=[node for node in e.consumers[phase] if node.op_type == "Concat"],
    )
    e.commit()
