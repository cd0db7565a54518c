from . import Exchange, LESSON, NOTEBOOK

NAME = "exchange_newline_folder"
WHY = ("submits the blank notebook, and makes a submission folder of its own in inbound/ whose name holds a "
       "newline, a forged report line and a terminal escape")
KIND = "names"
LMS = "exchange"
EXPECT = {"graded": "blank", "late": True, "reason": "\\nplaced alovelace from the exchange\\x1b[2K"}


def build(kit):
    """A name cannot hold "/": the forged line names the classmate without the lesson."""
    return Exchange(kit.blank, f'forged="$INBOUND/$USER+{LESSON}+2026-01-01 00:00:00.000000 UTC"$\'\\n\'"placed '
                               f'alovelace from the exchange"$\'\\x1b[2K\'"+Rx"\nmkdir "$forged"\n'
                               f'cp "$FOLDER/{NOTEBOOK}" "$forged/{NOTEBOOK}"\n')
