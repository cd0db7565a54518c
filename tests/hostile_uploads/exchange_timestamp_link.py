from . import Exchange

NAME = "exchange_timestamp_link"
WHY = "submits the solution after the due date and makes its timestamp.txt a link to a file of its own with an early time"
KIND = "when"
LMS = "exchange"
EXPECT = {"graded": "solution", "late": True, "reason": "its timestamp.txt is not"}


def build(kit):
    return Exchange(kit.solution, 'printf "2020-01-01 00:00:00.000000 UTC" > "$HOME/early.txt"\n'
                                  'rm "$FOLDER/timestamp.txt"\nln -s "$HOME/early.txt" "$FOLDER/timestamp.txt"\n')
