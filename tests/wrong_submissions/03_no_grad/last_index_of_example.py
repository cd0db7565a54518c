# expect: your function kept another layer training
# expect: the other way round from what was asked
# expect: Take every index from the model you are given
# The index of the lesson's example head (its Linear without bias is head[2]), copied into the answer.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    model[2].requires_grad_(True)
