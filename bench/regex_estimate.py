"""How near ``regex_timeout``'s estimate comes to the time the unbounded search takes
(issue 12 item 12): for each pattern, the estimate from ``regex_guard.estimate`` (probes on
shorter texts) against ``re.search`` on the full text, timed in this process. Reported as the
ratio estimate / actual per pattern; the README's "within 3x" claim is this table.

    python bench/regex_estimate.py            # the patterns below, 3 rounds each
    python bench/regex_estimate.py --rounds 5
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from formscript.core.regex_guard import estimate

#: (pattern, text): quadratic searches that finish in one to three seconds.
CASES = [
    ("a*b", "a" * 24_000),
    ("[ab]*c", "ab" * 10_000),
    (r"\w*!", "w" * 16_000),
    ("x*y*z", "x" * 12_000),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    worst = 1.0
    print(f"{'pattern':<16} {'length':>7} {'estimate s':>11} {'actual s':>9} {'ratio':>6}")
    for pattern, text in CASES:
        ratios = []
        for _ in range(args.rounds):
            found = estimate(pattern, text, budget=0.5)
            start = time.perf_counter()
            re.search(pattern, text)
            took = time.perf_counter() - start
            if found is not None:
                ratios.append((found.seconds, took, found.seconds / took))
        if not ratios:
            print(f"{pattern:<16} {len(text):>7} {'-':>11} {'-':>9} {'none':>6}")
            continue
        seconds, took, ratio = sorted(ratios, key=lambda r: r[2])[len(ratios) // 2]
        worst = max(worst, ratio, 1 / ratio)
        print(f"{pattern:<16} {len(text):>7} {seconds:>11.2f} {took:>9.2f} {ratio:>6.2f}")
    print(f"worst factor (median round per pattern): {worst:.2f}x", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
