"""Instructor-side tools: grading in the trusted process, the nbgrader workflow, authoring, the CLI.

Nothing here is needed to take the course, and the grading kernel cannot read it.
"""
