"""The instructor's workflow around grading: collecting submissions, exporting grades, reporting on the class."""
