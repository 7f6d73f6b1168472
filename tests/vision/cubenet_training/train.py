"""Train the cube net and write it as ONNX for OpenCV's dnn module (hardware/stockyard/cubenet.onnx).

    python -m tests.vision.cubenet_training.train DATA_DIR --out hardware/stockyard/cubenet.onnx

Needs PyTorch (`pip install torch==2.13.0 onnx`), which the product and its tests do not: the Pi only
runs the exported net. DATA_DIR holds the scenes `python -m tests.vision.cubenet_training.data` wrote.
Two CPU cores train it in about a quarter of an hour.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray
from torch import nn

from hardware.stockyard.cubenet import features

CROP = 128  # training windows, canvas pixels: a few cube sides and their neighbours


class CubeNet(nn.Module):
    """Two stride-2 steps to a quarter of the canvas, where most of the work is done on a view about
    two cube sides wide, then back to half with the finer features beside it. Small enough to run in a
    few milliseconds on the Pi."""

    def __init__(self, fine: int = 12, coarse: int = 24) -> None:
        super().__init__()
        self.down1 = nn.Conv2d(9, fine, 3, stride=2, padding=1)
        self.down2 = nn.Conv2d(fine, coarse, 3, stride=2, padding=1)
        self.near = nn.Conv2d(coarse, coarse, 3, padding=1)
        self.wide = nn.Conv2d(coarse, coarse, 3, padding=2, dilation=2)
        self.mix = nn.Conv2d(coarse + fine, 8, 1)
        self.out = nn.Conv2d(8, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = F.relu(self.down1(x))
        h = F.relu(self.wide(F.relu(self.near(F.relu(self.down2(fine))))))
        h = F.interpolate(h, size=fine.shape[2:], mode="nearest")
        return self.out(F.relu(self.mix(torch.cat([h, fine], 1))))


def stacked(now: NDArray[np.float32], empty: NDArray[np.float32]) -> NDArray[np.float16]:
    """As hardware.stockyard.cubenet feeds the net: log now, log empty, and their difference."""
    a, b = features(now), features(empty)
    return np.concatenate([a, b, a - b], axis=2).astype(np.float16)


def load(data: Path) -> tuple[list[NDArray[np.float16]], list[NDArray[np.uint8]], list[NDArray[np.uint8]]]:
    xs, ys, ms = [], [], []
    for path in sorted(data.glob("*.npz")):
        with np.load(path) as z:
            xs.append(stacked(z["now"].astype(np.float32), z["empty"].astype(np.float32)))
            ys.append(z["cubes"])
            ms.append(z["allowed"])
    return xs, ys, ms


def batch(xs: list[NDArray[np.float16]], ys: list[NDArray[np.uint8]], ms: list[NDArray[np.uint8]],
          rng: np.random.Generator, size: int = 24) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    bx: list[NDArray[np.float32]] = []
    by: list[NDArray[np.uint8]] = []
    bm: list[NDArray[np.uint8]] = []
    while len(bx) < size:
        i = int(rng.integers(len(xs)))
        h, w = ys[i].shape
        if h < CROP or w < CROP:
            continue
        y0, x0 = int(rng.integers(h - CROP + 1)), int(rng.integers(w - CROP + 1))
        x = xs[i][y0:y0 + CROP, x0:x0 + CROP].astype(np.float32)
        y, m = ys[i][y0:y0 + CROP, x0:x0 + CROP], ms[i][y0:y0 + CROP, x0:x0 + CROP]
        x[..., :6] += rng.normal(0, 0.15)  # a brighter or darker room: both pictures alike
        turns = int(rng.integers(4))
        x, y, m = np.rot90(x, turns), np.rot90(y, turns), np.rot90(m, turns)
        if rng.random() < 0.5:
            x, y, m = x[:, ::-1], y[:, ::-1], m[:, ::-1]
        bx.append(x.transpose(2, 0, 1).copy())
        by.append(y.copy())
        bm.append(m.copy())
    return (torch.from_numpy(np.stack(bx)), torch.from_numpy(np.stack(by)).float(),
            torch.from_numpy(np.stack(bm)).float())


def train(data: Path, out: Path, steps: int, seed: int = 0) -> None:
    xs, ys, ms = load(data)
    print(f"{len(xs)} scenes", flush=True)
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = CubeNet()
    opt = torch.optim.Adam(net.parameters(), 3e-3)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    start, running = time.time(), None
    for step in range(steps):
        x, y, m = batch(xs, ys, ms, rng)
        logit = F.interpolate(net(x), scale_factor=2, mode="bilinear", align_corners=False)[:, 0]
        # Only where the reader looks: outside the yard and on the markers nothing is asked of the net.
        loss = (F.binary_cross_entropy_with_logits(logit, y, reduction="none") * m).sum() / m.sum().clamp(min=1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        if step % 250 == 0 or step == steps - 1:
            print(f"step {step}: loss {running:.4f} ({time.time() - start:.0f} s)", flush=True)
    net.eval()
    example = torch.zeros(1, 9, 244, 340)
    torch.onnx.export(net, (example,), str(out), input_names=["colours"], output_names=["logit"],
                      opset_version=13, dynamic_axes={"colours": {2: "height", 3: "width"}}, dynamo=False)
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path)
    parser.add_argument("--out", type=Path, default=Path("hardware/stockyard/cubenet.onnx"))
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    train(args.data, args.out, args.steps)


if __name__ == "__main__":
    main()
