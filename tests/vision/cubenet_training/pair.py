"""Join two trained cube nets into one ONNX model that answers with the mean of their logits.

    python -m tests.vision.cubenet_training.pair PLAIN.onnx CAST.onnx --out /tmp/pair.onnx

Measured and not shipped (2026-11-28). PLAIN was the shipped net (hardware/stockyard/cubenet.onnx); CAST was
trained from scratch with a lamp's dark cast shadows laid on half its windows (`train.py --cast 0.5`, the
default 24 000 steps over the default 3 698 scenes; kept beside this file as cast.onnx, so the next try
needs no training). Alone, CAST reads no more scenes exactly than PLAIN: it marks fewer shadows as cube but
loses some cube rims. The two are wrong in different places, and their mean is right more often than
either. Cached scenes of all eight generators, CUBE_LOGIT 0.7, exact scenes (count errors, in cubes):

| net             | bench seeds, 850 | seeds 90 000 on, 640 | held-out sixth (100 / 80) |
|-----------------|------------------|----------------------|---------------------------|
| PLAIN (shipped) | 677 (676)        | 492 (511)            | 77 / 58                   |
| CAST            | 676 (536)        | 488 (468)            | 77 / 57                   |
| the pair        | 686 (561)        | 507 (412)            | 80 / 64                   |

The pair's threshold hardly matters (bench: 691, 686, 686, 686 and 680 at 0.5, 0.7, 0.9, 1.1 and 1.4). It
runs in one forward pass, 13-18 ms a canvas here on one thread against 7-10 ms for one net.

Why not shipped: twelve of the vision tests pin single scenes the counter's rules were built on, and with
the pair they no longer hold. Seven scenes read wrong (among them a lone L of three cubes rendered by
test_counting, read as four: the pair's masks are fuller at the rims the counter's footprints were measured
on); in five, the scene reads right even without the rule the test pins, so it no longer shows that rule.
A higher threshold does not mend them: at CUBE_LOGIT 1.1, nine of those tests still fail.
Shipping the pair means re-tuning the counter's footprints on its masks and choosing those tests' scenes
again, which did not fit in the session that measured it.

Measured again on 2026-11-29, after the recount (reader.RECOUNT_BELOW) and the counter's later rules, on the
1500 cached scenes of the six independent generators (seeds 50 000-50 099 and 90 000-90 149): the shipped net
reads 1111 exactly (count errors 1423 cubes), CAST alone 1099 (1212), the pair 1129 (1158) and with
CUBE_SURE 3.5 (its mean logit is less extreme) 1133 (1156); CUBE_LOGIT 0.3 and 1.1 read 1120 and 1125. The
pair churns: 85 scenes gained, 67 lost, spread over every confidence, so it cannot be kept to the doubtful
frames: CAST's answer or the pair's only as extra counts in the recount's median read 1111-1115. It costs
7-12 ms on the median frame (one thread, 48 frames, min of runs: 35 -> 42-47 ms), the net being on each
frame's critical path; ONNX Runtime running the two halves side by side (ORT_PARALLEL) did not help. Now 17
vision tests pin scenes or footprints the pair reads otherwise (the L of three at tilt 22 and angle 40 reads
four: its refit picks a size of a quarter of the L's fuller area). Distilling the pair into one net of the
shipped size, to keep its gain at no cost in time, failed: the shipped net fine-tuned (6000 steps, --rate
1e-3, 550 scenes of the five training generators, cast shadows on a quarter of the windows) towards the
pair's answer mixed 7 to 3 with the truth read 1095 (1293): fewer cubes wrong than the shipped net, fewer
scenes exact than either.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from torch import nn

from tests.vision.cubenet_training.train import deployed_from, export


class Pair(nn.Module):
    """Two cube nets fed the same canvas; their logits averaged."""

    def __init__(self, first: nn.Module, second: nn.Module) -> None:
        super().__init__()
        self.first, self.second = first, second

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return 0.5 * (self.first(x) + self.second(x))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    # No default: the pair is not the shipped model, and writing over that by accident would ship it.
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    with torch.no_grad():
        export(Pair(deployed_from(args.first), deployed_from(args.second)), args.out)


if __name__ == "__main__":
    main()
