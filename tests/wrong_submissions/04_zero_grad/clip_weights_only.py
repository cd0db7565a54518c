# expect: bias` has no hook
# Hooks the weights and forgets the biases, whose gradients are never clipped.
def clip_with_hook(model, max_value):
    return [p.register_hook(lambda g: g.clamp(-max_value, max_value))
            for name, p in model.named_parameters() if name.endswith("weight")]
