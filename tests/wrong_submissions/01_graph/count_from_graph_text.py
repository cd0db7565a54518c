# expect: graph_text(), which walks the graph for you, so it is switched off while `count_nodes`
# graph_text walks the graph too: counting its lines is the same shortcut, and the message names graph_text().
def count_nodes(y):
    from course.visuals.graph_text import graph_text
    return sum("(shown above)" not in line for line in graph_text(y).splitlines())
