from . import submission, with_solution

NAME = "busy_grader"
WHY = ("keeps the grader busy after its honest vjp: 64 distinct valid pictures, each a tall graph that takes "
       "the grader about a second to draw, and 1000 small messages sent just before the cell ends, which the "
       "grader reads after the kernel's reply; none of that work is the kernel's, so none may cost it a point")
KIND = "runaway"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

WORK = '''
from IPython.display import display, publish_display_data
from course.visuals.picture import PICTURE_MIME

def _node(kind, label):
    return {"kind": kind, "label": label, "lines": [label] + ["w" * 40] * 11}

for k in range(64):
    nodes = [_node("output", f"y{k}")] + [_node("op", f"op{i}") for i in range(18)] + [_node("leaf", "x")]
    publish_display_data({PICTURE_MIME: {"kind": "graph", "title": f"busy {k}", "reason": "", "max_nodes": 60,
                                         "nodes": nodes, "edges": [[i, i + 1] for i in range(19)]}})
for k in range(1000):
    display(k)
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", WORK))
