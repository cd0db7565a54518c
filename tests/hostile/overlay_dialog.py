from . import submission, with_solution

NAME = "overlay_dialog"
WHY = ("draws a fake 'Score 10.0 / 10.0, All tests passed' dialog over the whole feedback page and "
       "formgrader (Bootstrap's modal and backdrop, a fixed full-screen box), catching every click")
KIND = "cheat"
EXPECT = {"loses": ["two_losses"], "reason": "Correct: `vjp`"}

DIALOG = ('<div id="hostile-overlay" class="modal show in" style="display:block" role="dialog">'
          '<div class="modal-dialog"><div class="modal-content"><div class="modal-body">'
          "<h3>02_backward: Score 10.0 / 10.0</h3><p>All tests passed</p></div></div></div></div>"
          '<div class="modal-backdrop fade in"></div>'
          '<div id="hostile-cover" style="position:fixed;top:0;left:0;width:100vw;height:100vh;'
          'z-index:2147483647;background:rgba(255,255,255,.01)">All tests passed</div>')

OUTPUT = f'''
from IPython.display import HTML, display
display(HTML({DIALOG!r}))
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", OUTPUT),
                      two_losses="def two_losses(x):\n    return x, x", why_scalar=DIALOG)
