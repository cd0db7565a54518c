"""freeze_all_but_output: what trains once all but the last layer with parameters is frozen."""
from course.checks.parameters import layer_names


def expected(inputs):
    trainable, last = [], []
    for case in inputs["cases"]:
        model = case["model"]
        index = max(i for i, layer in enumerate(model) if list(layer.parameters()))
        model.requires_grad_(False)
        model[index].requires_grad_(True)
        trainable.append(sorted(n for n, p in layer_names(model).items() if p.requires_grad))
        last.append(index)
    return {"trainable": trainable, "last": last}
