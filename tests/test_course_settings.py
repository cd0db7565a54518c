"""Each setting is declared once, with its help and default: nothing restates a default to drift from it.

docs/settings.md is generated from the declarations; nbgrader_config.py sets only what the course
changes; a guide that names a setting and gives its default in the same breath gives the real one.
"""
import ast
import glob
import os
import re

from autograder import course_settings
from autograder.course_dir import load_config
from conftest import ROOT

UNITS = {"GiB": 1024**3, "MiB": 1024**2, "KiB": 1024, "GB": 10**9, "MB": 10**6, "kB": 10**3, "KB": 10**3}


def test_docs_settings_is_the_generated_list():
    with open(os.path.join(ROOT, "docs", "settings.md"), encoding="utf-8") as handle:
        assert handle.read() == course_settings.markdown(), "run: autograd-course settings --markdown > docs/settings.md"


def test_every_class_with_settings_is_listed():
    declared = {name for names in course_settings.DECLARED.values() for name in names}
    found = set()
    for path in glob.glob(os.path.join(ROOT, "autograder", "**", "*.py"), recursive=True):
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(call, ast.Call) and getattr(call.func, "attr", "") == "tag"
                    and any(k.arg == "config" for k in call.keywords) for call in ast.walk(node)):
                found.add(node.name)
    assert found <= declared, f"declare these in course_settings.DECLARED: {sorted(found - declared)}"


def test_the_course_config_sets_only_what_it_changes():
    restated = [f"{s.owner}.{s.name}" for s in course_settings.settings(load_config(ROOT))
                if not s.changed and s.name in load_config(ROOT).get(s.owner, {})]
    assert restated == [], f"nbgrader_config.py restates these defaults: {restated}"


def _number(text: str):
    match = re.match(r"([\d_.,]+)\s*(GiB|MiB|KiB|GB|MB|kB|KB)?", text.strip())
    if not match or not re.search(r"\d", match[1]):
        return None
    value = float(match[1].replace("_", "").replace(",", ""))
    return value * UNITS.get(match[2] or "", 1)


def stated_defaults() -> list[tuple[str, str, float, float]]:
    """(guide, setting, stated, declared): each place a guide names a setting with a number right after it."""
    defaults = {(s.owner, s.name): s.default for s in course_settings.settings()}
    stated = []
    for path in glob.glob(os.path.join(ROOT, "docs", "*.md")) + [os.path.join(ROOT, "README.md")]:
        if path.endswith("settings.md"):
            continue
        text = open(path, encoding="utf-8").read()
        for match in re.finditer(r"`(?:c\.)?([A-Z]\w+)\.(\w+)`[^()`\n.;]{0,24}?(?:\(|, )([^()`\n]{1,24})", text):
            key = (match[1], match[2])
            value = _number(match[3])
            if key in defaults and value is not None and isinstance(defaults[key], (int, float)):
                stated.append((os.path.basename(path), f"{key[0]}.{key[1]}", value, float(defaults[key])))
    return stated


def test_a_default_the_guides_state_is_the_declared_one():
    stated = stated_defaults()
    assert stated, "the check found no default stated in the guides: has its pattern stopped matching them?"
    assert [s for s in stated if s[2] != s[3]] == []
