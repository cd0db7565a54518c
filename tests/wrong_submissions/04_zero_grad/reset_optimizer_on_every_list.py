# expect: for params = [] (an empty list), your code raised ValueError
# A reader's answer: PyTorch's own reset, through a throwaway optimizer; an optimizer refuses an
# empty list, which the text allows.
def reset_grads(params, set_to_none):
    torch.optim.SGD(params, lr=0.0).zero_grad(set_to_none=set_to_none)
