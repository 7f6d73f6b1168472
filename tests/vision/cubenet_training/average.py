"""Average the weights of cube nets fine-tuned from one start (a "model soup"): one net, no second pass.

    python -m tests.vision.cubenet_training.average FIRST.onnx SECOND.onnx [MORE.onnx ...] --out SOUP.onnx

Nets trained on from the same weights stay near each other, and their average usually answers better than
either where they disagree, at the cost of one net (an ensemble of their answers would cost a pass each).
Needs the `onnx` package, as training does. See train.py's docstring for what it was measured to do.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper


def average(nets: list[Path], out: Path) -> None:
    """Write the first net with every weight the mean of all the nets' (they must share one graph)."""
    models = [onnx.load(str(path)) for path in nets]
    weights = [{w.name: numpy_helper.to_array(w) for w in m.graph.initializer} for m in models]
    soup = models[0]
    for w in soup.graph.initializer:
        first = numpy_helper.to_array(w)
        if first.dtype.kind != "f":  # shapes and indices, the same in every net
            continue
        mean = np.mean([each[w.name] for each in weights], axis=0).astype(first.dtype)
        w.CopyFrom(numpy_helper.from_array(mean, w.name))
    onnx.save(soup, str(out))
    print(f"wrote {out}: the mean of {len(nets)} nets")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("nets", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    average(args.nets, args.out)


if __name__ == "__main__":
    main()
