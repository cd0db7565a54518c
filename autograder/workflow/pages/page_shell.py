"""The shell of a page made from a graded notebook (feedback, formgrader's view): what WCAG 2.1 AA asks of it.

nbgrader's templates write a page without a language, with its title in an ``<h4>`` outside any
landmark, links told apart from text by colour alone (and too light on their grey panel), code
coloured by Pygments' default style (comments and strings under 4.5:1 on the grey input area), and
outputs whose long lines scroll sideways in a box no keyboard can reach. ``accessible_shell`` mends
the page the exporter rendered, leaving what it says alone:

- ``<html lang="en">``, the language of the course's pages;
- the page's content (its title, list of scores and cells) inside one ``<main>``;
- the page's title heading, ``<h4>`` in nbgrader's templates, as its ``<h1>`` (looking the same);
- formgrader's breadcrumb list no longer directly inside another list;
- a stylesheet last in ``<head>``: links underlined and dark enough, each Pygments colour darkened
  until it meets ``MIN_CONTRAST`` on the input area, and output text wrapped where it would scroll.
"""
import re

from pygments.styles import get_style_by_name
from pygments.token import STANDARD_TYPES

LANGUAGE = "en"
MIN_CONTRAST = 4.6  # WCAG AA asks 4.5:1 of body text; a little more, for rounding in the browser
CODE_BACKGROUND = "#f5f5f5"  # the classic template's input area, the darkest background code sits on
LINK = "#1f4e79"  # 8:1 on white, 7:1 on the panels' #f5f5f5
TITLE = re.compile(r'<h4(?: class="([^"]*)")?>(.*?)</h4>', re.DOTALL)  # the title of nbgrader's page
TEMPLATE_MAIN = re.compile(r"</?main>")
CONTAINER = '<div class="container">'  # where nbgrader's page content starts, after any navigation bar
# formgrader's navigation bar holds its breadcrumb list directly in another list: the outer one is a box
BREADCRUMB_IN_A_LIST = re.compile(r'<ul class="nav text-center">(\s*<ul class="breadcrumb">.*?</ul>\s*)</ul>', re.DOTALL)


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours."""
    light, dark = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable(colour: str, background: str = CODE_BACKGROUND) -> str:
    """``colour`` darkened, its hue kept, until it meets ``MIN_CONTRAST`` on ``background``."""
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    while contrast(colour, background) < MIN_CONTRAST:
        channels = [int(c * 0.92) for c in channels]
        colour = "#" + "".join(f"{c:02x}" for c in channels)
    return colour


def code_colours(style: str = "default") -> str:
    """CSS giving each token of the Pygments ``style`` (nbconvert's) a colour readable on code's background."""
    rules = []
    for token, definition in get_style_by_name(style):
        colour = definition["color"]
        name = STANDARD_TYPES.get(token)
        if colour and name and contrast(f"#{colour}", CODE_BACKGROUND) < MIN_CONTRAST:
            rules.append(f".highlight .{name} {{ color: {readable('#' + colour)}; }}")
    return "\n".join(rules)


STYLES = f"""
a, a:visited {{ color: {LINK}; text-decoration: underline; }}
div.nbgrader_cell .panel-heading a, div.nbgrader_cell .panel-heading a:visited {{ color: #ffffff; }}
h1.page-title {{ font-size: 18px; margin-top: 10px; margin-bottom: 10px; }}
.navbar-default .navbar-nav > li > a {{ color: #555555; }}
div[data-student] pre {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
div[data-student] img {{ max-width: 100%; height: auto; }}
{code_colours()}
"""


def accessible_shell(page: str) -> str:
    """``page`` with its language, one main landmark, its title as its first heading, and readable styles."""
    page = re.sub(r"<html(?![^>]*\blang=)", f'<html lang="{LANGUAGE}"', page, count=1)
    page = BREADCRUMB_IN_A_LIST.sub(r'<div class="nav text-center">\1</div>', _one_main(page), count=1)
    return page.replace("</head>", f"<style>{STYLES}</style></head>", 1)


def _one_main(page: str) -> str:
    """nbgrader's templates put nbconvert's ``<main>`` around the cells only, below the page's title and
    list of scores: one ``<main>`` from the page's container (after formgrader's navigation bar) to
    the end of its body holds them all, and the title ``<h4>`` opening it becomes its ``<h1>``. No
    student writes a ``<main>``: the cells' HTML is allowlisted without it, and their text escaped."""
    page = TEMPLATE_MAIN.sub("", page)
    start, end = page.find(CONTAINER, max(page.find("<body"), page.find("</nav>"))), page.rfind("</body>")
    if start < 0 or end < start:
        start, end = page.find(">", page.find("<body")) + 1, end if end >= 0 else len(page)
    content = TITLE.sub(lambda title: f'<h1 class="{" ".join(filter(None, ("page-title", title[1])))}">{title[2]}</h1>',
                        page[start:end], count=1)
    return page[:start] + "<main>" + content + "</main>" + page[end:]
