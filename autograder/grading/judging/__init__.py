"""One notebook graded: its cells run in a fenced kernel, each graded exercise asked for plain data on
fresh seeded inputs, expected values computed here with real PyTorch (``references/``), and the
verdict written here (``trusted_execute.py``, ``verdict.py``).
"""
