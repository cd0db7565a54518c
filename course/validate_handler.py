"""The Validate button's server side: nbgrader's validate handler, with the course's validator.

A Jupyter server extension, turned on in place of ``nbgrader.server_extensions.validate_assignment``
by the student's configurations (jupyter-config/student/ for ``make lab``, hub-student/ on the class
hub): the same address (``/assignments/validate``), the same nbgrader configuration and the same answer
as nbgrader's, whose results carry the course's ``summary`` too (course/validation.py). nbgrader's
handler builds its ``Validator`` by name, so the class cannot be swapped by configuration alone.
"""
import traceback
from pathlib import Path

from jupyter_server.utils import url_path_join
from nbgrader.nbgraderformat import SchemaTooNewError, SchemaTooOldError
from nbgrader.server_extensions.validate_assignment.handlers import NbGraderVersionHandler, ValidateAssignmentHandler
from tornado import web

from .validation import CourseValidator


class CourseValidateHandler(ValidateAssignmentHandler):
    """``POST /assignments/validate``: validates the notebook at ``path`` (under the server's root) with
    ``CourseValidator``; ``{"success": bool, "value": results or a message}``, as nbgrader answers."""

    def validate_notebook(self, path):
        root = Path(self.root_dir).resolve()
        target = (root / path).resolve()
        if not target.is_relative_to(root):
            raise web.HTTPError(403, "Access denied: path outside allowed directory")
        try:
            return {"success": True, "value": CourseValidator(config=self.load_config()).validate(str(target))}
        except SchemaTooOldError:
            message = (f"The notebook '{path}' was made for an older nbgrader. Keep a copy of it, then update it "
                       f"with: nbgrader update {path}")
        except SchemaTooNewError:
            message = f"The notebook '{path}' was made for a newer nbgrader than this server has."
        except Exception:  # noqa: BLE001  (whatever stopped the run: the student is told, the log keeps it)
            message = f"Validate could not run this notebook:\n{traceback.format_exc(limit=0).strip()}"
        self.log.error("Validating %s: %s", path, traceback.format_exc())
        return {"success": False, "value": message}


def _jupyter_server_extension_points():
    return [{"module": "course.validate_handler"}]


def _load_jupyter_server_extension(serverapp):
    web_app = serverapp.web_app
    web_app.settings["root_dir"] = serverapp.root_dir
    base_url = web_app.settings["base_url"]
    web_app.add_handlers(".*$", [(url_path_join(base_url, "assignments/validate"), CourseValidateHandler),
                                 (url_path_join(base_url, "nbgrader_version"), NbGraderVersionHandler)])
