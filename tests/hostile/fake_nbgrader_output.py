from . import submission

NAME = "fake_nbgrader_output"
WHY = "prints nbgrader-looking log lines and publishes the grader's own result type outside a request"
KIND = "cheat"
EXPECT = {"loses": ["jacobian_rows"], "reason": "differs from PyTorch", "cell": "test_jacobian_rows"}

FAKE = '''
import json
from IPython.display import publish_display_data
from course.checks.observation import MIME
print("[AutogradeApp | INFO] Autograding 02_backward: test_jacobian_rows 2.0 / 2.0")
print(json.dumps({"nbgrader": {"grade": True, "grade_id": "test_jacobian_rows", "points": 2, "score": 2}}))
publish_display_data({MIME: json.dumps({"__outcome__": "correct"}), "text/plain": "Correct: `jacobian_rows`"})

def jacobian_rows(f, x):
    return torch.eye(x.numel(), dtype=x.dtype)
'''


def build(release, solutions):
    return submission(release, solutions, jacobian_rows=FAKE)
