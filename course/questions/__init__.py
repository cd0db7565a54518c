"""Each lesson's quick checks (not graded), one module per lesson: a table of questions and its
`ask`. They live here rather than in the lesson's cells, whose source a student reads."""
