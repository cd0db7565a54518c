# expect: your clamp saw the accumulated .grad
# A post-accumulate hook clips the sum in .grad, not each pass's gradient as it arrives.
def clip_with_hook(model, max_value):
    def clip(p):
        p.grad.clamp_(-max_value, max_value)
    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters()]
