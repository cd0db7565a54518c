from . import submission, with_solution

NAME = "forged_pictures"
WHY = ("publishes course-picture descriptions of its own for the grader to draw: an unknown kind, a graph "
       "with a cycle, a node line of 100 000 characters, a graph 162 inches tall, floats that are not base64, "
       "descriptions that are not mappings, then 80 distinct valid pictures to go past the notebook's picture cap")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "picture not drawn: this notebook showed more than 64 pictures", "cell": "vjp",
          "absent": "Q" * 2001}

FORGE = '''
from IPython.display import publish_display_data
from course.visuals.picture import PICTURE_MIME

def _forge(description):
    publish_display_data({PICTURE_MIME: description})

def _node(kind, *lines):
    return {"kind": kind, "label": lines[0], "lines": list(lines)}

def _graph(nodes, edges):
    return {"kind": "graph", "title": "forged", "reason": "", "max_nodes": 60, "nodes": nodes, "edges": edges}

_forge({"kind": "shell_command", "run": "id"})  # no drawing module of that name
_forge(_graph([_node("output", "y"), _node("op", "MulBackward0"), _node("leaf", "x")],
              [[0, 1], [1, 2], [2, 0]]))  # a cycle through the output
_forge(_graph([_node("output", "y", "Q" * 100_000)], []))  # 100 000 characters of text
_forge(_graph([_node("output", "y", "Q" * 3_000)], []))  # one line past its own cap, the whole within
_forge({"kind": "gradient", "name": "f", "point": "not base64!", "xs": "%%%%", "y": "%%%%", "dy": "%%%%"})
_forge(_graph([_node("output", *"y" * 12)] + [_node("op", *"o" * 12) for _ in range(58)] + [_node("leaf", *"x" * 12)],
              [[i, i + 1] for i in range(59)]))  # valid, but 162 inches tall: refused before a pixel is drawn
_forge(["kind", "graph"])
_forge("a picture, honestly")
for k in range(80):  # valid and distinct (the grader's memo draws each once): draw_graph's picture of no graph
    _forge({"kind": "graph", "title": f"forged picture {k}", "reason": "x is a plain number, not a tensor",
            "max_nodes": 50, "nodes": [], "edges": []})
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", after=FORGE))
