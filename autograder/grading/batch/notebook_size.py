"""How much notebook a submission may be: cells and prose, counted before anything renders it.

Bytes alone do not bound the work: a notebook of 100,000 one-character markdown cells is a few MB,
yet nbgrader's sanitising steps, the feedback page and formgrader's rendering each take minutes and
gigabytes on it. A lesson notebook has about a hundred cells and tens of kB of prose, so the caps
below leave a student ten times that and refuse the rest with the reason, at ``collect`` and again
when ``grade`` builds the task (a file placed by hand is checked too).
"""
import json

from traitlets import Integer
from traitlets.config import Configurable


class NotebookLimits(Configurable):
    max_cells = Integer(1000, help="Most cells a submitted notebook may have (a lesson has about "
                                   "a hundred).").tag(config=True)
    max_prose_bytes = Integer(1_000_000, help="Most bytes of markdown and raw cells (their text and "
                                              "attachments) a submitted notebook may have.").tag(config=True)

    def refusal(self, data: bytes) -> str:
        """Why this notebook file is over the caps, or '' (a file that is not JSON is for nbgrader to refuse)."""
        try:
            cells = json.loads(data).get("cells", [])
        except (ValueError, AttributeError, RecursionError):
            return ""
        if not isinstance(cells, list):
            return ""
        if len(cells) > self.max_cells:
            return (f"the notebook has {len(cells)} cells, over the limit of {self.max_cells} "
                    "(NotebookLimits.max_cells): it was not graded")
        prose = sum(len(json.dumps([c.get("source", ""), c.get("attachments", {})]))
                    for c in cells if isinstance(c, dict) and c.get("cell_type") != "code")
        if prose > self.max_prose_bytes:
            return (f"the notebook has {prose} bytes of markdown, over the limit of {self.max_prose_bytes} "
                    "(NotebookLimits.max_prose_bytes): it was not graded")
        return ""
