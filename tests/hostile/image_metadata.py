import base64

from . import SCRIPT_MARK, submission, with_solution

NAME = "image_metadata"
WHY = ("shows images whose width and height metadata (which nbconvert writes into the page unquoted) carry "
       "an event handler and a full-window style, filenames that point at the course's files, and every "
       "other image metadata nbconvert reads, for feedback and formgrader to write into the page")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

PNG = ("iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAYAAABe3VzdAAAAOnRFWHRTb2Z0d2FyZQBNYXRwbG90bGliIHZlcnNpb24zLjExLjIsIGh0dHBz"
       "Oi8vbWF0cGxvdGxpYi5vcmcvgI3uAAAAAAlwSFlzAAAPYQAAD2EBqD+naQAAAD5JREFUeJztzjEBwCAAwDCGUFxPz5DA0YMdiYI87xrf"
       "+LF5O3AiWAlWgpVgJVgJVoKVYCVYCVaClWAlWAlWG7E2Am7gOYIkAAAAAElFTkSuQmCC")  # 40 x 30, orange
# unquoted, a space ends the value: each of these is a second attribute
HANDLER = f"1 onerror=eval(atob(this.dataset.m)) data-m={base64.b64encode(SCRIPT_MARK.encode()).decode()}"
COVER = "1 id=hostile-cover style=position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647"
SHOWN = [  # (data, metadata) of each display
    ({"image/png": "AAAA", "text/plain": "a broken image"},  # fails to load, so its onerror would run
     {"image/png": {"width": HANDLER, "height": HANDLER}}),
    ({"image/png": PNG}, {"width": COVER, "image/png": {"height": COVER}}),
    ({"image/jpeg": PNG}, {"image/jpeg": {"width": COVER, "unconfined": True}}),
    ({"image/png": PNG}, {"filenames": {"image/png": "../../../gradebook.db"}, "needs_background": "light",
                          "alt": '"><b>alt</b>', "image/png": {"width": 10**9, "height": -5}}),
    ({"image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"/>'},
     {"image/svg+xml": {"width": HANDLER, "isolated": True}}),
]
OUTPUTS = f'''
from IPython.display import publish_display_data
for data, metadata in {SHOWN!r}:
    publish_display_data(data, metadata)
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", OUTPUTS))
