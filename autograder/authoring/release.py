"""`autograd-course release`: nbgrader's generate_assignment, source/ -> release/ and the gradebook."""
from ..course_dir import assignments, open_api


class ReleaseError(RuntimeError):
    """nbgrader could not generate a lesson: a problem of the course itself, not of a submission."""


def generate_release(root: str, only: list[str] | None = None) -> list[str]:
    api = open_api(root)
    done = []
    for assignment in only or assignments(root):
        result = api.generate_assignment(assignment, force=True)
        if not result["success"]:
            raise ReleaseError(f"generate_assignment {assignment} failed:\n{result.get('error') or result.get('log')}")
        done.append(assignment)
    return done


def run(args) -> int:
    for assignment in generate_release(args.root, args.lessons or None):
        print("released", assignment)
    return 0
