"""The linear-time measure tells linear work from quadratic work, so the claims built on it can fail."""

from __future__ import annotations

import pytest

from tests.scaling import assert_linear


def _linear(text: str) -> int:
    return sum(1 for char in text if char == "a")


def _quadratic(text: str) -> int:
    return sum(text.count("a", start) for start in range(0, len(text), 4))


def test_linear_work_passes() -> None:
    assert_linear(_linear, "ab" * 2_000, "ab" * 16_000, 8)


def test_quadratic_work_fails_naming_the_ratio() -> None:
    with pytest.raises(AssertionError, match=r"8x the input took \d+x the time at best"):
        assert_linear(_quadratic, "ab" * 2_000, "ab" * 16_000, 8)
