"""The one seeded source of a trial's randomness: what torch.manual_seed gives, without its cost."""
import traceback

import torch

from course.checks.random_inputs import seed_global


def test_seed_global_gives_the_stream_torch_manual_seed_gives():
    torch.manual_seed(1234)
    expected = (torch.rand(5), torch.nn.Linear(3, 2).weight.detach().clone())
    seed_global(1234)
    assert torch.equal(torch.rand(5), expected[0])
    assert torch.equal(torch.nn.Linear(3, 2).weight, expected[1])


def test_seed_global_formats_no_stack(monkeypatch):
    """torch.manual_seed queues a lazy seeding of each accelerator with the caller's formatted stack,
    which in a kernel is deep: a trial is seeded many times per notebook."""
    def refused(*args, **kwargs):
        raise AssertionError("a stack was formatted to seed a trial")
    monkeypatch.setattr(traceback, "format_stack", refused)
    seed_global(7)
    assert torch.initial_seed() == 7
