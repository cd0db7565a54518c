"""The instructor's JupyterLab (``make instructor-lab``), added for that command only by JUPYTER_CONFIG_PATH.

nbgrader's tools stay on (jupyter_server_config.d/), and saving ``source/NN_x/NN_x.ipynb`` rewrites
its lesson script ``source/NN_x/NN_x.py`` (autograder/authoring/save_hook.py).
"""
c = get_config()  # noqa: F821  (provided by Jupyter when it loads this file)

c.FileContentsManager.post_save_hook = "autograder.authoring.save_hook.write_lesson_script"

# Formgrader renders each autograded notebook with this exporter: a student's outputs and markdown
# as inert text and plain HTML, so no script of theirs runs in the instructor's browser, which can
# reach the gradebook and source/ (autograder/feedback.py).
c.HTMLExporter.preprocessors = ["autograder.feedback.InertOutputs"]
c.HTMLExporter.sanitize_html = True
