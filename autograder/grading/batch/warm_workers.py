"""What the local workers' fork server imports once, so that every worker starts warm.

A worker spawned cold imports nbgrader, nbclient, torch and what draws the kernels' figures
(``judging/pictures.py``), its first optimizer imports
``torch._dynamo`` (``torch.optim`` reaches for it on first use), and its first notebook compiles
nbformat's checks (``output_schema.compile_ahead``), paid again by each worker while the
batch has barely begun. The local pool forks its workers from one server
that has done all of it (``fan_out.local_executor``), so the batch pays it once.

The server forks its workers from a single thread, with torch kept to one thread as in the
kernels' zygote: a worker's references are small tensors, and the cores belong to the kernels. It
imports as the zygote does, with the collector off, then frozen (``preloads.warming``).
"""
import importlib

from ..kernels.preloads import lessons, warming


def _warm_up() -> None:
    for lesson in lessons():  # every lesson's reference, found as the zygote finds the lessons
        importlib.import_module(f"{references.__name__}.{lesson}")
    model = torch.nn.Linear(3, 2)
    torch.optim.SGD(model.parameters(), lr=0.1).step()
    output_schema.compile_ahead()


with warming():  # all of it, as the zygote's
    import torch

    from ..judging import pictures, references  # noqa: F401  (pictures: matplotlib and the course's drawing)
    from ..library_patches import output_schema
    from . import worker  # noqa: F401  (nbgrader, nbclient and the grader itself)

    torch.set_num_threads(1)
    _warm_up()
