"""Grades going back: into each LMS's own gradebook file (``export.py``, ``lms_files.py``) with the feedback
pages an LMS takes (``moodle_feedback.py``), hand grades kept across regrades, late penalties settled."""
