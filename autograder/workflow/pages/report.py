"""``autograd-course report``: an item analysis of the class, as one HTML page with charts.

It answers what an instructor asks after grading: who is not accounted for (roster students who
submitted nothing, files that could not be graded and why), how scores spread in each lesson,
which exercises most students fail, which ideas their mistakes show (the ``kind`` the grader
diagnosed, grouped by ``mistake_ideas.IDEAS`` into the lesson sections that teach them, with one
message as a student saw it), how many tried each exercise at all (kept apart from mistakes),
and which of the students' own cells are slow enough to worry about the time limit.

Scores and pass rates come from nbgrader's gradebook. Outcomes, mistakes and timings come from
the autograded notebooks: each graded test cell carries ``metadata["autograd_course"]``
(exercise, outcome, kind, message, seconds: the grader's trials of the student's function), and
the student's solution cells may carry nbclient's ``metadata["execution"]`` timestamps. The
lesson's own cells are not timed: their time is the lesson's (and the kernel's warm-up), not the
student's. The page is self-contained (the PNGs are embedded as
data URIs, no network), so it can be mailed or archived as one file. Every text a student's
notebook gave it (a cell's first line, a message) is escaped, and its Content-Security-Policy
(inert_html's, as on the feedback page) lets no script run and nothing be fetched.
"""
import base64
import html
import json
import os
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime

from course.grade_ids import exercise_of_test

from ..grades.export import GradebookSnapshot, chosen_lessons, read_gradebook, read_roster
from ..grades.score_text import points as _points
from .inert_html import content_security_policy
from .mistake_ideas import Idea, exercise_sections, idea_of
from ..records.status import MISSING, UNGRADABLE, class_status

# The sections that draw import report_plots themselves: matplotlib's import is then paid by this
# command alone, and `grade`, which imports this module with the CLI, starts its warm parents sooner.

OUTCOMES = ("correct", "incorrect", "not_attempted", "raised", "timeout", "limit", "not_run")
MISTAKES_PER_EXERCISE = 3
MISTAKES_IN_CHART = 12
SLOWEST_CELLS = 10
BLANK = ("", "YOUR ANSWER HERE")  # a written answer as released (nbgrader's ClearSolutions text)


@dataclass(frozen=True)
class CellResult:
    """One student's outcome on one graded test cell."""
    lesson: str
    student: str
    exercise: str
    outcome: str
    kind: str
    message: str


@dataclass(frozen=True)
class CellRun:
    """How long one cell took in one student's autograded notebook."""
    lesson: str
    student: str
    cell: str
    seconds: float


def _seconds(cell: dict) -> float | None:
    """The grader's own timing of a graded cell's trials, else nbclient's timestamps of a solution cell."""
    graded = cell.get("metadata", {}).get("autograd_course") or {}
    if isinstance(graded.get("seconds"), (int, float)):
        return float(graded["seconds"])
    if not cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
        return None  # the lesson's own code (imports, examples): not the student's
    stamps = cell.get("metadata", {}).get("execution") or {}
    try:
        start = datetime.fromisoformat(stamps["iopub.execute_input"])
        end = datetime.fromisoformat(stamps["shell.execute_reply"])
    except (KeyError, TypeError, ValueError):
        return None
    return max(0.0, (end - start).total_seconds())


def _cell_label(cell: dict) -> str:
    """A name that is the same in every student's copy: the grade_id, else the first code line."""
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    if grade_id:
        return grade_id
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    first = next((line.strip() for line in source.splitlines() if line.strip()), "(empty cell)")
    return first if len(first) <= 48 else first[:47] + "…"


@dataclass(frozen=True)
class WrittenAnswer:
    """A student's answer to a cell graded by hand, as the autograded notebook holds it."""
    lesson: str
    student: str
    cell: str
    text: str


