"""IDA* searches with admissible heuristics: optimal solutions with node counts and honest limits.

``python -m exact.ida`` solves tile boards (one or a whole file of them) and the 3x3x3.
"""

from exact.ida.solve import ida_cube, ida_tiles

__all__ = ["ida_cube", "ida_tiles"]
