"""The class hub's settings, without a hub: who runs what, where the course and exchange come from.

The real hub, with real accounts and a browser, is tests/browser/test_hub.py.
"""
import importlib.util
import os

from conftest import ROOT


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "hub", f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


classroom = _load("classroom")
student_env = _load("student_env")


def test_the_course_and_exchange_come_from_the_courses_own_config(monkeypatch):
    monkeypatch.setenv("AUTOGRAD_COURSE_EXCHANGE", "/srv/elsewhere")
    room = classroom.Classroom.from_environment({"AUTOGRAD_HUB_STUDENTS": "ana ben"})
    assert (room.course_id, room.exchange) == ("autograd-course", "/srv/elsewhere")
    assert (room.instructor, room.students, room.url) == ("instructor", ("ana", "ben"), "http://127.0.0.1:8000/")
    monkeypatch.delenv("AUTOGRAD_COURSE_EXCHANGE")
    assert classroom.Classroom.from_environment({}).exchange == "/srv/nbgrader/exchange"


def test_students_run_the_student_environment_and_the_instructor_the_tools():
    room = classroom.Classroom.from_environment({"AUTOGRAD_HUB_PREFIX": "/opt/course",
                                                 "AUTOGRAD_HUB_COURSE": "/home/instructor/course"})
    student, instructor = classroom.server(room, "ana"), classroom.server(room, "instructor")
    assert student["cmd"] == ["/opt/course/student-env/bin/jupyterhub-singleuser"]
    assert student["environment"]["JUPYTER_CONFIG_PATH"] == "/opt/course/jupyter-config/hub-student"
    assert student["notebook_dir"] == os.path.expanduser("~ana")
    assert instructor["environment"]["JUPYTER_CONFIG_PATH"] == ("/opt/course/jupyter-config/hub-instructor:"
                                                                 "/opt/course/jupyter-config/instructor")
    assert instructor["notebook_dir"] == "/home/instructor/course"
    assert instructor["cmd"] == ["/opt/course/instructor-env/bin/jupyterhub-singleuser"]
    for settings, env in ((student, "/opt/course/student-env"), (instructor, "/opt/course/instructor-env")):
        # the students' nbgrader finds the same course and exchange; a terminal's login shell finds its tools
        assert settings["environment"]["AUTOGRAD_COURSE_ID"] == room.course_id
        assert settings["environment"]["AUTOGRAD_COURSE_EXCHANGE"] == room.exchange
        assert settings["environment"]["AUTOGRAD_HUB_ENV"] == env
    # only the instructor's server is told where to send grading; only a student's first login gets a layout
    assert instructor["environment"]["AUTOGRAD_COURSE_GRADING_SERVICE"] == room.grading_socket
    assert "AUTOGRAD_COURSE_GRADING_SERVICE" not in student["environment"]
    assert student["first_workspace"] and instructor["first_workspace"] is None


def test_a_login_shell_puts_the_servers_environment_first(tmp_path):
    """The profile make hub installs: bash -l with AUTOGRAD_HUB_ENV set finds that environment's commands."""
    import subprocess
    (tmp_path / "env" / "bin").mkdir(parents=True)
    profile = tmp_path / "profile.sh"
    profile.write_text(classroom.PROFILE_TEXT)
    found = subprocess.run(["sh", "-c", f"PATH=/usr/bin:/bin; . {profile}; echo $PATH"], capture_output=True,
                           text=True, env={"AUTOGRAD_HUB_ENV": str(tmp_path / "env")}).stdout.strip()
    assert found == f"{tmp_path}/env/bin:/usr/bin:/bin"
    untouched = subprocess.run(["sh", "-c", f"PATH=/usr/bin:/bin; . {profile}; echo $PATH"], capture_output=True,
                               text=True, env={}).stdout.strip()
    assert untouched == "/usr/bin:/bin"


def test_the_inbound_folder_is_sticky():
    assert classroom.INBOUND_MODE == 0o3733  # nbgrader's 2733, plus the sticky bit


def test_the_hub_makes_private_homes():
    assert "HOME_MODE=0700" in classroom.USERADD and "--create-home" in classroom.USERADD


def test_a_folder_closed_to_others_on_the_way_is_found(tmp_path):
    inner = tmp_path / "closed" / "python"
    inner.mkdir(parents=True)
    os.chmod(tmp_path / "closed", 0o700)
    assert str(tmp_path / "closed") in classroom.closed_to_others(str(inner))
    os.chmod(tmp_path / "closed", 0o711)
    assert str(tmp_path / "closed") not in classroom.closed_to_others(str(inner))


def test_the_student_environment_is_binders_without_its_index():
    text = student_env.local_requirements()
    assert "--extra-index-url" in open(student_env.REQUIREMENTS).read() and "index-url" not in text
    assert f"-c {student_env.LOCK}\n" in text and "./course\n" in text and "nbgrader\n" in text
    assert student_env.locked("torch").startswith("torch==2.13")


def test_a_relative_prefix_is_built_where_it_names(monkeypatch, tmp_path):
    """`make hub` names hub/student-env relative to the checkout, and the last install runs in another
    folder: every command must name the environment's python by its whole path."""
    ran = []
    monkeypatch.setattr(student_env.subprocess, "run", lambda command, **kw: ran.append((command, kw.get("cwd"))))
    monkeypatch.chdir(tmp_path)
    python = student_env.build("student-env")
    assert python == str(tmp_path / "student-env" / "bin" / "python")
    assert all(os.path.isabs(command[0]) for command, _ in ran[1:]) and ran[-1][1] != str(tmp_path)
