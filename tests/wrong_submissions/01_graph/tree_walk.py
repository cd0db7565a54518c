# expect: was counted once per path
# A tree walk: a shared node (and everything below it) is counted once for every path to it.
def count_nodes(y):
    def count(node):
        return 1 + sum(count(n) for n, _ in node.next_functions if n is not None)
    return count(y.grad_fn)
