from . import submission

NAME = "always_equal"
WHY = "every answer returns an object equal to anything, true, and a float of any value"
KIND = "cheat"
EXERCISES = ["grad_via_backward", "vjp", "grads_with_intermediate", "two_losses", "jacobian_rows", "hand_derivative"]
EXPECT = {"loses": EXERCISES, "reason": "cannot send a Anything", "cell": "test_vjp"}

ANYTHING = '''
class Anything:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __bool__(self): return True
    def __float__(self): return 0.0
    def __len__(self): return 2
    def __iter__(self): return iter([Anything(), Anything()])
    def __getitem__(self, index): return Anything()
    __hash__ = object.__hash__
'''


def build(release, solutions):
    answers = {name: f"def {name}(*args):\n    return Anything()" for name in EXERCISES}
    answers["grad_via_backward"] = ANYTHING + answers["grad_via_backward"]
    return submission(release, solutions, **answers)
