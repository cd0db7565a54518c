"""The private methods of other libraries that the course's own subclasses override.

A subclass that replaces an upstream method whose name starts with ``_`` relies on how that library
calls it, which no release promises to keep. Each is listed here with the digest of its upstream
source when the override was last read against it; ``changed()`` names those whose source is no longer
that, and ``unlisted()`` those the course overrides without listing them, so that an upgrade of
jupyter_client, nbclient or nbconvert fails tests/test_library_patches.py until each override is read
again. (``library_patches`` holds the patches of functions in place; these are subclasses.)
"""
import importlib
import inspect
import pkgutil

from .grading.library_patches import source_digest

AUDITED = {
    "jupyter_client.asynchronous.client.AsyncKernelClient._context_default": "fe4260ceb1b738da",
    "jupyter_client.client.KernelClient._async_wait_for_ready": "0d732ad86fea3115",
    "jupyter_client.connect.ConnectionFileMixin._create_connected_socket": "586afd5c93137d27",
    "jupyter_client.connect.ConnectionFileMixin._session_default": "fd3ff771823ad5af",
    "jupyter_client.manager.KernelManager._async_cleanup_resources": "452cfe631cd012d2",
    "jupyter_client.manager.KernelManager._async_is_alive": "5a4d020943d3b86c",
    "jupyter_client.manager.KernelManager._async_pre_start_kernel": "0ad304c9143e3bfd",
    "jupyter_client.manager.KernelManager._async_wait": "574593dddfda8169",
    "nbclient.client.NotebookClient._async_handle_timeout": "27d6db41082b053f",
    "nbclient.client.NotebookClient._get_timeout": "5bfb5a2910e7910e",
    "nbconvert.filters.markdown_mistune.IPythonRenderer._embed_image_or_attachment": "7421d54e1cd6137c",
}
OURS = ("autograder", "course")


def overridden() -> set[str]:
    """Every upstream private function a class of ``autograder`` replaces, as module.Class.name."""
    import autograder
    found = set()
    for info in pkgutil.walk_packages(autograder.__path__, "autograder."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            for name, value in vars(cls).items():
                if not name.startswith("_") or name.startswith("__") or not callable(value):
                    continue
                for base in cls.__mro__[1:]:
                    if base.__module__.split(".")[0] in OURS + ("builtins",):
                        continue
                    if name in vars(base):
                        found.add(f"{base.__module__}.{base.__qualname__}.{name}")
                        break
    return found


def changed() -> list[str]:
    return sorted(q for q, digest in AUDITED.items() if source_digest(q) != digest)


def unlisted() -> list[str]:
    return sorted(overridden() - set(AUDITED))
