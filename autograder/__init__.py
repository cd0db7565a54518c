"""Instructor-side tools: hidden-test grading, the nbgrader pipeline and its command line.

Hidden tests call ``autograder.grade``; nothing here is needed to take the course.
"""
from .grade import grade

__all__ = ["grade"]
