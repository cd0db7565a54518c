"""A cluster worker's zygote is fenced by the course's own settings, not the defaults: a preloaded
worker starts with the defaults and is started again when a course with other limits connects."""
import pytest
from traitlets.config import Config

pytest.importorskip("distributed")

from autograder.grading.batch import cluster_worker  # noqa: E402
from autograder.grading.batch.cluster_worker import WarmGrading  # noqa: E402
from autograder.grading.kernels.factory import KernelFactory  # noqa: E402
from autograder.grading.kernels.settings import GradingKernels  # noqa: E402

DEFAULTS = GradingKernels().values()


def _course(**settings) -> Config:
    config = Config()
    for name, value in settings.items():
        setattr(config.GradingKernels, name, value)
    return config


def test_the_plugin_carries_the_courses_settings_and_is_named_by_them():
    changed = GradingKernels.of(_course(memory_limit=3 * 1024**3)).values()
    assert changed["memory_limit"] == 3 * 1024**3 and changed["max_processes"] == DEFAULTS["max_processes"]
    assert WarmGrading(changed).name == WarmGrading(dict(changed)).name  # every grade command: set up once
    assert WarmGrading(changed).name != WarmGrading().name  # other limits: a plugin of their own


def test_a_preloaded_worker_takes_the_courses_limits_before_its_first_task():
    cluster_worker._started.clear()
    try:
        WarmGrading().setup()  # what --preload does
        first = KernelFactory._shared
        assert first.fence.memory == DEFAULTS["memory_limit"]
        WarmGrading().setup()  # registered again with the same settings: nothing restarted
        assert KernelFactory._shared is first
        WarmGrading(GradingKernels.of(_course(memory_limit=3 * 1024**3, max_processes=128)).values()).setup()
        now = KernelFactory._shared
        assert (now.fence.memory, now.fence.max_processes) == (3 * 1024**3, 128)
        assert not first.alive()  # the default fence's zygote is closed, not left running
        assert KernelFactory.shared(now.fence, DEFAULTS["zygote_timeout"]) is now  # the course's fence: used as it is
        assert now.ready_within == DEFAULTS["zygote_timeout"]  # the wait the course's settings gave it
    finally:
        for zygote in {id(z): z for z in (cluster_worker._started.get("zygote"), KernelFactory._shared) if z}.values():
            zygote.close()
        KernelFactory._shared = None
        cluster_worker._started.clear()
