from zip_tricks import make_zip

from . import MARKER, NOTEBOOK

NAME = "canvas_path_traversal"
WHY = ("hands in the blank notebook in a zip beside entries whose paths climb out of it (../, an absolute path, "
       "Windows backslashes and a drive letter), named to land in the course or on the host")
KIND = "names"
LMS = "canvas"
EXPECT = {"graded": "blank", "reason": "its path leaves the zip (absolute or ..): not read"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({
        NOTEBOOK: kit.blank, f"../../../../{MARKER}-up.ipynb": kit.solution, f"/tmp/{MARKER}-absolute.ipynb": kit.solution,
        f"..\\..\\..\\{MARKER}-backslash.ipynb": kit.solution, f"C:\\{MARKER}-drive.ipynb": kit.solution})}
