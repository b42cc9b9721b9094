"""The tree port's processes: this one and forked ones take batches in turn; every result comes back
once, in order, and a failure anywhere is raised here with every forked process reaped."""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hipify_like.workers import MAX_BATCHES, WorkerDied, forked_workers, split
from torchada_build.core.errors import WriteError

PARENT = os.getpid()


def no_child_left() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def slow_square(n: int) -> tuple[int, int]:
    time.sleep(0.005)
    return n * n, os.getpid()


class Meeting:
    """Holds each process's first batch until ``parties`` processes have one, so that every process
    takes a batch however late the forked ones start on a busy machine."""

    def __init__(self, parties: int) -> None:
        self.barrier = multiprocessing.get_context("fork").Barrier(parties)
        self.met: set[int] = set()

    def __call__(self) -> None:
        if os.getpid() not in self.met:
            self.met.add(os.getpid())
            self.barrier.wait(timeout=120)


def run(work: object, batches: range, jobs: int) -> tuple[list[object], list[int]]:
    """The results, and the batch numbers ``done`` was called with."""
    done: list[int] = []
    with forked_workers(work, batches, jobs) as workers:  # type: ignore[arg-type]
        return workers.run(done.append), done


def test_each_batch_is_done_once_in_order_and_every_process_works() -> None:
    meet = Meeting(3)
    results, done = run(lambda n: (meet(), slow_square(n))[1], range(60), jobs=3)
    assert [square for square, _ in results] == [n * n for n in range(60)]
    assert sorted(done) == list(range(60)), "each batch is reported done once, whichever process did it"
    processes = {pid for _, pid in results}
    assert PARENT in processes and len(processes) == 3
    assert no_child_left()


def test_one_job_or_one_batch_forks_nothing() -> None:
    for jobs, batches in ((1, range(5)), (4, range(1))):
        results, _ = run(slow_square, batches, jobs)
        assert {pid for _, pid in results} == {PARENT}


def fail_in_a_child(meet: Meeting, n: int) -> int:
    meet()
    if os.getpid() != PARENT:
        raise WriteError(f"/out/{n}.cu", OSError(28, "No space left on device"))
    return n


def test_a_child_s_error_is_raised_here_as_it_was() -> None:
    with pytest.raises(WriteError, match=r"cannot write '/out/\d+\.cu': No space left on device") as raised:
        run(functools.partial(fail_in_a_child, Meeting(2)), range(20), jobs=2)
    assert "fail_in_a_child" in str(raised.value.__cause__), "the child's traceback is the cause"
    assert no_child_left()


class Unpicklable(Exception):
    def __init__(self, what: str, lock: object) -> None:
        super().__init__(what)
        self.lock = lock


def unpicklable_in_a_child(meet: Meeting, n: int) -> int:
    meet()
    if os.getpid() != PARENT:
        import threading

        raise Unpicklable("batch failed", threading.Lock())
    return n


def test_an_error_that_cannot_travel_comes_back_as_its_type_and_message() -> None:
    with pytest.raises(RuntimeError, match="^Unpicklable: batch failed$"):
        run(functools.partial(unpicklable_in_a_child, Meeting(2)), range(20), jobs=2)
    assert no_child_left()


def killed_in_a_child(meet: Meeting, n: int) -> int:
    meet()
    if os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_child_killed_by_a_signal_is_reported() -> None:
    with pytest.raises(WorkerDied, match="^a worker process was killed by SIGKILL before it sent its results; rerun with -j 1$"):
        run(functools.partial(killed_in_a_child, Meeting(2)), range(20), jobs=2)
    assert no_child_left()


def test_leaving_early_stops_the_children() -> None:
    with forked_workers(slow_square, range(200), jobs=3):
        pass
    assert no_child_left()


@pytest.mark.parametrize(("items", "jobs"), [(1684, 2), (1684, 1), (10, 8), (40, 2), (0, 2), (10**6, 2), (300_000, 64)])
def test_batches_shrink_to_the_end_bounded_in_size_and_number(items: int, jobs: int) -> None:
    batches = split(range(items), jobs, most=256)
    assert [i for batch in batches for i in batch] == list(range(items))
    assert len(batches) <= MAX_BATCHES
    sizes = [len(b) for b in batches]
    assert sizes == sorted(sizes, reverse=True), "large batches first, small ones last"
    assert all(size <= max(256, -(-items // MAX_BATCHES)) for size in sizes)
    if items >= 64 * jobs:  # the processes end within a small batch of each other
        assert sizes[-2] <= max(-(-items // (64 * jobs)), -(-items // MAX_BATCHES))


def test_a_tree_port_whose_output_cannot_be_written_says_so_in_one_line(tmp_path: Path) -> None:
    """A write failure in a forked process is the same one line, and status 2, as in one process."""
    root = tmp_path / "src"
    for i in range(40):
        (root / f"d{i % 4}").mkdir(parents=True, exist_ok=True)
        (root / f"d{i % 4}" / f"k{i}.cu").write_text("cudaStream_t s;\n")
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        out.mkdir()
        (out / "d3").write_text("a file where the port needs a directory\n")
        result = subprocess.run([sys.executable, "-m", "hipify_like", str(root), "--out-root", str(out), "-j", jobs],
                                capture_output=True, text=True, check=False, timeout=120)  # fmt: skip
        assert result.returncode == 2
        assert result.stderr.startswith(f"torchada-port: error: cannot write '{out / 'd3'}/k")
        assert len(result.stderr.splitlines()) == 1, result.stderr
