"""A student's server on the class hub: which course, and where its exchange is.

The hub (hub/jupyterhub_config.py) reads both from the course's own nbgrader_config.py and hands them
to every student's server as environment variables, so they are defined once, there.
"""
import os

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = os.environ.get("AUTOGRAD_COURSE_ID", "")
c.Exchange.root = os.environ.get("AUTOGRAD_COURSE_EXCHANGE", "/srv/nbgrader/exchange")