def read_notebook(path: str, student: str, lesson: str
                  ) -> tuple[list[CellResult], list[CellRun], list[WrittenAnswer]]:
    with open(path, encoding="utf-8") as handle:
        cells = json.load(handle).get("cells", [])
    results, runs, written = [], [], []
    for cell in cells:
        marks = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") == "markdown" and marks.get("grade"):  # an answer graded by hand
            source = cell.get("source", "")
            written.append(WrittenAnswer(lesson, student, marks.get("grade_id", ""),
                                         "".join(source) if isinstance(source, list) else source))
        if cell.get("cell_type") != "code":
            continue
        graded = cell.get("metadata", {}).get("autograd_course")
        if graded:
            results.append(CellResult(lesson, student, graded.get("exercise") or _cell_label(cell),
                                      graded.get("outcome") or "not_run", graded.get("kind") or "",
                                      (graded.get("message") or "").strip()))
        seconds = _seconds(cell)
        if seconds is not None:
            runs.append(CellRun(lesson, student, _cell_label(cell), seconds))
    return results, runs, written


def read_autograded(root: str, lessons: list[str], only=None
                    ) -> tuple[list[CellResult], list[CellRun], list[WrittenAnswer]]:
    """Every ``autograded/<student>/<lesson>/<lesson>.ipynb`` for the chosen lessons (those of
    ``only``'s (student, lesson) pairs, when given: the submissions the gradebook counts)."""
    results, runs, written = [], [], []
    folder = os.path.join(root, "autograded")
    for student in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        for lesson in lessons:
            path = os.path.join(folder, student, lesson, f"{lesson}.ipynb")
            if os.path.exists(path) and (only is None or (student, lesson) in only):
                found = read_notebook(path, student, lesson)
                results += found[0]
                runs += found[1]
                written += found[2]
    return results, runs, written


def exercise_name(grade_id: str) -> str:
    """``test_vjp`` -> ``vjp``: the name the notebook metadata and the students use."""
    return exercise_of_test(grade_id) or grade_id


@dataclass(frozen=True)
class FrequentMistake:
    lesson: str
    exercise: str
    kind: str
    count: int
    example: str


@dataclass(frozen=True)
class SlowCell:
    lesson: str
    cell: str
    slowest: float
    median: float
    student: str  # whose run was the slowest
    runs: int


def pass_rates(snapshot: GradebookSnapshot, lessons: list[str]) -> list[tuple[str, str, int, int]]:
    """(lesson, exercise, passed, submissions) for each autograded cell; passed = full points."""
    rows = []
    for lesson in lessons:
        submitted = [s for (_, name), s in sorted(snapshot.submissions.items()) if name == lesson]
        for cell in snapshot.lessons[lesson]:
            if not cell.by_hand:
                passed = sum(1 for s in submitted if (s.points.get(cell.name) or 0.0) >= cell.max_score)
                rows.append((lesson, exercise_name(cell.name), passed, len(submitted)))
    return rows


def _is_mistake(r: CellResult) -> bool:
    """A wrong answer the grader diagnosed; an exercise left as it was released is no mistake."""
    return r.outcome not in ("correct", "not_attempted") and bool(r.kind) and r.kind != "not_attempted"


def mistakes(results: list[CellResult]) -> list[FrequentMistake]:
    """The most frequent diagnosed kinds per exercise, each with the first message seen."""
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    examples: dict[tuple[str, str, str], str] = {}
    position: dict[tuple[str, str], int] = {}  # notebook order, as the cells were read
    for r in results:
        position.setdefault((r.lesson, r.exercise), len(position))
        if _is_mistake(r):
            counts[(r.lesson, r.exercise)][r.kind] += 1
            examples.setdefault((r.lesson, r.exercise, r.kind), r.message.splitlines()[0] if r.message else "")
    return [FrequentMistake(lesson, exercise, kind, count, examples[(lesson, exercise, kind)])
            for (lesson, exercise), counter in sorted(counts.items(), key=lambda g: (g[0][0], position[g[0]]))
            for kind, count in sorted(counter.items(), key=lambda kc: (-kc[1], kc[0]))[:MISTAKES_PER_EXERCISE]]


@dataclass(frozen=True)
class IdeaCount:
    idea: str
    where: str
    count: int               # wrong answers that show it
    students: int
    exercises: tuple[str, ...]
    example: str


