"""Write labelled scenes for training the cube net, one compressed .npz per scene.

    python -m tests.vision.cubenet_training.data DATA_DIR [--main 800 --alt 400 --indep 900 --blind 800 --third 800
                                                          --fourth 0 --fifth 0 --sixth 0 --lamp 0 --crowd 0]
                                                          [--skip 0]

The fourth to sixth independent generators are held out: the shipped net never saw their scenes, so they
measure how it meets a stranger's. Their scenes can be written for an experiment (--fourth 800).

`--lamp N` writes the main generator's scenes lit by a low lamp (`scene_pair(..., low_lamp=True)`): each cube
casts a shadow 1.5 to 5 sides long. `--crowd N` writes its scenes with nearly every cube touching another and up to
20 scattered (`scene_pair(..., touching=0.9, most=20)`): heaps, the independent generators' commonest misses.

Each scene keeps its cubes' middles too (for the centre head, `train.py --centres`), where its generator's
cube outlines are known; the fourth's to sixth's are not, and --centres leaves their scenes out.

`--skip 5000` writes the same numbers of scenes from seeds 5000 past each generator's first: a fresh set for
another training cycle, none of them the default set's (each generator's training seeds run 10 000 apart).

Scenes already written are kept, so an interrupted run goes on where it stopped. Run two at once (with
different --part) to use both cores.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tests.vision.cubenet_training.scenes import GENERATORS, labelled_scene


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    for name, default in (("main", 800), ("alt", 400), ("indep", 900), ("blind", 800), ("third", 800), ("fourth", 0),
                          ("fifth", 0), ("sixth", 0), ("lamp", 0), ("crowd", 0)):
        parser.add_argument(f"--{name}", type=int, default=default, help=f"scenes from the {name} generator")
    parser.add_argument("--part", type=str, default="1/1", help="K/N: every Nth scene from the Kth")
    parser.add_argument("--skip", type=int, default=0,
                        help="start each generator this many seeds past its first: fresh scenes for another cycle")
    args = parser.parse_args()
    part, parts = (int(v) for v in args.part.split("/"))
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(name, first + args.skip + i) for name, (_, first) in GENERATORS.items()
            for i in range(getattr(args, name))]
    for name, seed in jobs[part - 1::parts]:
        path = args.out / f"{name}-{seed}.npz"
        if path.exists():
            continue
        scene = labelled_scene(name, seed)
        if scene is None:
            print(f"{name} {seed}: not readable, left out", flush=True)
            continue
        partial = path.with_suffix(".partial")  # renamed when whole: a stopped run leaves no half-written scene
        with partial.open("wb") as out:
            arrays: dict[str, Any] = {"now": scene.now, "empty": scene.empty, "allowed": scene.allowed,
                                      "cubes": scene.cubes}
            if scene.centres is not None:
                arrays["centres"] = scene.centres
            np.savez_compressed(out, **arrays)
        partial.rename(path)
        print(f"{name} {seed}: {int(scene.cubes.sum())} cube pixels", flush=True)


if __name__ == "__main__":
    main()
