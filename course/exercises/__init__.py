"""One module per lesson; each exercise is an ``Exercise`` whose trial asks PyTorch for the truth."""
