"""Empty-matcher benchmark (issue 17 item 3): ``formscript lint`` and ``--diff`` on scripts
full of ``when: {}`` against ``python -c "yaml.safe_load(...)"`` on the same file, whole
processes, alternating.

    python bench/empty_matchers.py                  # 100 and 400 entries, 5 rounds
    python bench/empty_matchers.py --entries 100 400 1600 --rounds 3

Before the fix each matcher's fix re-emitted the whole document through ruamel.yaml (100
entries: 36.5 s, 400 entries: 1,466 s on the loaded 2-core CI machine); the ratios here say
how far a lint with every fix built is from just loading the file.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOAD = "import sys, yaml; yaml.safe_load(open(sys.argv[1], encoding='utf-8'))"


def _script(entries: int) -> str:
    return "responses:\n" + "".join(f"  - type: text\n    content: r{i}\n    when: {{}}\n" for i in range(entries))


def _time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    """Print the median ratios for each size."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, nargs="+", default=[100, 400])
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as folder:
        for entries in options.entries:
            path = Path(folder) / f"s{entries}.script.yaml"
            path.write_text(_script(entries), encoding="utf-8")
            commands = {
                "lint": [py, "-m", "formscript", "lint", "--no-cache", "--exit-zero", str(path)],
                "diff": [py, "-m", "formscript", "lint", "--no-cache", "--exit-zero", "--diff", str(path)],
                "load": [py, "-c", LOAD, str(path)],
            }
            samples: dict[str, list[float]] = {name: [] for name in commands}
            for _ in range(options.rounds):
                for name, command in commands.items():
                    samples[name].append(_time(command))
            median = {name: statistics.median(values) for name, values in samples.items()}
            print(
                f"{entries} entries: lint {median['lint']:.2f} s ({median['lint'] / median['load']:.1f}x load), "
                f"--diff {median['diff']:.2f} s ({median['diff'] / median['load']:.1f}x load), "
                f"load {median['load']:.2f} s"
            )


if __name__ == "__main__":
    main()
