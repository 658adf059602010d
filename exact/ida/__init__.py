"""IDA* searches with admissible heuristics: optimal solutions with node counts and honest limits.

``python -m exact.ida`` solves tile boards (one or a whole file of them).
"""

from exact.ida.solve import ida_tiles

__all__ = ["ida_tiles"]