def ideas(results: list[CellResult], sections: dict[tuple[str, str], str] | None = None) -> list[IdeaCount]:
    """Diagnosed mistakes grouped by the idea they show (mistake_ideas.IDEAS), most frequent first; a
    kind IDEAS does not list is filed under its exercise's section (``sections``), named by its kind."""
    found: dict[str, list[CellResult]] = defaultdict(list)
    where: dict[str, str] = {}
    for r in results:
        if _is_mistake(r):
            idea = idea_of(r.kind, r.message, r.lesson)
            if idea.idea.startswith("other: ") and (sections or {}).get((r.lesson, r.exercise)):
                idea = Idea(f"{r.exercise}: {r.kind.replace('_', ' ')}", sections[(r.lesson, r.exercise)], (r.kind,))
            found[idea.idea].append(r)
            where[idea.idea] = idea.where
    rows = []
    for name, hits in found.items():
        exercises = tuple(dict.fromkeys(f"{r.lesson} · {r.exercise}" for r in hits))
        example = next((r.message.splitlines()[0] for r in hits if r.message), "")
        rows.append(IdeaCount(name, where[name], len(hits), len({r.student for r in hits}), exercises, example))
    return sorted(rows, key=lambda i: (-i.count, i.idea))


def attempts(results: list[CellResult]) -> list[tuple[str, str, int, int]]:
    """(lesson, exercise, attempted, not attempted) per exercise, in notebook order."""
    table = outcome_counts(results)
    return [(lesson, exercise, sum(c.values()) - c.get("not_attempted", 0), c.get("not_attempted", 0))
            for (lesson, exercise), c in table.items()]


def outcome_counts(results: list[CellResult]) -> dict[tuple[str, str], Counter]:
    table: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in results:
        table[(r.lesson, r.exercise)][r.outcome] += 1
    return table


def unattempted(results: list[CellResult]) -> list[tuple[str, str, int]]:
    """(lesson, exercise, students) for exercises that every student left as ``not_attempted``."""
    return [(lesson, exercise, sum(counter.values()))
            for (lesson, exercise), counter in outcome_counts(results).items()
            if set(counter) == {"not_attempted"}]


def slowest(runs: list[CellRun]) -> list[SlowCell]:
    by_cell: dict[tuple[str, str], list[CellRun]] = defaultdict(list)
    for run in runs:
        by_cell[(run.lesson, run.cell)].append(run)
    cells = []
    for (lesson, cell), found in by_cell.items():
        worst = max(found, key=lambda r: r.seconds)
        cells.append(SlowCell(lesson, cell, worst.seconds, statistics.median(r.seconds for r in found),
                              worst.student, len(found)))
    return sorted(cells, key=lambda c: (-c.slowest, c.lesson, c.cell))[:SLOWEST_CELLS]


