"""The quick reductions (partition medians, channel mean/max/min) agree with numpy's on every size."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hardware.stockyard.medians import column_medians, median, weighted_median

values = st.floats(-10, 10, width=32, allow_nan=False)


@given(arrays(np.float32, st.integers(1, 60), elements=values))
def test_median_is_numpys(a: np.ndarray) -> None:
    assert median(a) == float(np.median(a))


@given(arrays(np.float32, st.tuples(st.integers(1, 60), st.integers(1, 4)), elements=values))
def test_column_medians_are_numpys(a: np.ndarray) -> None:
    np.testing.assert_array_equal(column_medians(a), np.median(a, axis=0).astype(np.float32))


def test_empty_gives_nan() -> None:
    assert np.isnan(median(np.zeros(0, np.float32)))
    assert np.isnan(column_medians(np.zeros((0, 3), np.float32))).all()


@given(arrays(np.float32, st.tuples(st.integers(1, 40), st.just(3)), elements=values))
def test_channel_reductions_are_numpys(a: np.ndarray) -> None:
    from hardware.stockyard.channels import channel_max, channel_mean, channel_min

    np.testing.assert_array_equal(channel_mean(a), a.mean(axis=1))
    np.testing.assert_array_equal(channel_max(a), a.max(axis=1))
    np.testing.assert_array_equal(channel_min(a), a.min(axis=1))
    image = a.reshape(1, -1, 3)
    np.testing.assert_array_equal(channel_min(image), image.min(axis=2))


@given(st.lists(st.tuples(values, st.floats(0.01, 5)), min_size=1, max_size=30))
def test_weighted_median_balances_the_weights(pairs: list[tuple[float, float]]) -> None:
    """No more than half the weight lies below the answer, and no more than half above it."""
    v = np.array([p[0] for p in pairs])
    w = np.array([p[1] for p in pairs])
    m = weighted_median(v, w)
    assert m in v
    total = w.sum()
    assert w[v < m].sum() <= total / 2 + 1e-9
    assert w[v > m].sum() <= total / 2 + 1e-9


def test_weighted_median_follows_the_weight() -> None:
    assert weighted_median(np.array([8.0, 13.0]), np.array([0.75, 0.5])) == 8.0
    assert weighted_median(np.array([8.0, 13.0, 13.5]), np.array([0.75, 0.5, 0.5])) == 13.0
    assert np.isnan(weighted_median(np.zeros(0), np.zeros(0)))
