"""Records: what the course keeps about its class and each submission, beside nbgrader's gradebook:
the roster, which upload each notebook came from and with which LMS id, why a submission could not be
graded and what else was handed in with it (``ledger.py``), and where each student stands (``status.py``).
Collect writes them; grades and pages read them."""
