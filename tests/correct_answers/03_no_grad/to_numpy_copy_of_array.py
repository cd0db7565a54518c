# style: NumPy makes the copy: detach(), .numpy(), then .copy()
def to_numpy(t):
    return t.detach().numpy().copy()
