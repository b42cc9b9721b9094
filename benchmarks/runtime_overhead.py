"""Per-call cost of redirected calls: this torchada, PyPI's torchada 0.1.103, and the vendor's own.

Each implementation runs in its own process on the musa test device (PyPI's from its own venv,
see runtime_pypi.py); the ``native`` column is the same work spelled for MUSA directly
(``torch.musa.device_count()``, ``torch.device("musa")``, ``x.musa()``), measured in our process.
``tensor.cuda()`` is measured on a tensor already on the device, so it is the redirect's cost.

Usage: ``python benchmarks/runtime_overhead.py``. Prints ns per call and ours/torchada. On torch
2.7.1 (what torch_musa v2.7.1 is built on): ``"$(python tests/torch_venvs.py)/bin/python"
benchmarks/runtime_overhead.py``. Where PyPI's torchada cannot start, its column says why.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from runtime_pypi import PYPI_VERSION, ROOT, device_env, pypi_python

MEASURE = textwrap.dedent("""
    import json, sys, timeit, warnings
    warnings.simplefilter("ignore")
    import torch, torchada
    x = torch.ones(4).cuda()
    rows = {
        "torch.cuda.device_count()": ("torch.cuda.device_count()", "torch.musa.device_count()"),
        "torch.cuda.Stream (attribute)": ("torch.cuda.Stream", "torch.musa.Stream"),
        "torch.device('cuda')": ("torch.device('cuda')", "torch._C.device('musa')"),
        "tensor.cuda()": ("x.cuda()", "x.musa()"),
    }
    def per_call(statement):  # the best of 10 runs of ~0.2 s: the least disturbed one
        timer = timeit.Timer(statement, globals={"torch": torch, "x": x})
        number, _ = timer.autorange()
        return min(timer.repeat(10, number)) / number * 1e9
    for cuda, musa in rows.values():  # warm: first uses resolve and cache
        eval(cuda, {"torch": torch, "x": x}); eval(musa, {"torch": torch, "x": x})
    best = {name: [float("inf"), float("inf")] for name in rows}
    for _ in range(3):  # rounds interleave the statements, so a slow spell hits all of them
        for name, statements in rows.items():
            best[name] = [min(old, per_call(s)) for old, s in zip(best[name], statements)]
    print(json.dumps(best))
""")


class MeasureError(RuntimeError):
    """The measuring process failed; the message is its last line of error output."""


def measure(python: str) -> dict[str, list[float]]:
    done = subprocess.run([python, "-c", MEASURE], cwd=ROOT, env=device_env("musa"),
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["(no output)"]
        raise MeasureError(lines[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    import torch

    ours = measure(sys.executable)
    try:
        theirs: dict[str, list[float]] | None = measure(str(pypi_python()))
    except MeasureError as error:
        theirs, failure = None, str(error)
    print(f"torch {torch.__version__}")
    print(f"{'call':<32}{'native ns':>11}{'ours ns':>10}{'torchada ns':>13}{'ours/torchada':>15}")
    for name, (cuda, native) in ours.items():
        other = f"{theirs[name][0]:>13.0f}{cuda / theirs[name][0]:>15.2f}" if theirs else f"{'-':>13}{'-':>15}"
        print(f"{name:<32}{native:>11.0f}{cuda:>10.0f}{other}")
    print(f"(torchada {PYPI_VERSION} from PyPI; native = the MUSA spelling in our process)")
    if theirs is None:
        print(f"torchada {PYPI_VERSION} does not start on this torch: {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
