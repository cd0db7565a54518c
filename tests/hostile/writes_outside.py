from . import MARKER, submission, with_solution

NAME = "writes_outside"
WHY = "tries to write into the course (source, gradebook, a classmate's file), the repository and the host's shared folders"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "refused: course source"}

CHEAT = f'''
import os, sys
import course

here = os.getcwd()   # <course>/autograded/<me>/02_backward
course_dir = os.path.join(here, "..", "..", "..")
targets = {{
    "course source": os.path.join(course_dir, "source", "02_backward", "02_backward.ipynb"),
    "gradebook": os.path.join(course_dir, "gradebook.db"),
    "classmate": os.path.join(course_dir, "submitted", "solution", "02_backward", "02_backward.ipynb"),
    "new file in course": os.path.join(course_dir, "{MARKER}-{NAME}-course"),
    "repository": os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(course.__file__))), "{MARKER}-{NAME}-repo"),
    "student package": os.path.join(os.path.dirname(os.path.abspath(course.__file__)), "{MARKER}-{NAME}-package"),
    "python installation": os.path.join(sys.prefix, "{MARKER}-{NAME}-prefix"),
    "host /tmp": "/tmp/{MARKER}-{NAME}-tmp",
    "host /var/tmp": "/var/tmp/{MARKER}-{NAME}-vartmp",
    "host /dev/shm": "/dev/shm/{MARKER}-{NAME}-shm",
    "host /run/lock": "/run/lock/{MARKER}-{NAME}-lock",
}}
for what, path in targets.items():
    try:
        with open(path, "a") as handle:
            handle.write("written by a hostile submission\\n")
    except OSError as error:
        print(f"refused: {{what}}: {{type(error).__name__}}")
    else:
        print(f"wrote (inside the sandbox): {{what}}")
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", before=CHEAT))
