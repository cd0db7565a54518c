"""Collect: what students handed in, from an LMS download (``download.py``, one reader per LMS in
``lms/``) or the class hub's exchange (``exchange.py``), into ``submitted/``, each file's owner and time
from the LMS's naming or the exchange, never from what is inside it; ``command.py`` runs it."""
