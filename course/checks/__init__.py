"""Answer-free checking machinery: compare tensors, name mistakes, explain errors, draw random inputs."""
