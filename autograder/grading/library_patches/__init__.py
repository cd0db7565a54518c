"""Every patch of another library's internals, in one place, behind one switch.

Each makes grading faster and changes nothing it decides; each is a module here with ``apply()``,
``undo()`` and ``UPSTREAM``, the library code it replaces or relies on. When a library is upgraded,
``upstream_changes()`` names the patches whose upstream code changed shape, so each is read again
before it is trusted (tests/test_library_patches.py fails until then). ``c.GradingKernels.library_patches
= False`` grades with the libraries as shipped: the same scores and outputs, slower
(``benchmarks/grading.py --library-patches-off`` measures the difference).

- ``message_dates``: jupyter_client reads message dates with ``datetime.fromisoformat`` (a worker);
- ``metadata_schema``: nbgrader's cell-metadata check keeps its validator (a worker);
- ``output_schema``: nbformat checks each output with a part of its schema compiled once (a worker);
- ``gradebook_engines``: nbgrader's gradebooks share one database engine per process (a worker, the recorder);
- ``ipykernel_module_walk``: a forked kernel skips ipykernel's walk of every module (the zygote).
"""
import hashlib
import importlib
import inspect

GRADING = ("message_dates", "metadata_schema", "output_schema", "gradebook_engines")  # a grading process's
KERNELS = ("ipykernel_module_walk",)  # the zygote's, before it forks kernels
# the digest of each upstream object's source when its patch was last read against it
AUDITED = {
    "jupyter_client.jsonutil._dateutil_parse": "33df33167e11ebf0",
    "jupyter_client.jsonutil.parse_date": "4e379bbf149f7641",
    "jupyter_client.jsonutil.extract_dates": "94307ddde2dd64b1",
    "nbgrader.nbgraderformat.common.BaseMetadataValidator.validate_cell": "e5f97f45a9aba510",
    "nbformat.v4.nbbase.validate": "6c1913134e383305",
    "nbformat.v4.nbbase.new_output": "f5431e16132e223a",
    "nbformat.v4.nbbase.new_code_cell": "a7f3c3bc091e0787",
    "nbgrader.api.Gradebook.__init__": "c60c420276e8355e",
    "ipykernel.ipkernel": "d7e0695b9247882f",
}


def patch(name: str):
    return importlib.import_module(f"{__name__}.{name}")


def switch(on: bool, names=GRADING) -> None:
    """Apply (or undo) these patches in this process."""
    for name in names:
        module = patch(name)
        module.apply() if on else module.undo()


def _resolve(qualified: str):
    parts = qualified.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ImportError(qualified)


def source_digest(qualified: str) -> str:
    """A digest of the upstream object's source code, as installed here."""
    return hashlib.sha256(inspect.getsource(_resolve(qualified)).encode()).hexdigest()[:16]


def upstream_changes() -> dict[str, list[str]]:
    """patch -> the upstream objects whose source is no longer what the patch was read against."""
    changed = {}
    for name in GRADING + KERNELS:
        stale = [q for q in patch(name).UPSTREAM if source_digest(q) != AUDITED.get(q)]
        if stale:
            changed[name] = stale
    return changed
