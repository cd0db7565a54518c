"""Every patch of another library's internals: read again whenever that library's code changes, and
undone by its switch, so that grading with the libraries as shipped is one setting away.

Graded the same either way: tests/test_parallel_grading.py grades one batch with the patches off.
"""
import jsonschema
import nbgrader.api
import sqlalchemy
from jupyter_client import jsonutil
from nbformat.v4 import nbbase
from nbgrader.nbgraderformat import common

from autograder import upstream_overrides
from autograder.grading import library_patches
from autograder.grading.library_patches import gradebook_engines, message_dates, metadata_schema, output_schema


def test_no_patched_library_has_changed_since_its_patch_was_read_against_it():
    """Fails after an upgrade that changed code a patch replaces or relies on: read the patch against
    the new code, then record the new digest in library_patches.AUDITED."""
    assert library_patches.upstream_changes() == {}


def test_no_private_method_the_course_overrides_has_changed_upstream_or_is_unlisted():
    """Fails after an upgrade that reshaped a private upstream method a course class replaces (read the
    override against the new code, then record its digest in upstream_overrides.AUDITED), or when a
    course class starts replacing one without listing it."""
    assert upstream_overrides.changed() == []
    assert upstream_overrides.unlisted() == []


def test_an_unlisted_override_is_found():
    import autograder.grading.judging.trusted_execute as module

    class Sneaky(module.TrustedExecute):
        def _async_poll_kernel_alive(self):  # a private nbclient method, not listed
            return None
    Sneaky.__module__ = module.__name__
    module.Sneaky = Sneaky
    try:
        assert "nbclient.client.NotebookClient._async_poll_kernel_alive" in upstream_overrides.unlisted()
    finally:
        del module.Sneaky


def test_the_switch_puts_each_library_back_as_shipped_and_patches_it_again():
    shipped = (jsonutil._dateutil_parse, common.jsonschema, nbbase.validate, nbgrader.api.create_engine)
    assert shipped[1] is jsonschema and nbgrader.api.create_engine is sqlalchemy.create_engine or \
        shipped[3] is gradebook_engines._shared_engine  # another test may have switched them on
    library_patches.switch(False)
    assert (jsonutil._dateutil_parse, common.jsonschema, nbbase.validate, nbgrader.api.create_engine) == \
        (message_dates._dateutils, jsonschema, output_schema._nbformats_own, sqlalchemy.create_engine)
    library_patches.switch(True)
    assert jsonutil._dateutil_parse is message_dates.parse
    assert isinstance(common.jsonschema, metadata_schema.SchemaCheckedOnce)
    assert nbbase.validate is output_schema.validate
    assert nbgrader.api.create_engine is gradebook_engines._shared_engine
    library_patches.switch(False)
    assert nbbase.validate is output_schema._nbformats_own


def test_the_kernels_patch_is_applied_by_the_zygote_only_when_switched_on():
    import sys
    import ipykernel.ipkernel
    from autograder.grading.library_patches import ipykernel_module_walk
    ipykernel_module_walk.apply()
    assert ipykernel.ipkernel.sys.modules == {} and ipykernel.ipkernel.sys.version == sys.version
    ipykernel_module_walk.undo()
    assert ipykernel.ipkernel.sys is sys
