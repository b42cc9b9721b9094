"""Build the real-project corpus three ways and write ``docs/real_projects.md`` from the run.

    python benchmarks/real_projects.py                                  # every project, both torches
    python benchmarks/real_projects.py --torch 2.7.1 --project torchsort-0.1.10   # one row
    python benchmarks/real_projects.py --project torchsort-0.1.10 --mode loopback  # builds, no record

For each project of ``tests/real/corpus.py`` and each torch it builds against: the stock build with the
real nvcc (the baseline), the same unchanged sdist through torchada in loopback, and the MUSA dry-run
for each of two architectures; a project whose stock build cannot succeed against that torch
(``Project.not_on``) builds stock only, so its row shows the error the reason names. Wall time is the ratio of the loopback build to the stock build, both
run here, one after the other, on the same machine. Needs the network (PyPI, Debian's packages) and nvcc.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "real"), str(REPO / "tests" / "build"), str(REPO / "tests")]

import corpus  # noqa: E402
from musa_standin import make_musa_standin  # noqa: E402

from torchada_build.core.diagnostics import RULES, Severity  # noqa: E402

DOC = REPO / "docs" / "real_projects.md"
RESULTS = REPO / "docs" / "real_projects.json"
"""Each project's latest run in every mode, from which :data:`DOC` is written."""


