"""Instance generators, parsers and the instance sets shipped with puzzleopt.

``instances.load("korf100")`` reads a shipped set (:mod:`instances.sets`); ``instances.names()``
lists them.
"""

from instances.files import Instance, load, read_instances
from instances.sets import SETS, InstanceSet, names, path, resolve

__all__ = ["SETS", "Instance", "InstanceSet", "load", "names", "path", "read_instances", "resolve"]
