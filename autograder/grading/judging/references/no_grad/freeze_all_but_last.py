"""freeze_all_but_last: what trains is what freeze_all_but_output's rule leaves training, on any model."""
from .freeze_all_but_output import expected  # noqa: F401  (the same rule: the last layer with parameters trains)
