from . import LEAKED, submission, with_solution

NAME = "reads_gradebook"
WHY = "opens nbgrader's gradebook.db (every student's grades, the course's cells) with sqlite3"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "hidden: "}

CHEAT = f'''
import os, sqlite3
import course

repository = os.path.dirname(os.path.dirname(os.path.abspath(course.__file__)))
for path in (os.path.join(os.getcwd(), "..", "..", "..", "gradebook.db"), os.path.join(repository, "gradebook.db")):
    try:
        db = sqlite3.connect(f"file:{{os.path.abspath(path)}}?mode=ro", uri=True)
        tables = db.execute("select name from sqlite_master where type = 'table'").fetchall()
        print("{LEAKED}: gradebook", path, tables[:5])
    except sqlite3.Error as error:
        print("hidden:", path, error)
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", before=CHEAT))
