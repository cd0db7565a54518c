"""How long authoring and validating may run a lesson's cells: set in nbgrader_config.py."""
from traitlets import Integer
from traitlets.config import Configurable


class Authoring(Configurable):
    build_cell_timeout = Integer(300, help="Seconds one cell of a lesson script may run while `build` "
                                           "executes its source notebook.").tag(config=True)
    validate_cell_timeout = Integer(300, help="Seconds one cell may run while `validate` checks a "
                                              "notebook.").tag(config=True)