def measured_at() -> str:
    """The commit the builds run from, ``+changes`` when the tree differs from it but for the results."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()

    changed = [line for line in git("status", "--porcelain").splitlines() if not line.endswith((DOC.name, RESULTS.name))]
    return git("rev-parse", "--short=10", "HEAD") + ("+changes" if changed else "")


_BUILD_PATH = re.compile(r"\S*/(?:stock|loopback|musa-mp_\d+)/src/[^/\s]+/|\S*/site-packages/(?=torch/include/)")
"""Where a build unpacked its sdist, and a venv's site-packages before torch's headers."""


def _shown_error(error: str) -> str:
    """A build's first error as the doc shows it: paths relative to the sdist (or to torch's site-packages)."""
    return _BUILD_PATH.sub("", error)


def _row(project: corpus.Project, torch: corpus.Torch, results: dict[str, dict] | None) -> str:
    name = f"{project.name} {project.version}"
    if torch.version in project.not_on:
        return _stock_only_row(name, project, torch, (results or {}).get("stock"))
    if results is None or set(results) != set(corpus.MODES):
        return f"| {name} | {project.route} | not run yet |" + " |" * 8
    commit = results[corpus.MODES[0]].get("commit", "before 2026-12-07")
    stock, loopback, *musa = (corpus.BuildResult(**{k: v for k, v in results[m].items() if k != "commit"}) for m in corpus.MODES)
    findings = ", ".join(f"{k} ×{v}" for k, v in loopback.findings.items()) or "none"
    warps = " / ".join(str(m.findings.get("TA1201", 0)) for m in musa)
    ratio = f"{loopback.seconds / stock.seconds:.2f}×" if stock.ok and loopback.ok else "—"
    error = _shown_error(stock.first_error or loopback.first_error or next((m.first_error for m in musa if m.first_error), ""))
    error = error.replace("|", "\\|")
    refused = sorted({o for m in musa for o in m.refused_options})
    mcc = " / ".join(f"{m.mcc_units}" for m in musa) + f" of {stock.cuda_units}" + (f", refused: {'; '.join(refused)}" if refused else "")
    return (
        f"| {name} | {project.route} | {'builds' if stock.ok else 'fails'} ({stock.units} units, {stock.seconds:.0f} s) "
        f"| {'builds' if loopback.ok else 'fails'} ({loopback.units}/{stock.units} units) | {mcc} "
        f"| {max(m.host_units_needing_sdk for m in musa)} | {findings} | {warps} | {ratio} | {error[:160] or '—'} | {commit} |"
    )


def _stock_only_row(name: str, project: corpus.Project, torch: corpus.Torch, stock: dict | None) -> str:
    """The row of a project whose stock build cannot succeed against ``torch`` (``Project.not_on``): the
    reason, and what its latest stock build printed, which shows whether the reason still holds."""
    reason = f"{project.not_on[torch.version]} (not torchada's doing)"
    if stock is None:
        return f"| {name} | {project.route} | not built: {reason}; its stock build not run yet |" + " |" * 8
    if stock["returncode"] == 0:
        said = f"builds, though the corpus says it cannot ({reason}): the reason is out of date"
    else:
        said = f"not built: {reason}"
    error = _shown_error(stock["first_error"]).replace("|", "\\|")[:160] or "—"
    return f"| {name} | {project.route} | {said} |" + " |" * 6 + f" {error} | {stock.get('commit', 'before 2026-12-07')} |"


MANUAL_PORT = "TA1002"
"""The finding of code a human must port (a CUTLASS header with no MUTLASS counterpart, SM80's MMA atoms)."""


def _stops(project: corpus.Project, results: dict[str, dict] | None) -> str | None:
    """What stands between the project and a MUSA machine: where its mp_22 dry-run stopped, if it did, and
    that dry-run's error-severity findings (code mcc would not compile) and manual-port findings, each with
    its count and first place; None where it has not run."""
    dry_run = (results or {}).get(f"musa-{corpus.MUSA_ARCHES[0]}")
    if dry_run is None or "first_found" not in dry_run:
        return None
    stopping = [(i, n) for i, n in dry_run["findings"].items() if RULES[i].severity is Severity.ERROR or i == MANUAL_PORT]
    said = [f"  {i} ×{n}, {RULES[i].summary}; the first: `{dry_run['first_found'][i]}`" for i, n in stopping]
    if dry_run["returncode"] != 0:
        error = _shown_error(dry_run["first_error"]).replace("`", "'")
        said.insert(0, f"  its build stops there: `{error}`" + (" (see the notes)" if project.note else ""))
    if not said:
        return f"* **{project.key}**: nothing the translator can see."
    return "\n".join([f"* **{project.key}**:", *said])


def write_doc(recorded: dict[str, dict[str, dict[str, dict]]]) -> None:
    header = [
        "# Real projects through torchada",
        "",
        "Generated by `benchmarks/real_projects.py` from each project's latest run (`real_projects.json`); do not edit.",
        "",
        "    python benchmarks/real_projects.py [--torch 2.7.1] [--project NAME-VERSION]",
        "",
        "Each project is an unchanged PyPI sdist, pinned by version and sha256 in `tests/real/corpus.py`, built",
        f"for one CUDA architecture (`TORCH_CUDA_ARCH_LIST={corpus.CUDA_ARCH}`) against two CUDA builds of torch, on",
        "this machine's 2 cores, one build at a time:",
        "",
        "* **torch 2.7.1**, what torch_musa v2.7.1 is built on (a CUDA 12.6 build, whose headers accept C++17). Its",
        "  extension builder refuses an nvcc of another major version than 12, and this machine's nvcc is 13.0;",
        "  NVIDIA's CUDA 12 wheels on PyPI (`nvidia-cuda-nvcc-cu12`, 12.1 to 12.9) hold `ptxas`, the `crt`",
        "  headers and libdevice, not `nvcc` or `cicc`. The stock compiler is therefore NVIDIA's CUDA 12.4.1",
        "  as Debian packages NVIDIA's binaries (trixie non-free: `nvidia-cuda-toolkit`, `nvidia-cuda-dev`,",
        "  `libcudart12`) with NVIDIA's CCCL 12.4 wheel for cub and thrust, each pinned by sha256 and laid out",
        "  as NVIDIA's installer does (`tests/cuda_toolkits.py`). A CUDA 12.4 nvcc with torch built for 12.6",
        "  is a minor-version difference, which torch accepts with a warning.",
        "* **torch 2.14.1**, the newest here (a CUDA 13 build, whose headers need C++20), with this machine's",
        "  nvcc 13.0.",
        "",
        "Modes, each from its own unpacked copy:",
        "",
        "* **stock**: the project's own build with the real nvcc (the baseline); units are the objects it compiles.",
        "* **loopback**: the same build through torchada (translated sources compiled by the real nvcc).",
        f"* **mcc units**: the MUSA dry-run (stand-in SDK and torch_musa), once per MUSA architecture "
        f"({', '.join(corpus.MUSA_ARCHES)}):",
        "  CUDA units that reached an `mcc` command line, of the CUDA units of the stock build; *host units",
        "  needing the SDK* are host files whose translated copy includes MUSA headers, which only a real MUSA",
        "  SDK can compile. CMake projects are configured in loopback (CMake identifies its CUDA compiler by",
        "  compiling a program and reading it, which the stand-in mcc cannot give) and each CUDA compile",
        "  command CMake generated is run with `--dryrun`.",
        "* **findings**: distinct translator findings of the loopback build, by ID; **TA1201** the 32-lane warp",
        "  findings of each MUSA dry-run: mp_22's warps are 128 lanes wide, mp_31's 32, so they apply to mp_22 only.",
        "* **time**: loopback wall time over stock wall time.",
        "* A project whose stock build cannot succeed against one of the two torches (the reason in its row) is",
        "  built stock only against that torch, and its row gives the first error that build printed.",
        "* **commit**: the torchada commit the row was built from. Rows built before 2026-12-07 ran a stand-in",
        "  mcc whose dependency file named the source alone, so their MUSA dry-runs miss the findings of headers",
        "  only the compiler's own include search finds; the stand-in now writes what a preprocessor reads.",
    ]
    body: list[str] = []
    for torch in corpus.TORCHES:
        runs = recorded.get(torch.version, {})
        body += [
            "", f"## torch {torch.version}", "",
            f"| project | route | stock | loopback | mcc units ({' / '.join(corpus.MUSA_ARCHES)}) | host units needing the SDK "
            f"| findings | TA1201 ({' / '.join(corpus.MUSA_ARCHES)}) | time | first error | commit |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *(_row(p, torch, runs.get(p.key)) for p in corpus.CORPUS),
        ]  # fmt: skip
        pairs = [(r["stock"]["seconds"], r["loopback"]["seconds"]) for p in corpus.CORPUS if (r := runs.get(p.key))
                 and torch.version not in p.not_on and set(r) == set(corpus.MODES) and r["stock"]["returncode"] == 0
                 and r["loopback"]["returncode"] == 0]  # fmt: skip
        if pairs:
            stock, loopback = (sum(column) for column in zip(*pairs, strict=True))
            body += ["", f"In total, over the {len(pairs)} rows that build both ways: loopback {loopback:.0f} s, stock {stock:.0f} s "
                     f"({loopback / stock:.2f}×)."]  # fmt: skip
        stops = [line for p in corpus.CORPUS if torch.version not in p.not_on and (line := _stops(p, runs.get(p.key)))]
        if stops:
            body += ["", f"What stands between each build and a MUSA machine, from the {corpus.MUSA_ARCHES[0]} dry-run: the findings",
                     "of error severity (code mcc would not compile; the driver prints them as warnings and goes on) and",
                     f"{MANUAL_PORT} (code a human must port):", "", *stops]  # fmt: skip
    notes = [f"* **{p.key}** ({p.exercises}): {p.note}." for p in corpus.CORPUS if p.note]
    if notes:
        body += ["", "Notes:", "", *notes]
    tried = [f"* **{p.key}** ({p.route}; {p.exercises}): {p.note}." for p in corpus.STOCK_FAILS]
    body += ["", "Tried and left out of the tests, as their stock build cannot run here (not torchada's doing;",
             "`--project KEY` still builds them):", "", *tried]  # fmt: skip
    DOC.write_text("\n".join([*header, *body]) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", help="a corpus key (name-version); repeatable")
    parser.add_argument("--torch", action="append", choices=[t.version for t in corpus.TORCHES], help="repeatable; default: both")
    parser.add_argument("--mode", action="append", choices=corpus.MODES, help="repeatable; default: all")
    parser.add_argument("--work", type=Path, help="where builds go (default: a temporary folder)")
    parser.add_argument("--doc-only", action="store_true", help=f"rewrite {DOC.name} from {RESULTS.name}, build nothing")
    args = parser.parse_args(argv)
    keys = {p.key for p in corpus.CORPUS}
    recorded = {torch: {k: v for k, v in runs.items() if k in keys}  # a project since left out is dropped
                for torch, runs in (json.loads(RESULTS.read_text()) if RESULTS.exists() else {}).items()}  # fmt: skip
    if args.doc_only:
        write_doc(recorded)
        return 0
    projects = [corpus.by_key(k) for k in args.project] if args.project else list(corpus.CORPUS)
    torches = [t for t in corpus.TORCHES if not args.torch or t.version in args.torch]
    modes = args.mode or list(corpus.MODES)
    # A row comes from one run of every mode (the time ratio compares two of them); a partial run prints only.
    record = set(modes) == set(corpus.MODES)
    with tempfile.TemporaryDirectory(prefix="torchada-real-") as scratch:
        work = args.work or Path(scratch)
        shutil.rmtree(work / "musa-standin", ignore_errors=True)
        standin = make_musa_standin(work / "musa-standin")
        for torch in torches:
            for project in projects:
                # A project that cannot build against this torch builds stock only, to show the reason still holds.
                stock_only = torch.version in project.not_on
                if stock_only and "stock" not in modes:
                    continue
                commit = measured_at()
                results = corpus.run_project(project, work, torch, standin.home.parent, ["stock"] if stock_only else modes)
                for result in results.values():
                    print(json.dumps({"torch": torch.version, **result.to_json()}), flush=True)
                if record or stock_only:
                    recorded.setdefault(torch.version, {})[project.key] = {m: {**r.to_json(), "commit": commit} for m, r in results.items()}
                    RESULTS.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
                    write_doc(recorded)
    return 0


if __name__ == "__main__":
    sys.exit(main())
