"""See autograd: the graph walk, its text form and drawing, plots, widgets and live pitfalls."""
