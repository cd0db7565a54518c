"""Where the workflow keeps, beside submitted/, why a submission could not be graded and what else
was handed in with it: one folder per submission, read by status and written by collect and grade."""
LEDGER = "ungraded"
