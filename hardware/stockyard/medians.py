"""Medians by partition: the same values as np.median, several times quicker on the frame's arrays.

np.median partitions along a strided axis and checks for NaN on every call; a reading takes dozens of
medians (gain cells, colour samples, blob levels), and those overheads were a tenth of the frame's time.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def median(values: NDArray[np.floating]) -> float:
    """The median of a 1-D array (NaN when empty)."""
    n = len(values)
    if n == 0:
        return float("nan")
    half = n // 2
    part = np.partition(values, half)
    if n % 2:
        return float(part[half])
    return float(0.5 * (part[:half].max() + part[half]))


def column_medians(values: NDArray[np.floating]) -> NDArray[np.float32]:
    """The median of each column of an N×C array (C = 3 for colours)."""
    rows = np.ascontiguousarray(values.T)  # partition along contiguous rows, not a strided axis
    n = rows.shape[1]
    if n == 0:
        return np.full(rows.shape[0], np.nan, np.float32)
    half = n // 2
    part = np.partition(rows, half, axis=1)
    if n % 2:
        return np.asarray(part[:, half], np.float32)
    return np.asarray(0.5 * (part[:, :half].max(axis=1) + part[:, half]), np.float32)


def weighted_median(values: NDArray[np.floating], weights: NDArray[np.floating]) -> float:
    """The value at which the weights below and above balance (the lower one on a tie; NaN when empty)."""
    if len(values) == 0:
        return float("nan")
    order = np.argsort(values)
    cumulative = np.cumsum(weights[order])
    return float(values[order][int(np.searchsorted(cumulative, cumulative[-1] / 2))])
