from . import SCRIPT_MARK, submission, with_solution

NAME = "javascript_link"
WHY = ("writes javascript: links in its hand-graded written answer and in markdown and HTML outputs, "
       "for whoever clicks them in the feedback page or the instructor's formgrader")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

LINK = f"javascript:{SCRIPT_MARK}"
ANSWER = (f"The scalar rule: backward() needs one number to start from. [See my working](<{LINK}>), "
          f"or <a href=\"{LINK}\">this one</a>, or [a page](data:text/html,<script>{SCRIPT_MARK}</script>).")

MARKDOWN = f"[Open my notes](<{LINK}>)"
HTML = f'<a href="{LINK}">click for the answer key</a> <a href=" JaVaScRiPt:{SCRIPT_MARK}">again</a>'
OUTPUTS = f'''
from IPython.display import HTML, Markdown, display
display(Markdown({MARKDOWN!r}))
display(HTML({HTML!r}))
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", OUTPUTS), why_scalar=ANSWER)
