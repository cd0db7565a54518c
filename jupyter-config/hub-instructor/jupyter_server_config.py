"""The instructor's server on the class hub (hub/), on top of ``instructor/``.

JupyterHub's single-user servers refuse to be framed (``frame-ancestors 'none'``, its default when none
is set), and JupyterLab shows Formgrader in a frame of its own page: the hub's origin may frame this
server's pages, no other (jupyter/nbgrader#1870).
"""
c = get_config()  # noqa: F821  (provided by Jupyter when it loads this file)

c.ServerApp.tornado_settings = {"headers": {"Content-Security-Policy": "frame-ancestors 'self'"}}
