# style: a deep copy of the model is put in eval mode, so the caller's model is never touched
import copy


def evaluate(model, x):
    twin = copy.deepcopy(model).eval()
    with torch.no_grad():
        return twin(x)
