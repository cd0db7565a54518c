# style: tensor methods and operators instead of torch functions
def build_f(x):
    return (x * x).log() * x.sin() + x.reciprocal()
