"""The output caps: every IOPub message a notebook's kernel sends is counted against its cell's cap
and its notebook's, whatever its type (outputs, display updates, comms, clear_output).

Past a cap the kernel is interrupted, and nothing but its status is read any more. A cell's cap
costs that cell (or, asked for trials, that exercise); the notebook's stops the notebook.
"""
import json


def message_size(msg) -> int:
    """The bytes a message took on the wire (its content's JSON when the session did not say)."""
    size = msg.get("wire_bytes")
    return len(json.dumps(msg.get("content", {}), default=str)) if size is None else size


class OutputCaps:
    """One notebook's count. ``interrupt`` stops the kernel's current cell; ``log`` hears of a cap hit."""

    def __init__(self, cell_limit: int, notebook_limit: int, interrupt, log):
        self.cell_limit, self.notebook_limit = cell_limit, notebook_limit
        self.interrupt, self.log = interrupt, log
        self.cell_bytes, self.notebook_bytes, self.interrupted_at = 0, 0, 0
        self.overflow = ""  # why this cell went past a cap ('' while it has not)
        self.flooded = ""   # why the notebook went past its cap, once it has: every cell after it starts over

    def new_cell(self) -> None:
        self.cell_bytes, self.overflow = 0, self.flooded

    def unread(self, msg) -> bool:
        """Not for nbclient to read: past a cap (all but the kernel's status), too large to decode
        (``BoundedSession`` delivers it empty), or a comm (graded notebooks keep no widget state)."""
        kind = msg.get("msg_type", "")
        return kind != "status" and bool(self.overflow or msg.get("oversized") or kind.startswith("comm"))

    def count(self, size: int, cell_index, kept: bool = True) -> None:
        """Every message counts toward its cell's cap; toward the notebook's, those read (not too large to
        decode) before a cap was hit.

        Past the cell's cap, the kernel is interrupted again at each further cap's worth of messages
        (an answer called once per trial, or a cell that catches the interrupt, keeps sending).
        """
        self.cell_bytes += size
        if not self.overflow:
            self.notebook_bytes += size if kept else 0
            if self.notebook_bytes > self.notebook_limit:
                self.overflow = self.flooded = (f"the notebook sent more than its output limit of "
                                                f"{self.notebook_limit} bytes")
            elif self.cell_bytes > self.cell_limit:
                self.overflow = f"it printed more than the output limit of {self.cell_limit} bytes"
            if self.overflow:
                self.log.warning("Cell %s: %s; interrupting it", cell_index, self.overflow)
                self._interrupt()
        elif self.cell_bytes - self.interrupted_at > self.cell_limit:
            self._interrupt()

    def _interrupt(self) -> None:
        self.interrupted_at = self.cell_bytes
        self.interrupt()
