from . import submission, with_solution

NAME = "every_message_type"
WHY = ("in two_losses' cell, sends what the output cap once did not count: display updates of 500 kB "
       "each, widget comms with 1 MB states, clear_output, each many times")
KIND = "runaway"
EXPECT = {"loses": ["two_losses", "vjp", "grads_with_intermediate", "jacobian_rows", "hand_derivative", "hvp"], "reason": "output limit"}

FLOOD = '''
from IPython.display import HTML, clear_output, display, update_display
from ipykernel.comm import Comm
display(HTML("start"), display_id="grow")
for k in range(100):
    update_display(HTML("x" * 500_000), display_id="grow")
    Comm(target_name="jupyter.widget", data={"state": {"_model_module": "@jupyter-widgets/base",
                                                       "_model_name": "x", "blob": "y" * 1_000_000}})
    clear_output(wait=True)
'''


def build(release, solutions):
    return submission(release, solutions, two_losses=with_solution(solutions, "two_losses", FLOOD))
