"""Whole-process benchmark: formscript lint against the runtime's own loading, libyaml's bare
parse, check-jsonschema and yamllint on the same corpus, alternating the commands.

    python bench/run.py            # full: 1,000 files, 5 rounds; 10,000 for --jobs and the cache
    python bench/run.py --short    # CI: 200 files, 3 rounds; 1,000; fails on a ratio regression

Only ratios measured in the same run are reported; absolute times on shared machines vary.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import write_corpus  # noqa: E402

#: The short CI run fails when formscript is not at least this much faster than the runtime.
FLOOR = 1.3

RUNTIME = r"""
import sys
from pathlib import Path
from lionagi.cli.agent import _build_work_form, _load_form_spec
from lionagi.testing._script import ScriptModel
for path in Path(sys.argv[1]).iterdir():
    name = path.name
    try:
        if ".form." in name:
            _build_work_form(_load_form_spec(str(path)), str(path))
        elif ".script." in name:
            ScriptModel.coerce(str(path))
    except Exception:
        pass
"""

BARE = r"""
import sys
from pathlib import Path
import yaml
for path in Path(sys.argv[1]).iterdir():
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""


def _time(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def commands(corpus: Path) -> dict[str, list[str]]:
    py = sys.executable
    found = {
        "formscript": [py, "-m", "formscript", "lint", "--no-cache", "--format", "json", "--exit-zero", str(corpus)],
        "runtime": [py, "-c", RUNTIME, str(corpus)],
        "libyaml_bare_parse": [py, "-c", BARE, str(corpus)],
    }
    bindir = Path(py).parent
    cj = bindir / "check-jsonschema"
    if cj.exists():
        files = sorted(str(p) for p in corpus.glob("*.script.yaml"))
        found["check_jsonschema_scripts"] = [
            str(cj),
            "--schemafile",
            str(ROOT / "schemas" / "script.schema.json"),
            *files,
        ]
    yl = bindir / "yamllint"
    if yl.exists() or shutil.which("yamllint"):
        found["yamllint"] = [str(yl) if yl.exists() else "yamllint", "-d", "relaxed", str(corpus)]
    return found


def measure(corpus: Path, rounds: int) -> dict[str, float]:
    cmds = commands(corpus)
    samples: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(rounds):
        for name, cmd in cmds.items():  # alternate the commands every round
            samples[name].append(_time(cmd))
    return {name: statistics.median(times) for name, times in samples.items()}


def cold_start(corpus: Path, rounds: int) -> dict[str, float]:
    """One-file lint against a bare ``import yaml`` (both whole processes)."""
    one = str(sorted(corpus.glob("*.form.yaml"))[0])
    py = sys.executable
    cmds = {
        "lint_one_file": [py, "-m", "formscript", "lint", "--no-cache", "--exit-zero", one],
        "python_import_yaml": [py, "-c", "import yaml"],
    }
    samples: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(rounds * 4):
        for name, cmd in cmds.items():
            samples[name].append(_time(cmd))
    return {name: statistics.median(times) for name, times in samples.items()}


def scaling(root: Path, files: int, rounds: int) -> dict[str, float]:
    """--jobs 1 against --jobs 2 without the cache, then a first and a second cached run."""
    corpus = root / "scaling"
    write_corpus(corpus, files, seed=7)
    py = sys.executable
    base = [py, "-m", "formscript", "lint", "--format", "json", "--exit-zero"]
    samples: dict[str, list[float]] = {"jobs_1": [], "jobs_2": [], "cache_first": [], "cache_second": []}
    for number in range(rounds):
        samples["jobs_1"].append(_time([*base, "--no-cache", "--jobs", "1", str(corpus)]))
        samples["jobs_2"].append(_time([*base, "--no-cache", "--jobs", "2", str(corpus)]))
        cache = root / f"cache-{number}"
        samples["cache_first"].append(_time([*base, "--cache-dir", str(cache), str(corpus)]))
        samples["cache_second"].append(_time([*base, "--cache-dir", str(cache), str(corpus)]))
    return {name: statistics.median(times) for name, times in samples.items()}


def curve(root: Path, sizes: tuple[int, ...]) -> dict[str, dict[str, float]]:
    """Whole-process lint time from 1 file up, with --jobs 1 and --jobs 2 (no cache)."""
    big = root / "curve"
    write_corpus(big, max(sizes), seed=11)
    names = sorted(p.name for p in big.iterdir())
    py = sys.executable
    base = [py, "-m", "formscript", "lint", "--no-cache", "--format", "json", "--exit-zero"]
    points: dict[str, dict[str, float]] = {}
    for size in sizes:
        folder = root / f"curve-{size}"
        folder.mkdir()
        for name in names[:size]:
            (folder / name).symlink_to(big / name)
        one = statistics.median(_time([*base, "--jobs", "1", str(folder)]) for _ in range(3))
        two = statistics.median(_time([*base, "--jobs", "2", str(folder)]) for _ in range(3))
        points[str(size)] = {"jobs_1": round(one, 3), "jobs_2": round(two, 3), "jobs_2_speedup": round(one / two, 2)}
    return points


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--files", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--scale-files", type=int, help="files for the --jobs and cache runs")
    parser.add_argument("--no-curve", action="store_true", help="skip the 1..10,000-file curve")
    args = parser.parse_args()
    files = args.files or (200 if args.short else 1000)
    rounds = args.rounds or (3 if args.short else 5)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        write_corpus(corpus, files)
        medians = measure(corpus, rounds)
        cold = cold_start(corpus, rounds)
        scale = scaling(Path(tmp), args.scale_files or (1000 if args.short else 10000), 1 if args.short else 2)
        sizes = (1, 10, 100, 1000) if args.short else (1, 10, 100, 1000, 10000)
        points = {} if args.no_curve else curve(Path(tmp), sizes)
    base = medians["formscript"]
    report = {
        "files": files,
        "rounds": rounds,
        "median_seconds": {k: round(v, 3) for k, v in medians.items()},
        "runtime_over_formscript": round(medians["runtime"] / base, 2),
        "formscript_over_bare_parse": round(base / medians["libyaml_bare_parse"], 2),
        "cold_start_seconds": {k: round(v, 3) for k, v in cold.items()},
        "cold_start_over_import_yaml": round(cold["lint_one_file"] / cold["python_import_yaml"], 2),
        "scaling_seconds": {k: round(v, 3) for k, v in scale.items()},
        "jobs_2_speedup": round(scale["jobs_1"] / scale["jobs_2"], 2),
        "scaling_curve": points,
        "cache_speedup": round(scale["cache_first"] / scale["cache_second"], 2),
    }
    print(json.dumps(report, indent=2))
    # Regression guard, loose enough for a noisy shared machine: formscript must stay
    # clearly faster than the runtime's own loading of the same files.
    if args.short and report["runtime_over_formscript"] < FLOOR:
        print(f"regression: formscript lint is no longer {FLOOR}x faster than the runtime", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
