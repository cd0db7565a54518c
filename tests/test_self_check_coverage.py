"""The self-check's stored seeds draw every kind of input the grader draws, so an answer the notebook
calls Correct is judged on the grader's kinds of input too; and every stored seed can be checked alone.

The grader draws fresh seeds (``secrets``): so does this test, many per exercise, and each fresh
seed's kinds of input (``course.checks.input_kinds``) must all be among those of the stored seeds.
The seeds drawn are printed, so a failure can be replayed.
"""
import pytest

from autograder.authoring.self_check_seeds import covering_seeds, drawn_features
from course.checks.random_inputs import fresh_seed
from course.exercise import exercises_of
from course.stored_values import stored_seeds
from lesson_solutions import solutions

LESSONS = {"graph": "01_graph", "backward": "02_backward", "no_grad": "03_no_grad", "zero_grad": "04_zero_grad"}
EXERCISES = [(lesson, name) for lesson in LESSONS for name in exercises_of(lesson)]
FRESH = 200


@pytest.mark.parametrize("lesson, name", EXERCISES, ids=[f"{lesson}/{name}" for lesson, name in EXERCISES])
def test_fresh_seeds_draw_only_kinds_the_stored_seeds_cover(lesson, name):
    exercise = exercises_of(lesson)[name]
    covered = frozenset().union(*drawn_features(exercise, stored_seeds(lesson, name)).values())
    fresh = [fresh_seed() for _ in range(FRESH)]
    print(f"{lesson}/{name}: fresh seeds {fresh}")
    missing = {seed: sorted(found - covered, key=repr) for seed, found in drawn_features(exercise, fresh).items()
               if not found <= covered}
    assert not missing, f"kinds of input the grader draws that no stored seed draws: {missing}"


@pytest.mark.parametrize("lesson, name", EXERCISES, ids=[f"{lesson}/{name}" for lesson, name in EXERCISES])
def test_the_stored_seeds_are_the_build_s_choice(lesson, name):
    """Same sources, same seeds: what is stored is what the build chooses today, and chooses again."""
    exercise = exercises_of(lesson)[name]
    chosen = covering_seeds(exercise)
    assert sorted(chosen) == sorted(stored_seeds(lesson, name)) and chosen == covering_seeds(exercise)
    assert chosen[0] == 0 and len(set(chosen)) == len(chosen)


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_stored_seed_can_be_checked_alone(lesson, capsys):
    solved = solutions(LESSONS[lesson])
    for name, exercise in exercises_of(lesson).items():
        for seed in stored_seeds(lesson, name):
            exercise(getattr(solved, name), seed=seed)
            assert f"matches PyTorch on seed {seed}'s inputs" in capsys.readouterr().out, (name, seed)


@pytest.mark.parametrize("lesson", LESSONS)
def test_any_other_seed_says_what_it_checked_and_why_not_more(lesson, capsys):
    solved = solutions(LESSONS[lesson])
    for name, exercise in exercises_of(lesson).items():
        seed = fresh_seed()
        while str(seed) in map(str, stored_seeds(lesson, name)):
            seed = fresh_seed()
        exercise(getattr(solved, name), seed=seed)
        said = capsys.readouterr().out
        assert f"ran on seed {seed}'s inputs" in said and f"Seed {seed}'s own values cannot be compared here" in said
        assert "the reference that computes the others stays with the grader" in said, (name, said)
