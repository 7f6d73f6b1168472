"""The cube net in 8 bits: weights and activations as integers, for the reader's time on a slow machine.

    python -m tests.vision.cubenet_training.quantise DATA NET.onnx --out NET8.onnx [--pictures 96]

ONNX Runtime's static quantisation in its QDQ form: each convolution's input and weights quantised, its sums in
32-bit integers. Weights are quantised per output channel; activations over the range that holds 99.999 % of their
values on `--pictures` training scenes from DATA (as data.py writes them), spread over the generators. The first
convolution stays in floats: 8-bit log colours were the largest part of the 8-bit net's error, and at six channels
it ran no faster in 8 bits. Needs the `onnx` package, as training does.

Measured (2026-12-01; logits against the float net's within 3 of the threshold, on 40 fifth-generator training
scenes; time on a 486×437 canvas, one thread, the float net 12.4 ms): as shipped, RMS 0.30, 7.3 ms; every convolution
in 8 bits with activations' full ranges (MinMax), RMS 0.35, 8.3 ms, and the 2400 held-out scenes of
tests/bench/exact_scenes.py read 995 + 939 at CUBE_LOGIT 0.9 against 984 + 950 as shipped; percentile 99.99, RMS
0.53; entropy calibration, RMS 0.64; the output convolution alone left in floats, as MinMax (its logit's own 8 bits
were not the error). See hardware/stockyard/cubenet.py for what the shipped one reads.

Weights use all 8 bits (no `reduce_range`). This machine has VNNI, whose 8-bit products cannot overflow; on x86
without it ONNX Runtime's u8×s8 kernels sum pairs of products in 16 bits and may saturate now and then, which
`reduce_range` (7-bit weights) avoids at some cost in precision (RMS 0.38 here). Not measured there: test_cubenet's
comparison with the float net is the check that would show it.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)

from hardware.stockyard.cubenet import features

# Percentile calibration gathers each activation over all the pictures into one array, so they must share a size:
# the middle of each canvas, as tall as the flattest canvases (252 pixels) and holding the yard.
WINDOW = (248, 448)
PERCENTILE = 99.999


def pictures(data: Path, count: int) -> Iterator[NDArray[np.float32]]:
    """`count` of DATA's scenes as the net sees them (1×6×H×W, the middle WINDOW of each), taken evenly from
    its files sorted by name, so every generator's scenes are among them."""
    paths = sorted(data.glob("*.npz"))
    if not paths:
        raise SystemExit(f"no training scenes in {data}: write them with tests.vision.cubenet_training.data")
    height, width = WINDOW
    for index in np.linspace(0, len(paths) - 1, min(count, len(paths))).round().astype(int):
        with np.load(paths[index]) as scene:
            now, empty = (features(scene[key].astype(np.float32)) for key in ("now", "empty"))
        top, left = (now.shape[0] - height) // 2, (now.shape[1] - width) // 2
        if top < 0 or left < 0:
            continue  # flatter or narrower than the window: left out
        picture = np.concatenate([now, empty], axis=2)[top:top + height, left:left + width]
        yield np.ascontiguousarray(picture.transpose(2, 0, 1)[None], np.float32)


class CalibrationScenes(CalibrationDataReader):
    """DATA's pictures handed to the quantiser one at a time, under the net's input name."""

    def __init__(self, data: Path, count: int, input_name: str) -> None:
        self._pictures = pictures(data, count)
        self._input_name = input_name
        self.given = 0

    def get_next(self) -> dict[str, NDArray[np.float32]] | None:
        picture = next(self._pictures, None)
        if picture is None:
            return None
        self.given += 1
        return {self._input_name: picture}


def quantise(data: Path, net: Path, out: Path, count: int) -> None:
    import onnx  # with onnxruntime.quantization's other needs, only where nets are made

    graph = onnx.load(str(net)).graph
    first_convolution = next(node.name for node in graph.node if node.op_type == "Conv")
    scenes = CalibrationScenes(data, count, graph.input[0].name)
    quantize_static(str(net), str(out), scenes, quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                    calibrate_method=CalibrationMethod.Percentile, extra_options={"CalibPercentile": PERCENTILE},
                    nodes_to_exclude=[first_convolution])
    print(f"wrote {out}: {net} in 8 bits but for {first_convolution}, calibrated on {scenes.given} scenes of {data}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path)
    parser.add_argument("net", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--pictures", type=int, default=96)
    args = parser.parse_args()
    quantise(args.data, args.net, args.out, args.pictures)


if __name__ == "__main__":
    main()