# ---- the page -------------------------------------------------------------------------------

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       max-width: 1100px; margin: 2rem auto; padding: 0 1.5rem; line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; } h2 { margin-top: 2.4rem; border-bottom: 2px solid #0072B2; }
.meta, .note { color: #555; } img { max-width: 100%; height: auto; display: block; margin: 1rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; margin: .8rem 0; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
th { background: #f2f2f2; } tbody tr:nth-child(even) { background: #fafafa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code { background: #f2f2f2; padding: 0 .25rem; border-radius: 3px; }
"""


def _e(value) -> str:
    return html.escape(str(value))


def _image(path: str, alt: str) -> str:
    with open(path, "rb") as handle:
        data = base64.b64encode(handle.read()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{_e(alt)}">'


def _table(header: list[str], rows: list[list], numeric: set[int] = frozenset()) -> str:
    head = "".join(f'<th{" class=num" if i in numeric else ""}>{_e(h)}</th>' for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(f'<td{" class=num" if i in numeric else ""}>{_e(v)}</td>'
                                    for i, v in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _section(anchor: str, title: str, *parts: str) -> str:
    return f'<section id="{anchor}"><h2>{_e(title)}</h2>{"".join(parts)}</section>'


def _none(text: str) -> str:
    return f'<p class="note">{_e(text)}</p>'


def _due_text(submission) -> str:
    due = submission.due[:16].replace("T", " ") + " UTC" if submission.due else "no due date"
    return f"{due} (extension, from {submission.extension})" if submission.extension else due


def _scores_section(snapshot: GradebookSnapshot, lessons: list[str], out: str) -> str:
    from . import report_plots
    late = [s for _, s in sorted(snapshot.submissions.items()) if s.late_penalty > 0]
    scores = {lesson: [snapshot.final_score(s) for (_, name), s in sorted(snapshot.submissions.items())
                       if name == lesson and s not in late] for lesson in lessons}
    empty = [lesson for lesson, found in scores.items() if not found]
    scores = {lesson: found for lesson, found in scores.items() if found}  # no empty histogram
    if not scores:
        return _section("scores", "Score distribution per lesson", _none("No submissions in the gradebook yet."))
    chart = report_plots.score_histograms(scores, {lesson: snapshot.max_score(lesson) for lesson in scores},
                                          os.path.join(out, "scores.png"),
                                          dict(Counter(s.lesson for s in late)))
    notes = [_none("Written answers count once they are graded; until then they add 0 points. Late work is "
                   "shown apart, below the charts, so a late penalty does not read as a weak answer.")]
    shown = [s for _, s in sorted(snapshot.submissions.items()) if s.late_penalty > 0 or s.late or s.extension]
    if shown:  # late, late with the time unknown, or with a due date of their own
        notes.append("<h3>Late work</h3>" + _table(
            ["student", "lesson", "due", "handed in", "points earned", "late penalty", "score"],
            [[s.student, s.lesson, _due_text(s), s.late or "on time", _points(snapshot.earned(s)),
              _points(s.late_penalty), _points(snapshot.final_score(s))] for s in shown], {4, 5, 6}))
    teams = [s for _, s in sorted(snapshot.submissions.items()) if s.group]
    if teams:  # each member's score is counted in the charts: the same notebook, graded for each
        notes.append("<h3>Group work</h3>" + _table(
            ["student", "lesson", "group", "score"],
            [[s.student, s.lesson, s.group, _points(snapshot.final_score(s))] for s in teams], {3}))
    if empty:
        notes.append(_none(f"No graded submission yet for {', '.join(empty)}: no chart for them."))
    said = "; ".join(f"{lesson}: {len(found)} submission{'s' * (len(found) != 1)}, median {_points(statistics.median(found))} of "
                     f"{_points(snapshot.max_score(lesson))}, from {_points(min(found))} to {_points(max(found))}"
                     for lesson, found in scores.items())
    return _section("scores", "Score distribution per lesson",
                    _image(chart, f"Histograms of scores per lesson, late work apart. {said}."), *notes)


def _pass_rate_section(snapshot: GradebookSnapshot, lessons: list[str], results: list[CellResult],
                       out: str) -> str:
    from . import report_plots
    rates = [r for r in pass_rates(snapshot, lessons) if r[3]]
    outcomes = outcome_counts(results)
    outcome_rows = [[lesson, exercise] + [outcomes[(lesson, exercise)].get(o, 0) for o in OUTCOMES]
                    for lesson, exercise, *_ in rates if (lesson, exercise) in outcomes]
    if not rates:
        return _section("pass-rate", "Pass rate per exercise", _none("No autograded exercises with submissions."))
    chart = report_plots.pass_rates([(f"{lesson} · {exercise}", passed / total, passed, total)
                                     for lesson, exercise, passed, total in rates],
                                    os.path.join(out, "pass_rate.png"))
    table = ("<h3>Outcomes per exercise</h3>"
             + _table(["lesson", "exercise", *OUTCOMES], outcome_rows, set(range(2, 2 + len(OUTCOMES))))
             if outcome_rows else "")
    said = "; ".join(f"{lesson} {exercise}: {passed} of {total}" for lesson, exercise, passed, total in rates)
    return _section("pass-rate", "Pass rate per exercise",
                    _image(chart, f"Bar chart of the share of submissions with full points, per exercise. {said}."),
                    table)


def _mistakes_section(results: list[CellResult], out: str, sections: dict[tuple[str, str], str]) -> str:
    from . import report_plots
    grouped = ideas(results, sections)
    title = "Mistakes by the idea they show"
    if not grouped:
        return _section("mistakes", title, _none("No diagnosed mistakes in the autograded notebooks."))
    top = grouped[:MISTAKES_IN_CHART]
    chart = report_plots.top_mistakes([(f"{i.idea} ({i.where})", i.count) for i in top],
                                      os.path.join(out, "mistakes.png"),
                                      "Wrong answers by idea (where it is taught)")
    by_idea = _table(["idea", "taught in", "wrong answers", "students", "exercises", "example message"],
                     [[i.idea, i.where, i.count, i.students, ", ".join(i.exercises), i.example] for i in grouped],
                     {2, 3})
    found = mistakes(results)
    by_kind = _table(["lesson", "exercise", "kind", "count", "example message"],
                     [[m.lesson, m.exercise, m.kind, m.count, m.example] for m in found], {3})
    said = "; ".join(f"{i.idea} ({i.where}): {i.count}" for i in top)
    return _section("mistakes", title, _image(chart, f"Bar chart of wrong answers by idea, the {len(top)} most "
                                               f"frequent. {said}. The table below lists every idea."), by_idea,
                    _none("Exercises left as released count as not attempted (below), not as mistakes."),
                    f'<h3>Each exercise\'s most frequent kinds</h3><div id="mistake-kinds">{by_kind}</div>')


def _attempts_section(results: list[CellResult]) -> str:
    rows = attempts(results)
    if not rows:
        return _section("unattempted", "Attempts", _none("No graded exercises in the autograded notebooks."))
    nobody = unattempted(results)
    items = "".join(f"<li><code>{_e(exercise)}</code> in {_e(lesson)} "
                    f"({count} submission{'s' if count != 1 else ''}, all not attempted)</li>"
                    for lesson, exercise, count in nobody)
    parts = [f"<h3>Exercises no one attempted</h3><ul>{items}</ul>" if nobody else
             _none("Every exercise was attempted by at least one student.")]
    parts.append(_table(["lesson", "exercise", "attempted", "not attempted"], [list(r) for r in rows], {2, 3}))
    return _section("unattempted", "Attempts", *parts)


def _written_section(snapshot: GradebookSnapshot, lessons: list[str], written: list[WrittenAnswer]) -> str:
    """Each answer graded by hand: how many are graded and pending, the mean hand grade, and every
    answer as the student wrote it (escaped) with its grade, so the page covers the whole score."""
    title = "Written answers and hand grades"
    cells = [(lesson, cell) for lesson in lessons for cell in snapshot.lessons[lesson] if cell.by_hand]
    if not cells:
        return _section("written", title, _none("These lessons have no answers graded by hand."))
    rows, answers = [], []
    text = {(w.lesson, w.student, w.cell): w.text for w in written}
    for lesson, cell in cells:
        subs = [s for (_, name), s in sorted(snapshot.submissions.items()) if name == lesson]
        graded = [s.points[cell.name] for s in subs if s.points.get(cell.name) is not None
                  and cell.name not in s.ungraded_by_hand and cell.name not in s.changed_hand_grades]
        pending = len(subs) - len(graded)
        mean = _points(statistics.fmean(graded)) if graded else ""
        rows.append([lesson, cell.name, len(subs), len(graded), pending, mean, _points(cell.max_score)])
        for s in subs:
            pending_here = s.points.get(cell.name) is None or cell.name in s.ungraded_by_hand + s.changed_hand_grades
            shown = "pending" if pending_here else f"{_points(s.points[cell.name])} / {_points(cell.max_score)}"
            wrote = text.get((lesson, s.student, cell.name), "").strip()
            answers.append([lesson, cell.name, s.student, shown, "(not answered)" if wrote in BLANK else wrote])
    table = _table(["lesson", "answer", "submissions", "graded", "pending", "mean grade", "out of"], rows,
                   {2, 3, 4, 5, 6})
    each = _table(["lesson", "answer", "student", "hand grade", "what they wrote"], answers)
    return _section("written", title, table, f"<h3>Every answer</h3>{each}")


def _accounted_section(statuses: dict, lessons: list[str], roster_given: bool) -> str:
    """Everyone the report cannot show a score for: nothing submitted, or a file that could not be graded."""
    students = sorted({student for student, _ in statuses})
    nothing = [s for s in students if all(statuses[(s, lesson)].state == MISSING for lesson in lessons)]
    rows = [[student, lesson, state.summary] for (student, lesson), state in sorted(statuses.items())
            if lesson in lessons and state.state == UNGRADABLE]
    missing = [[lesson, ", ".join(s for s in students if statuses[(s, lesson)].state == MISSING and s not in nothing)]
               for lesson in lessons]
    missing = [row for row in missing if row[1]]
    parts = []
    if roster_given:
        parts.append(f"<h3>Submitted nothing</h3><p>{_e(', '.join(nothing))}</p>" if nothing
                     else _none("Every roster student submitted something."))
        if missing:
            parts.append("<h3>No submission for a lesson</h3>" + _table(["lesson", "students"], missing))
    else:
        parts.append(_none("Run with --roster to list the students who submitted nothing."))
    parts.append("<h3>Could not be graded</h3>" + _table(["student", "lesson", "why"], rows) if rows
                 else _none("Every submission could be graded."))
    return _section("accounted", "Students without a score", *parts)


def _slowest_section(runs: list[CellRun], out: str) -> str:
    from . import report_plots
    slow = slowest(runs)
    if not slow:
        return _section("slowest", "Slowest cells", _none("No cell timings in the autograded notebooks."))
    chart = report_plots.slowest_cells([(f"{c.lesson} · {c.cell}", c.slowest, c.median) for c in slow],
                                       os.path.join(out, "slowest_cells.png"))
    table = _table(["lesson", "cell", "slowest (s)", "median (s)", "slowest for", "runs"],
                   [[c.lesson, c.cell, f"{c.slowest:.2f}", f"{c.median:.2f}", c.student, c.runs] for c in slow],
                   {2, 3, 5})
    said = "; ".join(f"{c.lesson} {c.cell}: slowest {c.slowest:.2f} s, median {c.median:.2f} s" for c in slow)
    return _section("slowest", "Slowest cells", _image(chart, f"Bar chart of the slowest cells. {said}."),
                    _none("Timed on the students' own code: the grader's trials of each graded function, and the "
                          "cells students wrote (their solution cells); the lesson's own cells are left out."), table)


def build_report(root: str, out: str, lessons: list[str] | None = None, roster: str | None = None) -> str:
    """Draw the charts into ``out`` and write ``out/report.html``; return the page's path."""
    from ..grades import late_penalties
    roster_ids = list(read_roster(roster)) if roster else []
    late_penalties.settle(root)
    snapshot = read_gradebook(root)
    lessons = chosen_lessons(root, snapshot, lessons)
    snapshot = snapshot.only(lessons)
    results, runs, written = read_autograded(root, lessons, set(snapshot.submissions))
    os.makedirs(out, exist_ok=True)
    statuses = class_status(root, snapshot, roster_ids, lessons)
    sections = [_accounted_section(statuses, lessons, bool(roster)), _scores_section(snapshot, lessons, out),
                _pass_rate_section(snapshot, lessons, results, out), _written_section(snapshot, lessons, written),
                _mistakes_section(results, out, exercise_sections(root, lessons)),
                _attempts_section(results), _slowest_section(runs, out)]
    chosen = [key for key in snapshot.submissions if key[1] in lessons]
    people = roster_ids or sorted({student for student, _ in statuses})
    others = sorted({student for student, _ in statuses} - set(people))
    summary = (f"Lessons {_e(', '.join(lessons))} · {len(people)} students"
               + (" on the roster" if roster_ids else "")
               + (f" (and {len(others)} not on it: {_e(', '.join(others))})" if others else "") + " · "
               f"{len(chosen)} submissions · written {datetime.now().strftime('%Y-%m-%d %H:%M')}")
    page = (f'<!DOCTYPE html><html lang="en"><head>{content_security_policy()}<meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Class report: {_e(', '.join(lessons))}</title><style>{CSS}</style></head><body><main>"
            f'<h1>Class report</h1><p class="meta">{summary}</p>' + "".join(sections) + "</main></body></html>\n")
    path = os.path.join(out, "report.html")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page)
    return path


def run(args) -> int:
    try:
        path = build_report(getattr(args, "root", "."), args.out, args.lessons or None, args.roster)
    except (OSError, ValueError) as problem:
        print(f"report: {problem}")
        return 2
    print(f"wrote {path}")
    return 0
