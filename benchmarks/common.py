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


def load_meter():
    """A function saying how busy the machine was since this call: shared machines inflate the
    seconds, so every page states the load average at the start and at the end of its run."""
    start = os.getloadavg()[0]

    def report() -> str:
        return f"load average {start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"

    return report
