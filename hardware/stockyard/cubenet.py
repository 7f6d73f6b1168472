"""The cube net: a small convolutional network that says which pixels of the warped yard are cubes.

Hand-made evidence (colour, brightness and texture against the empty yard, each with its threshold)
loses cubes that barely differ from the ground around them: a grey stone on gravel, a white event on
snow. A person still sees them by their outline and their faces. The net looks at the picture now and
the empty yard's picture side by side, down to an eighth of the canvas where it sees about four cube
sides around each pixel, so it can weigh those shapes too, and it learns what a cast shadow is not.

It was trained on generated scenes from five of the test suite's scene generators (our two styles and the
first three independent ones), each of which paints its boards, cubes, shadows and cameras its own way (see
tests/vision/cubenet_training/); the fourth to sixth independent generators are held out from training. It
runs through ONNX Runtime: OpenCV's dnn module gives the same logits (to 1e-5) but takes half as long again
(9.1 against 5.9 ms a canvas on one thread here, 5.9 against 3.8 on two). Whole frames read 2-4 ms sooner
(a tenth), and all 850 of the bench's scenes read the same. The model file holds the net in the form that
does least work (training's `Deployed`: its joins split, 4.98 -> 4.29 ms a canvas on one thread). Those figures are
an earlier net's: the shipped one (2026-11-30) is wider, 16, 32 and 64 channels at a half, a quarter and an eighth
of the canvas, and takes 5.5 ms a canvas on one thread where the narrower one took 2.5; it reads 26 more of 1500
held-out scenes exactly. Its weights are the mean of two nets': the wider net as trained in two cycles, and the same
net fine-tuned on scenes under a low lamp too, whose long shadows the first half marked as cubes (a "model soup",
see tests/vision/cubenet_training/train.py and average.py).

The reader runs that net in 8 bits (since 2026-12-01): weights and activations as integers but for the first
convolution, made by ONNX Runtime's static quantisation (tests/vision/cubenet_training/quantise.py, from the net as
trained, kept there as cubenet.onnx). On a 486×437 canvas, one thread: 7.3 ms against 12.4 in floats. Its logits
stray from the float net's by 0.3 (RMS, within 3 of the threshold), so a mask differs on a few rim pixels a cube;
read at the reader's CUBE_LOGIT of 0.9 rather than 0.7, two sets of 1200 held-out scenes of the six independent
generators (tests/bench/exact_scenes.py) read 984 and 950 exactly; the float net 992 and 944 at 0.7 (as it shipped),
991 and 962 at 0.9. So the 8 bits cost about one scene in 120 for 40 % of the net's time: whole frames read 5-6 ms
sooner (tests/bench/ab_reader.py: -5.0 ± 2.3 ms over 120 paired reads of 40 scenes, one thread).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import onnxruntime
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from tableassist.errors import UserError

MODEL = Path(__file__).with_name("cubenet.onnx")
# Colours are in units of the markers' white; the log keeps the net blind to the room's brightness
# (a darker room shifts every value alike) and this floor keeps it off sensor noise near black.
DARK_FLOOR = 0.03


# The net learnt on pictures kept in half precision (cubenet_training.scenes, train.stacked). Its pictures rounded so
# here too, measured and not kept (2026-12-07; three cached sets of tests/bench/exact_scenes.py, 1799 scenes, 1472
# exact, 858 cubes wrong): the colours rounded 1486 (769), the log colours as well 1485 (830). But the colours
# only scaled by 1.0003, 0.9997 or 1.001 read 1485, 1476 and 1482 (804, 851, 782): any change of the net's
# picture that small moves some 40 scenes, and more of them to right than to wrong, the precision or not. Fifteen
# vision tests pinned on the net's answers as they are read otherwise with it, two of our own layouts among them.
# The net's logits averaged over its picture as it is and scaled by 1.0003 (two passes): 1479 (828): two such close
# opinions are no ensemble.
def features(colours: FloatImage) -> NDArray[np.float32]:
    """Log colours, the net's view of a picture."""
    return np.asarray(cv2.log(np.maximum(colours, 0) + DARK_FLOOR), np.float32)


class ModelMissing(UserError):
    """The cube net's model file is not where the package put it, or cannot be read: a broken install. A
    UserError, so every command shows it as one line; the session and the demo catch it to let go of their
    camera."""


def _session(model: Path) -> Callable[[NDArray[np.float32]], NDArray[np.float32]]:
    """The model run by ONNX Runtime: a picture (1×6×H×W) in, its logits (1×1×H/2×W/2) out."""
    options = onnxruntime.SessionOptions()
    # As many threads as OpenCV is given: one setting says how much of the machine the reader uses (the
    # bench gives it one thread, about what one core of a Pi does). Between frames they sleep rather
    # than spin: the reader's own thread wants the core meanwhile.
    options.intra_op_num_threads = max(1, cv2.getNumThreads())
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # ONNX Runtime's errors share no base class of their own
        why = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise ModelMissing(f"the cube net's model cannot be read ({model}: {why}): "
                           "reinstall tableassist") from err
    name = session.get_inputs()[0].name
    return lambda picture: np.asarray(session.run(None, {name: picture})[0], np.float32)


class CubeNet:
    """Cube likelihood per pixel of a canvas, as a logit: above 0, more likely cube than not."""

    def __init__(self, model: Path = MODEL) -> None:
        if not model.is_file():  # ONNX Runtime's own message names neither the file's purpose nor a remedy
            raise ModelMissing(f"the cube net's model is missing ({model}): reinstall tableassist")
        # A forked child goes on with the parent's session (a new one there would wait for ever on the
        # parent's locks): read_in_processes makes it with no threads of its own to stay behind.
        self._run = _session(model)
        # The net's picture: six channels first, the frame's three and then the empty yard's. The empty
        # yard's are the same for every frame read against it: written once (a millisecond a frame), and
        # each frame writes its own three over the last one's. Kept by identity: the reader hands over
        # the same empty array each time.
        self._empty: FloatImage | None = None
        self._picture = np.empty((1, 6, 0, 0), np.float32)

    def logits(self, colours: FloatImage, empty: FloatImage) -> NDArray[np.float32]:
        """A logit for each pixel of `colours`, a frame's canvas, against `empty`, the empty yard's."""
        height, width = colours.shape[:2]
        if empty is not self._empty:  # the empty yard's canvas is the frame's size: a new one, a new picture
            self._picture = np.empty((1, 6, height, width), np.float32)
            self._picture[0, 3:] = features(empty).transpose(2, 0, 1)
            self._empty = empty
        self._picture[0, :3] = features(colours).transpose(2, 0, 1)
        # The net answers at half the canvas's resolution.
        half = self._run(self._picture)[0, 0]
        return np.asarray(cv2.resize(half, (width, height), interpolation=cv2.INTER_LINEAR), np.float32)
