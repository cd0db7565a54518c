"""The lessons' pitfall helpers print PyTorch's own words, and fail loudly when a pitfall stops failing."""
import pytest
import torch

from course.visuals.pitfall import shows_anomaly, shows_error


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
