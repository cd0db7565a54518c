"""One notebook graded: its cells run in a fenced kernel, each graded exercise asked for plain data on
fresh seeded inputs, expected values computed here with real PyTorch (``references/``), and the
verdict written here: the executing step (``trusted_execute.py``) asks for an exercise's trials and
shows their verdict (``trials.py``, ``verdict.py``), counts what the kernel sends against the output
caps (``output_caps.py``) and stops a notebook at its other limits (``limits.py``).
"""
