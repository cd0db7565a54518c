"""Pages made from submissions: feedback, formgrader's view and the class report, each rendered inert
(``inert_exporter.py``: checked fields in, sanitised HTML out, no script of a student's)."""
