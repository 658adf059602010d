"""Instance generators, parsers and instance files shipped with puzzleopt."""
