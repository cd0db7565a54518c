# expect: closed while `count_nodes` is checked
# graph_text walks with walk_graph too: counting its lines is the same shortcut.
def count_nodes(y):
    from course.visuals.graph_text import graph_text
    return sum("(shown above)" not in line for line in graph_text(y).splitlines())
