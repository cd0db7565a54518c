"""Keep Jupyter, IPython and matplotlib out of the real $HOME while tests run kernels (in a folder
of this test process's, removed when it ends)."""
import atexit
import os
import shutil
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_home = tempfile.mkdtemp(prefix="autograd-course-home-")
atexit.register(shutil.rmtree, _home, True)
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


# The files whose module fixtures grade whole batches or build environments, slowest first. `make test`
# hands whole files to its two workers in collection order (--dist loadfile --no-loadscope-reorder):
# starting with these, no worker is left alone at the end with one long file while the other idles.
SLOWEST_FIRST = ["tests/test_hostile_corpus.py", "tests/test_grading_round_trip.py", "tests/test_parallel_grading.py",
                 "tests/test_student_install.py", "tests/browser/test_hub.py", "tests/test_hostile_uploads.py",
                 "tests/test_lms_classes.py",
                 "tests/test_outputs_kept.py", "tests/test_week.py", "tests/test_walkthrough.py", "tests/test_no_answers_in_student_package.py",
                 "tests/test_postgres_gradebook.py"]


def pytest_collection_modifyitems(session, config, items):
    rank = {path: k for k, path in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(os.path.relpath(str(item.path), ROOT), len(rank)))
