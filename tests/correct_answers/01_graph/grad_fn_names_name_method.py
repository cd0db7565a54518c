# style: node.name() in a while loop that stops at the node with no next_functions; name() gives
# 'torch::autograd::AccumulateGrad' for the leaf's node, which the lesson says is accepted
def grad_fn_names(y):
    names = []
    node = y.grad_fn
    while True:
        names.append(node.name())
        if not node.next_functions:
            return names
        node = node.next_functions[0][0]
