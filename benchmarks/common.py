"""What every benchmark page needs: the machine in words and Markdown tables."""

from __future__ import annotations

import os
import platform
import subprocess


def machine() -> str:
    """OS, architecture, CPU model, core count and Python version."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next((ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("Model name")), "")
    except OSError:
        model = ""
    return (
        f"{platform.system()} {platform.machine()}, {model or platform.processor() or '?'}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )


def markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """The lines of a Markdown table."""
    return ["| " + " | ".join(r) + " |" for r in [header, ["---"] * len(header), *rows]]
