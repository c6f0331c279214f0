"""Whole-process benchmark: formscript lint against the runtime's own loading, libyaml's bare
parse, check-jsonschema and yamllint on the same corpora, alternating the commands.

Two corpora (bench/corpus.py): *clean* (valid forms and scripts of mixed shapes) and
*problems* (what people run a linter on: YAML 1.1 surprises, empty and misspelt matchers,
typos with did-you-mean answers, wrong types, syntax errors, CRLF, BOMs, a few bytes that
are not UTF-8, and other tools' YAML that is skipped). Every command runs as installed code
runs: from bytecode (a warm-up round writes it to a private ``PYTHONPYCACHEPREFIX``, as pip
does at install time), so no command pays for compiling its sources.

    python bench/run.py            # full: 1,000 files, 5 rounds; 10,000 for --jobs and the cache
    python bench/run.py --short    # CI: 300 files, 5 rounds; fails on a ratio regression

Each figure is the median of the rounds, in CPU time (user + system of the child process:
less sensitive than the wall clock to other work on a shared machine); wall-clock medians are
reported beside. Only ratios measured in the same run mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import write_corpus, write_problem_corpus  # noqa: E402

#: The targets (issue 14): the runtime's loading / formscript at least 5x; formscript within
#: 1.5x of libyaml's bare parse; a one-file lint within 2x of ``python -c "import yaml"``.
TARGETS = {"runtime_over_formscript": 5.0, "formscript_over_bare_parse": 1.5, "cold_start_over_import_yaml": 2.0}
#: What --check holds each ratio to. CPU time on a shared machine swings with its load (the
#: clean corpus's bare-parse ratio read 1.03x and 1.7x in two runs of the same code), so these
#: gates leave wide room over the figures in the README and catch only gross regressions...
GATES = {
    "clean.runtime_over_formscript": 3.5,
    "clean.formscript_over_bare_parse": 3.0,
    "problems.runtime_over_formscript": 1.5,
    "problems.formscript_over_bare_parse": 8.0,
    "clean_form_over_import_yaml": 4.0,
    "problem_script_over_import_yaml": 10.0,
}
#: ...and the instruction counts (``--instructions``), the same under any load, are held
#: tightly: the problems corpus to the 1.5x target itself (this code: 1.34x), the others
#: about 15% beyond this code's figures at 300 files (formscript 0.83x the bare parse on the
#: clean corpus; the runtime's loading 10.9x and 6.6x formscript's; the one-file runs, a
#: clean form and the largest problem script, 1.44x and 1.53x ``import yaml``).
INSTRUCTION_GATES = {
    "instructions.clean.formscript_over_bare_parse": 0.95,
    "instructions.problems.formscript_over_bare_parse": 1.5,
    "instructions.clean.runtime_over_formscript": 9.5,
    "instructions.problems.runtime_over_formscript": 5.7,
    "instructions.clean_form_over_import_yaml": 1.65,
    "instructions.problem_script_over_import_yaml": 1.75,
}

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
    try:
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    except Exception:
        pass
"""

#: The environment every command runs in (set by ``main``): bytecode in a private cache.
ENV: dict[str, str] = dict(os.environ)


