from . import Exchange, LESSON, NOTEBOOK

NAME = "exchange_notebook_link"
WHY = ("submits, then replaces its notebook in the exchange by a link to the course's source notebook (the "
       "solutions), which only the instructor can read")
KIND = "whose"
LMS = "exchange"
EXPECT = {"graded": None, "reason": f"holds a {NOTEBOOK} that is a link, not a file: not followed",
          "status": "a link, not a file"}


def build(kit):
    return Exchange(kit.blank, f'rm "$FOLDER/{NOTEBOOK}"\nln -s "$COURSE/source/{LESSON}/{NOTEBOOK}" "$FOLDER/{NOTEBOOK}"\n')
