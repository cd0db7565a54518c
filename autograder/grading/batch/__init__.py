"""A class graded in parallel: plan what is left, build each submission's task (only its own regular
files, sizes bounded), run tasks on workers, record them with one writer, report progress.

``run.run`` is what ``autograd-course grade``, ``prove``, the tests and the benchmark call.
"""
