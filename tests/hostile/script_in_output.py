from . import SCRIPT_MARK, submission, with_solution

NAME = "script_in_output"
WHY = ("puts script in its outputs (application/javascript, <script>, an onerror handler, SVG with "
       "script), for the feedback page or the instructor's formgrader to run")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

SCRIPT = f'''
from IPython.display import HTML, SVG, Javascript, display
mark = {SCRIPT_MARK!r}
display(Javascript(mark))
display(HTML("<script>" + mark + "</script><img src=x onerror=\\"" + mark + "\\">"))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg"><script>' + mark + '</script></svg>'))
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", SCRIPT))
