"""Names every game can use without declaring them: values and functions, with their signatures.

The checker reads the signatures (arity, argument and result kinds); the interpreter implements
each function under the same name (`meeplang.interpreter.functions`), and a test keeps the two in step.
"""

# name -> kind of value
VALUES = {
    "you": "player",  # the player the current rule is about (turn player, chooser, trigger owner)
    "players": "list",  # every seat, in seat order
    "others": "list",  # every other seat, clockwise from your left neighbour
    "player_count": "int",
    "passers": "list",  # seats that passed in the current turns step, in the order they passed
}

ANY = 99
# name -> (min args, max args, result kind, kinds of the arguments (last one repeats))
FUNCTIONS = {
    "count": (1, 1, "int", ("list",)),
    "empty": (1, 1, "bool", ("list",)),
    "top": (1, 2, "any", ("list", "int")),
    "bottom": (1, 2, "any", ("list", "int")),
    "first": (1, 1, "any", ("list",)),
    "last": (1, 1, "any", ("list",)),
    "max": (1, ANY, "int", ("any",)),  # max(a, b, ...), max(L), max(L, default if L is empty)
    "min": (1, ANY, "int", ("any",)),
    "sum": (1, 1, "int", ("list",)),
    "any": (1, 1, "bool", ("list",)),
    "all": (1, 1, "bool", ("list",)),
    "abs": (1, 1, "int", ("int",)),
    "clamp": (3, 3, "int", ("int",)),  # clamp(x, lo, hi)
    "range": (2, 2, "list", ("int",)),
    "left": (1, 1, "player", ("player",)),
    "right": (1, 1, "player", ("player",)),
    "passed": (1, 1, "bool", ("player",)),
    "position": (1, 1, "int", ("any",)),
    "owner": (1, 1, "player", ("any",)),
    "by_players": (1, 1, "any", ("table",)),
    "players_from": (1, 1, "list", ("player",)),
    "row": (1, 1, "int", ("any",)),  # row of an item on a grid zone (1 = top)
    "column": (1, 1, "int", ("any",)),  # column of an item on a grid zone (1 = left)
    "at": (3, 3, "any", ("zone", "int", "int")),  # the item on a grid cell, or none
    "capacity": (1, 1, "any", ("zone",)),  # the most a zone holds (a grid: its cells), or none
    "full": (1, 1, "bool", ("zone",)),  # holds as many items as its capacity
    "uses": (1, 2, "int", ("str",)),  # uses of an action with a `limit:` in its (or a named) period
    "is_automa": (1, 1, "bool", ("player",)),  # is this seat played by the rules (an automa)?
    "subsets": (1, 1, "list", ("list",)),
    "contains": (2, 2, "bool", ("list",)),  # multiset containment: contains(cubes, [a, a, b])
    "fits_groups": (2, 2, "bool", ("list",)),  # groups of these sizes, each one value, all different
    "home": (1, 1, "zone", ("any",)),  # the zone an item was made in at setup
    # graphs (`graphs:`): neighbours, shortest number of steps avoiding blocked nodes, and every
    # node within n steps
    "neighbours": (2, 2, "list", ("graph", "any")),
    "steps_between": (3, 4, "any", ("graph", "any", "any", "list")),
    "within": (3, 4, "list", ("graph", "any", "int", "list")),
}

# Built-ins whose argument is a counter itself, not its value (compiled as a reference):
# funds(C) is what C can pay now, counting the transfers its family allows (net of their fees).
COUNTER_FUNCTIONS = {"funds": "int"}
