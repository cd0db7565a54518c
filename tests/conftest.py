"""Keep Jupyter, IPython and matplotlib out of the real $HOME while tests run kernels."""
import os
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_home = tempfile.mkdtemp(prefix="autograd-course-home-")
for variable, folder in [("JUPYTER_CONFIG_DIR", "jupyter-config"), ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
                         ("IPYTHONDIR", "ipython"), ("MPLCONFIGDIR", "matplotlib")]:
    os.environ[variable] = os.path.join(_home, folder)
    os.makedirs(os.environ[variable], exist_ok=True)
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="session")
def root() -> str:
    return ROOT

# The stored outputs of source/ notebooks were printed on another CPU: nbval accepts a last printed
# digit moved by rounding (tests/nbval_numbers.py). This file is loaded whenever tests/ is collected,
# as `make test` does, before any notebook cell runs.
import nbval_numbers  # noqa: E402

nbval_numbers.install()
