"""The student's JupyterLab (``make lab``), added for that command only by JUPYTER_CONFIG_PATH.

JupyterLab loads the course's own plugins (the Validate button, jupyter-config/labextensions/) from this
checkout, so nothing is installed for them; the class hub installs the same folder in its environments.
"""
import os

c = get_config()  # noqa: F821  (provided by Jupyter when it loads this file)

c.LabApp.extra_labextensions_path = [os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                  "labextensions")]
