# expect: switched off while `count_nodes` is checked
def count_nodes(y):
    from course.visuals.graph_walk import walk_graph
    return len(walk_graph(y).nodes)
