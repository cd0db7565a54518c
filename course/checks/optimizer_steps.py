"""Every ``optimizer.step()`` an answer makes, watched from the kernel: which tensors it updated, with
which ``.grad`` and learning rate, summed up as plain data for the grader's judge."""
from contextlib import contextmanager

from torch.optim.optimizer import register_optimizer_step_pre_hook

from .parameters import grads_of, no_gradient


@contextmanager
def watching_steps():
    """Record every optimizer.step() made inside: which tensors it updates, their .grad and values then."""
    steps = []

    def seen(optimizer, args, kwargs):
        params = [p for group in optimizer.param_groups for p in group["params"]]
        steps.append({"optimizer": type(optimizer).__name__, "object": optimizer, "params": params,
                      "lr": [float(group.get("lr", float("nan"))) for group in optimizer.param_groups],
                      "grads": grads_of(params), "values": [p.detach().clone() for p in params]})

    handle = register_optimizer_step_pre_hook(seen)
    try:
        yield steps
    finally:
        handle.remove()


def step_summary(steps: list[dict], model_params: list) -> dict:
    """Plain data about the recorded steps, judged on the grader's side."""
    def owns(step):
        return bool(model_params) and all(any(p is q for q in step["params"]) for p in model_params)

    def of_model(step, key):
        return [step[key][i] for i, q in enumerate(step["params"]) if any(q is p for p in model_params)]

    return {"count": len(steps), "optimizers": sorted({s["optimizer"] for s in steps}),
            "lrs": sorted({lr for s in steps for lr in s["lr"]}),
            "on_model": all(owns(s) for s in steps),
            "no_gradient": [all(no_gradient(g) for g in of_model(s, "grads")) for s in steps],
            "first_values": of_model(steps[0], "values") if steps and owns(steps[0]) else None}
