from . import Exchange

NAME = "exchange_timestamp_fifo"
WHY = "submits after the due date and makes its timestamp.txt a named pipe, which a reader would wait on forever"
KIND = "when"
LMS = "exchange"
EXPECT = {"graded": "solution", "late": True, "reason": "(not a regular file)"}


def build(kit):
    return Exchange(kit.solution, 'rm "$FOLDER/timestamp.txt"\nmkfifo "$FOLDER/timestamp.txt"\n')
