"""mkdocs hook (mkdocs.yml, ``hooks:``): the pictures the pages show, drawn by the code at each
build, so that a picture in the documentation is always what the code draws today.

``img/*.svg`` are added to the site as generated files (nothing is written into docs/).
"""

from __future__ import annotations

from typing import Any


def pictures() -> dict[str, str]:
    """File name -> SVG text of each picture the docs show."""
    from puzzleopt import Cube, FreeCell, LightsOut, Sokoban, Tiles

    cube = Cube(3).apply("R U R' F")
    level = "\n".join(["#######", "#.@ # #", "#$* $ #", "#   $ #", "# ..  #", "#  *  #", "#######"])
    return {
        "cube3.svg": cube.svg(),
        "cube5.svg": Cube(5).scramble(20, rng=1).svg(),
        "tiles15.svg": Tiles.from_board("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").svg(),
        "lightsout.svg": LightsOut.from_board("1100010001010001111001111100000101101101001011001").svg(),
        "sokoban.svg": Sokoban(level).svg(),
        "freecell.svg": FreeCell(11982).svg(),
        "cube3_solution.svg": cube.animate("F' R U' R'").svg(),
    }


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for name, svg in pictures().items():
        files.append(File.generated(config, f"img/{name}", content=svg))
    return files
