"""Expected values for lesson 1, read off real PyTorch tensors and graphs on the grader's side.

The inputs (data, chains, shared graphs, flag combinations) are rebuilt from the seed by
``course/exercises/graph/``; what the answers should be is decided only here.
"""
from .. import import_each

import_each(__name__, __path__)