def _time(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of *cmd*."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def _cpu(cmd: list[str]) -> float:
    return _time(cmd)[0]


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


def measure(cmds: dict[str, list[str]], rounds: int) -> tuple[dict[str, float], dict[str, float]]:
    """Median CPU and wall seconds of each command, alternating them every round (after one
    warm-up round that writes the bytecode)."""
    for cmd in cmds.values():
        _time(cmd)
    cpu: dict[str, list[float]] = {name: [] for name in cmds}
    wall: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(rounds):
        for name, cmd in cmds.items():
            spent, took = _time(cmd)
            cpu[name].append(spent)
            wall[name].append(took)
    return (
        {name: statistics.median(times) for name, times in cpu.items()},
        {name: statistics.median(times) for name, times in wall.items()},
    )


def corpus_run(corpus: Path, rounds: int) -> dict[str, object]:
    """formscript against the runtime and the bare parse (and the peers) on *corpus*."""
    cpu, wall = measure(commands(corpus), rounds)
    base = cpu["formscript"]
    return {
        "cpu_seconds": {k: round(v, 3) for k, v in cpu.items()},
        "wall_seconds": {k: round(v, 3) for k, v in wall.items()},
        "runtime_over_formscript": round(cpu["runtime"] / base, 2),
        "formscript_over_bare_parse": round(base / cpu["libyaml_bare_parse"], 2),
    }


def instructions(cmd: list[str]) -> int | None:
    """Instructions *cmd* executes, counted by valgrind's callgrind (None without valgrind):
    deterministic, so a second opinion beside CPU time on a machine shared with other work."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    done = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        env=ENV,
    )
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip().replace(",", ""))
    return None


def instruction_ratios(clean: Path, problems: Path, one: Path, one_problem: Path) -> dict[str, object]:
    """The ratios in instructions executed (one run each, after the bytecode is written); the
    one-file lints are those ``cold_start`` times (a clean form, the largest problem script)."""
    py = sys.executable
    counts: dict[str, int | None] = {}
    for name, corpus in (("clean", clean), ("problems", problems)):
        cmds = commands(corpus)
        for key in ("formscript", "libyaml_bare_parse", "runtime"):
            _time(cmds[key])  # bytecode first
            counts[f"{name}.{key}"] = instructions(cmds[key])
    for name, path in (("lint_clean_form", one), ("lint_problem_script", one_problem)):
        lint_one = [py, "-m", "formscript", "lint", "--no-cache", "--exit-zero", str(path)]
        _time(lint_one)
        counts[name] = instructions(lint_one)
    counts["python_import_yaml"] = instructions([py, "-c", "import yaml"])
    if any(v is None for v in counts.values()):
        return {"skipped": "valgrind is not installed"}
    got = {k: v for k, v in counts.items() if v is not None}
    return {
        "millions": {k: round(v / 1e6) for k, v in got.items()},
        "clean.runtime_over_formscript": round(got["clean.runtime"] / got["clean.formscript"], 2),
        "problems.runtime_over_formscript": round(got["problems.runtime"] / got["problems.formscript"], 2),
        "clean.formscript_over_bare_parse": round(got["clean.formscript"] / got["clean.libyaml_bare_parse"], 2),
        "problems.formscript_over_bare_parse": round(
            got["problems.formscript"] / got["problems.libyaml_bare_parse"], 2
        ),
        "clean_form_over_import_yaml": round(got["lint_clean_form"] / got["python_import_yaml"], 2),
        "problem_script_over_import_yaml": round(got["lint_problem_script"] / got["python_import_yaml"], 2),
    }


def cold_start(files: dict[str, Path], rounds: int) -> dict[str, object]:
    """A one-file lint (a clean form, a script with problems) against a bare ``import yaml``,
    all whole processes."""
    py = sys.executable
    cmds = {
        f"lint_{name}": [py, "-m", "formscript", "lint", "--no-cache", "--exit-zero", str(path)]
        for name, path in files.items()
    }
    cmds["python_import_yaml"] = [py, "-c", "import yaml"]
    cpu, wall = measure(cmds, rounds * 4)
    ratios = {f"{name}_over_import_yaml": round(cpu[f"lint_{name}"] / cpu["python_import_yaml"], 2) for name in files}
    return {
        "cpu_seconds": {k: round(v, 4) for k, v in cpu.items()},
        "wall_seconds": {k: round(v, 4) for k, v in wall.items()},
        **ratios,
    }


def scaling(root: Path, files: int, rounds: int) -> dict[str, float]:
    """--jobs 1 against --jobs 2 without the cache, then a first and a second cached run."""
    corpus = root / "scaling"
    write_corpus(corpus, files, seed=7)
    py = sys.executable
    base = [py, "-m", "formscript", "lint", "--format", "json", "--exit-zero"]
    samples: dict[str, list[float]] = {"jobs_1": [], "jobs_2": [], "cache_first": [], "cache_second": []}
    for number in range(rounds):
        # wall clock: --jobs spends more CPU to take less time
        samples["jobs_1"].append(_time([*base, "--no-cache", "--jobs", "1", str(corpus)])[1])
        samples["jobs_2"].append(_time([*base, "--no-cache", "--jobs", "2", str(corpus)])[1])
        cache = root / f"cache-{number}"
        samples["cache_first"].append(_time([*base, "--cache-dir", str(cache), str(corpus)])[1])
        samples["cache_second"].append(_time([*base, "--cache-dir", str(cache), str(corpus)])[1])
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
        one = statistics.median(_time([*base, "--jobs", "1", str(folder)])[1] for _ in range(3))
        two = statistics.median(_time([*base, "--jobs", "2", str(folder)])[1] for _ in range(3))
        points[str(size)] = {"jobs_1": round(one, 3), "jobs_2": round(two, 3), "jobs_2_speedup": round(one / two, 2)}
    return points


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when a ratio is beyond its gate (GATES, INSTRUCTION_GATES)"
    )
    parser.add_argument("--files", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--scale-files", type=int, help="files for the --jobs and cache runs")
    parser.add_argument("--no-curve", action="store_true", help="skip the 1..10,000-file curve")
    parser.add_argument("--no-scaling", action="store_true", help="skip the --jobs, cache and curve runs")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions with valgrind (deterministic; about a minute per 300 files)",
    )
    args = parser.parse_args()
    files = args.files or (300 if args.short else 1000)
    rounds = args.rounds or 5
    with tempfile.TemporaryDirectory() as tmp:
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "bytecode")
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        clean = Path(tmp) / "clean"
        write_corpus(clean, files)
        problems = Path(tmp) / "problems"
        write_problem_corpus(problems, files)
        report: dict[str, object] = {"files_per_corpus": files, "rounds": rounds}
        report["clean"] = corpus_run(clean, rounds)
        report["problems"] = corpus_run(problems, rounds)
        one_problem = max(problems.glob("*.script.yaml"), key=lambda p: (p.stat().st_size, p.name))
        report["cold_start"] = cold_start(
            {"clean_form": sorted(clean.glob("*.form.yaml"))[0], "problem_script": one_problem}, rounds
        )
        if args.instructions:
            report["instructions"] = instruction_ratios(
                clean, problems, sorted(clean.glob("*.form.yaml"))[0], one_problem
            )
        if not args.no_scaling:
            scale = scaling(Path(tmp), args.scale_files or (1000 if args.short else 10000), 1 if args.short else 2)
            report["scaling_seconds"] = {k: round(v, 3) for k, v in scale.items()}
            report["jobs_2_speedup"] = round(scale["jobs_1"] / scale["jobs_2"], 2)
            report["cache_speedup"] = round(scale["cache_first"] / scale["cache_second"], 2)
            if not args.short and not args.no_curve:
                report["scaling_curve"] = curve(Path(tmp), (1, 10, 100, 1000, 10000))
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    verdicts = _targets(report)
    report["targets"] = verdicts
    print(json.dumps(report, indent=2))
    failed = [f"{name} {v['value']} (gate {v['gate']})" for name, v in verdicts.items() if not v["gate_passed"]]
    counted = report.get("instructions")
    if args.instructions and isinstance(counted, dict) and "skipped" in counted:
        failed.append("instruction counts: valgrind is not installed (.ci/extras-valgrind.sh installs it)")
    if args.check and failed:
        print(f"regression: {'; '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _targets(report: dict[str, Any]) -> dict[str, dict[str, object]]:
    """Each ratio against its target (met or missed) and its regression gate."""
    found: dict[str, dict[str, object]] = {}
    for corpus in ("clean", "problems"):
        for name in ("runtime_over_formscript", "formscript_over_bare_parse"):
            found[f"{corpus}.{name}"] = _verdict(f"{corpus}.{name}", report[corpus][name], TARGETS[name])
    for name in ("clean_form_over_import_yaml", "problem_script_over_import_yaml"):
        found[name] = _verdict(name, report["cold_start"][name], TARGETS["cold_start_over_import_yaml"])
    counted = report.get("instructions", {})
    for gated in INSTRUCTION_GATES:
        name = gated.removeprefix("instructions.")
        if name in counted:
            kind = name.rsplit(".", 1)[-1]
            target = TARGETS["cold_start_over_import_yaml" if kind.endswith("import_yaml") else kind]
            found[gated] = _verdict(gated, counted[name], target)
    return found


def _verdict(name: str, value: float, target: float) -> dict[str, object]:
    """Higher is better for the runtime's ratio, lower for the others."""
    higher = name.endswith("runtime_over_formscript")
    met = value >= target if higher else value <= target
    gate = GATES[name] if name in GATES else INSTRUCTION_GATES[name]
    return {
        "value": value,
        "target": target,
        "met": met,
        "gate": gate,
        "gate_passed": value >= gate if higher else value <= gate,
    }


if __name__ == "__main__":
    raise SystemExit(main())
