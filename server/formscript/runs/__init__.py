"""Dry runs and simulations: what the model would receive, and which entry serves each call.

Both are deterministic functions of the files; nothing calls a model or imports lionagi.
"""

from formscript.runs.common import CONTRACT_VERSION, embedded_report, json_safe, split_location
from formscript.runs.dry import dry_run_report, dry_run_text, dry_run_unread, render_dry_run
from formscript.runs.simulate import render_simulation, simulate_report, simulate_text, slow_regex

__all__ = [
    "CONTRACT_VERSION",
    "dry_run_report",
    "dry_run_text",
    "dry_run_unread",
    "embedded_report",
    "json_safe",
    "render_dry_run",
    "render_simulation",
    "simulate_report",
    "simulate_text",
    "slow_regex",
    "split_location",
]
