"""How many scenes of the six independent generators the stock-yard reader counts exactly: cached once, read
again after each change, two readings compared scene by scene. A tool for judging a change to the reader or a
new cube net, as ab_reader.py judges its speed; not part of `make bench`.

    python tests/bench/exact_scenes.py cache DIR [--first 200000] [--count 200] [--processes 2]
    python tests/bench/exact_scenes.py read DIR OUT.json [--model NET.onnx] [--set count.SPECK=0.25 ...] [--shake]
    python tests/bench/exact_scenes.py compare BEFORE.json AFTER.json

`cache` writes each scene (the empty yard, the play frame and its true counts) as DIR/GENERATOR-SEED.npz: making
them is most of the time (1200 scenes: about ten minutes on two cores), reading them again two minutes. `read`
prints the scenes counted exactly, per generator, the cubes counted wrong and which kinds were too many or too few,
and writes every scene's reading to OUT.json; `--set` changes a setting of hardware.stockyard's modules for that
reading, `--model` reads with another cube net, `--shake` with each empty yard's colours rounded to half precision
(repin.shaken: a change too small to mean anything, to see how many scenes it alone moves). `compare` lists the scenes
one reading got right and the other wrong. Choose seeds no setting was tuned on and no net trained on: the training
scenes start at 100 000 (cubenet_training.scenes), the counter's settings were chosen on 50 000-50 099,
60 000-61 099, 70 000-70 099, 80 000-80 099 (the bench's) and 90 000-90 149; 200 000-200 199 and 210 000-210 199
chose the 8-bit cube net's threshold (reader.CUBE_LOGIT) and pin some vision tests' scenes since 2026-12-01;
200 000-230 199 were read to choose the coal checks of 2026-12-02 (count.TINT, count.BLACK_PRINT), and
200 000-240 199 were read to weigh the precision calibration files keep (profile.save_profile) the same day; 250 000
and up are fresh.

The reader as of 2026-12-02 reads 988 of the 1200 scenes `cache` writes by default exactly (716 cubes wrong): blind
195, indep 189, fourth 181, sixth 173, third 157 and fifth 93 of 200. Of `--first 210000`, 954 (896 wrong); of
`--first 220000`, 1199 scenes (the fourth generator gives up on 220 057), 968 (663 wrong; blind 195, indep 176,
fourth 171 of 199, sixth 172, third 158, fifth 96); of `--first 230000`, 954 (785 wrong; blind 192, indep 185,
fourth 179, sixth 172, third 148, fifth 78); of `--first 240000`, 978 (724 wrong; blind 194, indep 186, fourth 179,
sixth 178, third 161, fifth 80). Before the coal checks (2026-12-01): 984, 950, 965 and 953 of the first four
(737, 931, 679 and 797 wrong).

How far apart two readings must be to mean something: the empty yard's colours rounded to half precision (0.05 %,
as calibration files kept them until 2026-12-02) read 41-54 of each set's 1200 scenes otherwise, either way (the five
sets: 4881 exact against 4842, 137 scenes gained and 98 lost, most of it on the first set), because the cube net's
8-bit layers answer such a change with logits 0.14 apart (RMS, near the threshold; the float net 0.001). A change
that gains five scenes on one set and loses three on another may be no more than such a shake; judge by several
sets, and by the scenes gained and lost, not by the net figure alone; `read --shake` and `compare` show how many
scenes such a shake moves with the reader as it is.

The fifth generator rests a cube on another in about one scene in six (its heaps of four or more): seen from above
such a cube hides the one under it, and 13 of those 183 scenes in the five sets read right. Its other scenes: 419 of
817 (51 %).
With coal and stones settled by each other (count.settle_darks, later on 2026-12-02), the first 100 seeds of each
generator from 200 000, 210 000 and 220 000 (`cache DIR --first N --count 100`) read 495, 482 and 489 of 600 (599 for
220 000) exactly, cubes wrong 313, 432 and 318; with `--shake`, 509, 480 and 498. A shake moves that many: a new net
that read 1491 of those 1799 scenes read 1475 shaken (see cubenet_training/train.py, the outlines weighed more).
With the black level matched on the bare board (matching.tone_change, later the same day): 494, 483 and 493 (1470 of
1799; 8 gained, 5 lost), cubes wrong 299, 297 and 289 (885 against 1057), scenes four or more cubes off 75 -> 65;
with `--shake`, 508, 485 and 497 (1490 against 1487), cubes wrong 811 against 1046.
With a channel the frame crushed to black kept an upper bound when the black level is undone
(matching.undo_tone, 2026-12-07): 493, 487 and 492 (1472; 5 gained, 2 lost), cubes wrong 260, 287 and
311 (858 against 877); with `--shake`, 1495 against 1489 (787 cubes wrong against 827). Of `--first 230000` (cached
afresh that day), 486 against 485 (2 gained, 1 lost; 281 cubes wrong against 295).
Where a cache reads otherwise with that reader, look first at what changed in the generators.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from multiprocessing import Pool, get_context
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hardware.stockyard import YardReader, build_profile  # noqa: E402
from hardware.stockyard.classify import KINDS  # noqa: E402
from hardware.stockyard.cubenet import MODEL, CubeNet  # noqa: E402
from tableassist.errors import UserError  # noqa: E402
from tests.vision.cubenet_training.repin import save_scene, saved_scene, shaken  # noqa: E402
from tests.vision.cubenet_training.scenes import GENERATORS as TRAINING_GENERATORS  # noqa: E402

# The six independent generators, by the names the cube net's training scenes go by.
GENERATORS: dict[str, Callable[[int], Any]] = {
    name: TRAINING_GENERATORS[name][0] for name in ("indep", "blind", "third", "fourth", "fifth", "sixth")}

SceneReading = dict[str, Any]  # one scene's: "want" and "got" (counts; got None where it could not be read), "unsure"


def cache_scene(out: Path, generator: str, seed: int) -> Path | None:
    """One scene written to `out` (as repin's --cache writes them: either reads the other's), or None where its
    generator gives up on the seed."""
    path = out / f"{generator}-{seed}.npz"
    if not path.exists():
        try:
            pair = GENERATORS[generator](seed)
        except RuntimeError:  # the fourth generator gives up on a seed whose markers it cannot show
            return None
        save_scene(path, pair)
    return path


def _cache_job(job: tuple[Path, str, int]) -> None:
    cv2.setNumThreads(1)
    cache_scene(*job)


def setting(assignment: str) -> tuple[object, str, object]:
    """`module.NAME=VALUE` (a module of hardware.stockyard, a Python literal) as (module, NAME, VALUE)."""
    target, sep, literal = assignment.partition("=")
    module_name, _, name = target.strip().rpartition(".")
    if not sep or not module_name:
        raise ValueError(f"{assignment!r}: write it as module.NAME=VALUE, e.g. count.SPECK=0.25")
    try:
        module = importlib.import_module(f"hardware.stockyard.{module_name}")
    except ModuleNotFoundError as err:
        raise ValueError(f"{assignment!r}: hardware.stockyard has no module {module_name}") from err
    if not hasattr(module, name):
        raise ValueError(f"{assignment!r}: hardware.stockyard.{module_name} has no {name}")
    try:
        value = ast.literal_eval(literal.strip())
    except (ValueError, SyntaxError) as err:
        raise ValueError(f"{assignment!r}: {literal.strip()!r} is not a Python literal") from err
    return module, name, value


def _apply(settings: Sequence[str], model: Path | None, shake: bool = False) -> None:
    """In each reading process: the settings changed and the net chosen before any reader is made."""
    cv2.setNumThreads(1)
    for assignment in settings:
        module, name, value = setting(assignment)
        setattr(module, name, value)
    global _net, _shake
    _net = CubeNet(model or MODEL)
    _shake = shake


_net: CubeNet | None = None  # each reading process's: made once, lent to each scene's reader
_shake = False  # each reading process's: read with shaken profiles


def read_scene(path: Path) -> tuple[str, SceneReading]:
    pair = saved_scene(path)
    want = pair.play.counts
    try:
        profile = build_profile(pair.calibration)
        reading = YardReader(shaken(profile) if _shake else profile, _net).read(pair.play.image).reading
    except UserError as err:  # an empty yard whose markers cannot be found: read wrong
        return path.stem, {"want": want, "got": None, "unsure": str(err)}
    return path.stem, {"want": want, "got": reading.counts(), "unsure": reading.unsure}


def read_all(paths: Sequence[Path], settings: Sequence[str] = (), model: Path | None = None,
             processes: int = 2, shake: bool = False) -> dict[str, SceneReading]:
    # Started afresh, not forked: a process forked from one that has run the cube net waits for ever on the
    # parent's ONNX Runtime locks when it makes a net of its own.
    with get_context("spawn").Pool(processes, initializer=_apply, initargs=(list(settings), model, shake)) as pool:
        return dict(pool.map(read_scene, paths, chunksize=8))


def exact(reading: SceneReading) -> bool:
    return reading["got"] is not None and reading["got"] == reading["want"]


def summary(readings: dict[str, SceneReading]) -> str:
    per: dict[str, list[int]] = {}
    misses: Counter[str] = Counter()
    wrong = 0
    for name, reading in readings.items():
        tally = per.setdefault(name.split("-")[0], [0, 0])
        tally[0] += exact(reading)
        tally[1] += 1
        got = reading["got"] or dict.fromkeys(KINDS, 0)
        for kind in KINDS:
            off = got[kind] - reading["want"][kind]
            wrong += abs(off)
            if off:
                misses[f"{kind} {'too many' if off > 0 else 'too few'}"] += 1
    right = sum(tally[0] for tally in per.values())
    return "\n".join([
        f"{right} of {len(readings)} scenes exact ({100 * right / max(len(readings), 1):.1f} %), {wrong} cubes wrong",
        "  ".join(f"{name} {n}/{of}" for name, (n, of) in sorted(per.items())),
        "scenes with " + ", ".join(f"{kind} {n}" for kind, n in misses.most_common())])


def compare(before: dict[str, SceneReading], after: dict[str, SceneReading]) -> tuple[list[str], list[str]]:
    """The scenes read by both that `after` gained (read right, `before` wrong) and lost."""
    both = sorted(before.keys() & after.keys())
    gained = [name for name in both if exact(after[name]) and not exact(before[name])]
    lost = [name for name in both if exact(before[name]) and not exact(after[name])]
    return gained, lost


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("cache", help="write the scenes")
    make.add_argument("out", type=Path)
    make.add_argument("--first", type=int, default=200_000)
    make.add_argument("--count", type=int, default=200, help="seeds per generator")
    make.add_argument("--processes", type=int, default=2)
    read = commands.add_parser("read", help="read the cached scenes")
    read.add_argument("scenes", type=Path)
    read.add_argument("out", type=Path)
    read.add_argument("--model", type=Path)
    read.add_argument("--set", dest="settings", action="append", default=[], metavar="module.NAME=VALUE")
    read.add_argument("--processes", type=int, default=2)
    read.add_argument("--shake", action="store_true", help="each empty yard's colours rounded to half precision")
    against = commands.add_parser("compare", help="two readings scene by scene")
    against.add_argument("before", type=Path)
    against.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "cache":
        args.out.mkdir(parents=True, exist_ok=True)
        jobs = [(args.out, name, args.first + i) for i in range(args.count) for name in GENERATORS]
        with Pool(args.processes) as pool:
            pool.map(_cache_job, jobs, chunksize=4)
        print(f"{len(list(args.out.glob('*.npz')))} scenes in {args.out}")
    elif args.command == "read":
        try:
            for assignment in args.settings:
                setting(assignment)  # each checked here, so that a typo is one line, not a traceback per process
        except ValueError as err:
            parser.error(str(err))
        if args.model is not None and not args.model.is_file():
            parser.error(f"no cube net at {args.model}")
        paths = sorted(args.scenes.glob("*.npz"))
        if not paths:
            parser.error(f"no cached scenes in {args.scenes} (write them with `cache` first)")
        readings = read_all(paths, args.settings, args.model, args.processes, args.shake)
        args.out.write_text(json.dumps(readings, indent=0))
        print(summary(readings))
    else:
        before, after = (json.loads(path.read_text()) for path in (args.before, args.after))
        gained, lost = compare(before, after)
        print(f"{len(gained)} gained, {len(lost)} lost of {len(before.keys() & after.keys())} scenes read by both")
        print("gained: " + " ".join(gained))
        print("lost: " + " ".join(lost))
    return 0


if __name__ == "__main__":
    sys.exit(main())
