from . import Exchange

NAME = "exchange_backdated_timestamp"
WHY = "submits the solution after the due date and writes a time from before it into its own timestamp.txt"
KIND = "when"
LMS = "exchange"
EXPECT = {"graded": "solution", "late": True, "reason": "its timestamp.txt says 2020-01-01 00:00:00.000000 UTC, "
                                                        "but the notebook arrived at"}


def build(kit):
    return Exchange(kit.solution, 'printf "2020-01-01 00:00:00.000000 UTC" > "$FOLDER/timestamp.txt"\n')
