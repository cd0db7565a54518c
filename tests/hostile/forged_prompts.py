from . import SCRIPT_MARK, submission, with_solution

NAME = "forged_prompts"
WHY = ("sends IOPub messages of its own making: execution counts that are markup (written between a "
       "prompt's brackets), a stream of another name, a widget view, a Mermaid diagram, a PDF and an unknown "
       "type, an error whose name, value and traceback are markup, for the pages to write as they are")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

COVER = ('<div id="hostile-cover" style="position:fixed;top:0;left:0;width:100vw;height:100vh;'
         'z-index:2147483647;background:#fff">All tests passed</div>')
HANDLER = f'<img src=x onerror="{SCRIPT_MARK}">'
MESSAGES = [  # (type, content) of each message it sends on IOPub, as the cell's own
    ("execute_input", {"code": "", "execution_count": HANDLER}),
    ("execute_result", {"execution_count": COVER, "data": {"text/plain": "forged"}, "metadata": {}}),
    ("stream", {"name": f'stdout" onclick="{SCRIPT_MARK}', "text": "a stream of another name"}),
    ("stream", {"name": "stdin", "text": "typed in"}),
    ("display_data", {"data": {
        "application/vnd.jupyter.widget-view+json": {"model_id": f"</script><script>{SCRIPT_MARK}</script>",
                                                     "version_major": 2, "version_minor": 0},
        "text/vnd.mermaid": HANDLER, "application/pdf": "JVBERi0=", "text/x-hostile": f"<script>{SCRIPT_MARK}</script>"},
        "metadata": {}}),
    ("error", {"ename": f"<script>{SCRIPT_MARK}</script>", "evalue": COVER, "traceback": [HANDLER]}),
]
FORGE = f'''
_pub = get_ipython().display_pub
for _kind, _content in {MESSAGES!r}:
    _pub.session.send(_pub.pub_socket, _pub.session.msg(_kind, _content, parent=_pub.parent_header), ident=_pub.topic)
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", FORGE))
