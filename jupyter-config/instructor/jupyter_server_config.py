"""The instructor's JupyterLab (``make instructor-lab``), added for that command only by JUPYTER_CONFIG_PATH.

nbgrader's tools stay on (jupyter_server_config.d/), and saving ``source/NN_x/NN_x.ipynb`` rewrites
its lesson script ``source/NN_x/NN_x.py`` (autograder/authoring/save_hook.py).
"""
c = get_config()  # noqa: F821  (provided by Jupyter when it loads this file)

c.FileContentsManager.post_save_hook = "autograder.authoring.save_hook.write_lesson_script"

# Formgrader renders each autograded notebook with the course's InertHTMLExporter (put in place of
# nbgrader's by the autograder.workflow.pages.formgrader_pages extension, jupyter_server_config.d/): a
# student's outputs and markdown as inert text and plain HTML after rendering, so no script or
# overlay of theirs reaches the instructor's browser, which can reach the gradebook and source/.
c.HTMLExporter.preprocessors = ["autograder.workflow.pages.feedback.InertOutputs"]
