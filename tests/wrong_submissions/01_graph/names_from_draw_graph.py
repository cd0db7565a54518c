# expect: calls the course's draw_graph(), which walks the graph for you, so it is switched off while `grad_fn_names`
# The drawing walks the graph too; the message names the helper the answer called.
def grad_fn_names(y):
    from course.visuals.draw_graph import draw_graph
    draw_graph(y)
    return []
