# style: the clip written with torch.where, max_value bound as a default argument, a tuple of handles
def clip_with_hook(model, max_value):
    def clip(grad, m=max_value):
        return torch.where(grad > m, torch.full_like(grad, m),
                           torch.where(grad < -m, torch.full_like(grad, -m), grad))
    return tuple(p.register_hook(clip) for p in model.parameters())
