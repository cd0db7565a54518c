"""A corpus of hostile uploads: what a student hands in around the notebook, aimed at collect.

One module per case. Each defines:

- ``NAME``: the module's name; the case's student is ``hostile_<NAME>`` in an LMS download, and an
  account of its own (``Kit.student``) on the exchange;
- ``WHY``: one line, what it tries;
- ``KIND``: ``whose`` (handing work in, or taking it, in a classmate's name), ``when`` (a late mark or
  time lost or forged), ``bounds`` (stopping or swamping collect for the class), ``names`` (names that
  act on the instructor's terminal or reach outside the course);
- ``LMS``: ``canvas``, ``moodle``, ``blackboard``, ``folders`` (a folder per student) or ``exchange``;
- ``build(kit)``: the files it adds to its LMS's download of the class (name -> bytes, named for its
  own student by ``kit``); for the exchange, an ``Exchange``: the notebook the student submits with
  nbgrader and the shell lines they run on their own submission afterwards;
- ``EXPECT``: ``graded`` (``"solution"``, ``"blank"``: what of it is graded as its student's, scored
  as that notebook is; ``None``: nothing placed), ``reason`` (a fragment of a collect line about it),
  optionally ``status`` (a fragment of its student's status in exports/grades.csv) and ``late``
  (nbgrader's late penalty applied to it).

Every file a case names outside its own (a traversal's target) carries ``MARKER``, so none can land
unseen; every case of a download is collected beside honest classmates, who must keep every point.
"""
import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

KINDS = ("whose", "when", "bounds", "names")
LMSS = ("canvas", "moodle", "blackboard", "folders", "exchange")
MARKER = "hostile-uploads-5d2c"
LESSON = "02_backward"
NOTEBOOK = f"{LESSON}.ipynb"
HONEST_STAMP = "2026-03-05-18-40-31"  # a Blackboard attempt's time, before the lesson's due date


@dataclass(frozen=True)
class Classmate:
    """An honest student of the class, in the one LMS they are collected from."""
    student_id: str
    name: str
    lms: str
    lms_id: str

    def roster_row(self) -> dict:
        column = {"canvas": "canvas_id", "moodle": "moodle_id", "blackboard": "username", "folders": "login_id",
                  "exchange": "login_id"}[self.lms]
        return {"student_id": self.student_id, "name": self.name, column: self.lms_id}


CLASSMATES = [Classmate("alovelace", "Ada Lovelace", "canvas", "48211"),
              Classmate("cbabbage", "Charles Babbage", "canvas", "48212"),
              Classmate("jsmith", "John Smith", "moodle", "3001"),
              Classmate("enoether", "Emmy Noether", "moodle", "3002"),
              Classmate("ghopper", "Grace Hopper", "blackboard", "ghopper"),
              Classmate("kjohnson", "Katherine Johnson", "blackboard", "kjohnson7"),
              Classmate("dvaughan", "Dorothy Vaughan", "folders", "dvaughan"),
              Classmate("mhamilton", "Margaret Hamilton", "folders", "mhamilton")]


def canvas_name(name: str) -> str:
    """Canvas's sortable name in its file names: last name then first, lower case, nothing between."""
    first, last = name.lower().split(" ", 1)
    return (last + first).replace(" ", "")


def honest_files(classmate: Classmate, notebook: bytes) -> dict[str, bytes]:
    """A classmate's upload of the lesson, as their LMS names it in the download."""
    if classmate.lms == "canvas":
        return {f"{canvas_name(classmate.name)}_{classmate.lms_id}_{7000 + int(classmate.lms_id) % 100}_{NOTEBOOK}":
                notebook}
    if classmate.lms == "moodle":
        return {f"{classmate.name}_{classmate.lms_id}_assignsubmission_file/{NOTEBOOK}": notebook}
    if classmate.lms == "blackboard":
        return {f"Lesson 2_{classmate.lms_id}_attempt_{HONEST_STAMP}_{NOTEBOOK}": notebook,
                f"Lesson 2_{classmate.lms_id}_attempt_{HONEST_STAMP}.txt":
                    f"Name: {classmate.name} ({classmate.lms_id})\nFiles:\n\tOriginal filename: {NOTEBOOK}\n"
                    f"\tFilename: Lesson 2_{classmate.lms_id}_attempt_{HONEST_STAMP}_{NOTEBOOK}\n".encode()}
    return {f"{classmate.lms_id}/{NOTEBOOK}": notebook}


def classmate(student_id: str) -> Classmate:
    return next(c for c in CLASSMATES if c.student_id == student_id)


@dataclass(frozen=True)
class Kit:
    """What a case builds from: the lesson's notebooks and its own student's names in each LMS."""
    solution: bytes
    blank: bytes
    number: int            # distinct per case
    student: str           # its student_id (the account's name on the exchange)
    course: str            # the instructor's course folder, which a cheat may aim a link at

    @property
    def name(self) -> str:
        return f"Hostile Student{self.number}"

    @property
    def canvas_id(self) -> str:
        return str(49000 + self.number)

    def canvas(self, filename: str, late: bool = False) -> str:
        """Canvas's name for this student's upload: lastfirst[_LATE]_userid_attachmentid_filename."""
        return f"{canvas_name(self.name)}{'_LATE' if late else ''}_{self.canvas_id}_{9000 + self.number}_{filename}"

    @property
    def moodle_id(self) -> str:
        return str(5000 + self.number)

    def moodle(self, filename: str) -> str:
        return f"{self.name}_{self.moodle_id}_assignsubmission_file/{filename}"

    @property
    def username(self) -> str:
        return f"hostile{self.number}"

    def blackboard(self, filename: str, stamp: str = HONEST_STAMP) -> str:
        return f"Lesson 2_{self.username}_attempt_{stamp}_{filename}"

    def roster_row(self) -> dict:
        return {"student_id": self.student, "name": self.name, "canvas_id": self.canvas_id,
                "moodle_id": self.moodle_id, "username": self.username, "login_id": self.student}


@dataclass(frozen=True)
class Exchange:
    """An exchange case: the notebook its student submits, then shell lines run as them, with
    ``$FOLDER`` their submission folder (nbgrader's submit prints it), ``$INBOUND`` and ``$COURSE``."""
    notebook: bytes
    script: str = ""


@dataclass(frozen=True)
class Case:
    name: str
    why: str
    kind: str
    lms: str
    build: Callable
    expect: dict = field(default_factory=dict)

    @property
    def student(self) -> str:
        return f"hostile_{self.name}"


def load_cases() -> list[Case]:
    cases = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        case = Case(module.NAME, module.WHY, module.KIND, module.LMS, module.build, module.EXPECT)
        if case.name != info.name or case.kind not in KINDS or case.lms not in LMSS:
            raise ValueError(f"{info.name}: NAME must be the module's name, KIND one of {KINDS}, LMS one of {LMSS}")
        if "graded" not in case.expect or "reason" not in case.expect:
            raise ValueError(f"{info.name}: EXPECT needs 'graded' and 'reason'")
        cases.append(case)
    return cases
