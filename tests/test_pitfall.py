"""The lessons' pitfall helpers print PyTorch's own words, and fail loudly when a pitfall stops failing."""
import math

import pytest
import torch

from course.visuals.pitfall import shows_anomaly, shows_error, shows_warning


def test_shows_anomaly_prints_the_error_and_the_forward_line_that_made_the_saved_tensor(capsys):
    a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    with shows_anomaly():
        e = torch.exp(a)
        e /= e.sum()
        e.sum().backward()
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("RuntimeError: ") and "output 0 of Exp" in printed[0]
    assert printed[1].startswith("Error detected in ExpBackward0")
    assert printed[2].strip() == "e = torch.exp(a)"
    assert not torch.is_anomaly_enabled()


def test_a_pitfall_that_no_longer_fails_fails_the_cell():
    with pytest.raises(AssertionError, match="meant to fail"):
        with shows_error(RuntimeError):
            pass


def test_a_warning_pytorch_gives_once_per_process_is_shown_every_time_the_cell_runs(capsys):
    """math.sin of a tensor that requires grad warns once per process: the lesson's cell, run again, still shows it."""
    x = torch.tensor(0.5, requires_grad=True)
    for _ in range(2):
        with shows_warning():
            math.sin(x)
        assert "requires_grad=True to a scalar" in capsys.readouterr().out
    assert not torch.is_warn_always_enabled()
