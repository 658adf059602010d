"""puzzleopt's hybrid layer: exact solvers certify learned solutions, networks bound MIP horizons."""
