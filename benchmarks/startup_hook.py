"""What torchada's start-up hook (``torchada.pth``, ``torchada_build/startup.py``) adds to every Python start.

torchada is installed into a scratch virtual environment as ``pip install .`` installs it (``torchada.pth``
beside the packages, bytecode compiled). Three interpreters of that environment are compared, in
alternation, each figure the best of N starts of ``python -c pass`` (other load only ever adds time):

* without the hook: ``torchada.pth`` moved away (the baseline);
* with the hook;
* with the hook and a torch_musa package installed (a MUSA machine; the hook looks for none at start-up).

It also prints the modules that start-up imports with the hook and not without (goal: torchada's own
two small ones, nothing else), and their import time from ``-X importtime``. Goal: under 1 ms added.

Usage: ``python benchmarks/startup_hook.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import source_copy

MODULES = "import sys, json; print(json.dumps(sorted(sys.modules)))"


def _environment(scratch: Path) -> tuple[Path, Path]:
    """A venv with torchada installed as ``pip install .`` does; its interpreter and site-packages."""
    source = source_copy(scratch)
    venv = scratch / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())  # fmt: skip
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(site), str(source)], check=True, cwd=scratch)  # fmt: skip
    subprocess.run([str(python), "-m", "compileall", "-q", str(site)], check=True)
    return python, site


def _best_start(python: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([str(python), "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def _modules(python: Path) -> set[str]:
    done = subprocess.run([str(python), "-c", MODULES], check=True, capture_output=True, text=True)
    return set(json.loads(done.stdout))


def _import_microseconds(python: Path, modules: set[str]) -> int:
    """The hook's modules' own import time, summed from ``-X importtime`` (``self [us] | cumulative | name``)."""
    done = subprocess.run([str(python), "-X", "importtime", "-c", "pass"], check=True, capture_output=True, text=True)
    total = 0
    for line in done.stderr.splitlines():
        fields = [f.strip() for f in line.removeprefix("import time:").split("|")]
        if len(fields) == 3 and fields[2] in modules:
            total += int(fields[0])
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=100, help="starts per interpreter and round (best is kept)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="torchada-startup-") as scratch:
        python, site = _environment(Path(scratch))
        pth, parked = site / "torchada.pth", Path(scratch) / "torchada.pth"
        musa = site / "torch_musa"
        with_hook = _modules(python)
        shutil.move(pth, parked)
        without = _modules(python)
        added = sorted(with_hook - without)
        best = {"without the hook": float("inf"), "with the hook": float("inf"), "with the hook, torch_musa": float("inf")}
        for _ in range(3):  # alternate, so that drifting machine load falls on all three alike
            best["without the hook"] = min(best["without the hook"], _best_start(python, options.repeat))
            shutil.move(parked, pth)
            best["with the hook"] = min(best["with the hook"], _best_start(python, options.repeat))
            musa.mkdir()
            (musa / "__init__.py").write_text("")
            best["with the hook, torch_musa"] = min(best["with the hook, torch_musa"], _best_start(python, options.repeat))
            shutil.rmtree(musa)
            shutil.move(pth, parked)
        shutil.move(parked, pth)
        hook_us = _import_microseconds(python, set(added))
    base = best["without the hook"]
    print(f"python -c pass, best of {3 * options.repeat} starts each (Python {sys.version.split()[0]}):")
    for name, seconds in best.items():
        print(f"  {name:28} {seconds * 1e3:7.2f} ms  {seconds / base:5.3f}x  (+{(seconds - base) * 1e3:.2f} ms)")
    print(f"modules imported with the hook, not without: {', '.join(added) or 'none'}")
    print(f"their own import time (-X importtime): {hook_us} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
