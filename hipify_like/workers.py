"""A tree's batches over this process and forked ones: each process takes the next batch number as it
becomes free, and this one works too.

The batch numbers are written to one pipe before any process forks, so taking one is a single
``read`` and the queue needs no lock or thread. A forked process sends each batch's result as it
finishes it (``pickle``, after a 12-byte ``=iQ`` header: batch number, payload length) on its own
pipe, enlarged to hold them all, and this process reads them between its own batches: the pickling
and unpickling are spread over the run instead of waiting at its end, and a forked process seldom
waits on a full pipe. One that fails sends its exception instead; one that dies (a signal, the OOM
killer) is reported; leaving the block stops the others. Nothing here starts a thread, so the
processes fork from a process that has none; ``pickle`` and ``traceback`` are imported only where
processes were forked (a ``-j 1`` port's start-up is short).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar

from torchada_build.core.errors import TorchadaError

__all__ = ["MAX_BATCHES", "Workers", "WorkerDied", "forked_workers", "split"]

Item = TypeVar("Item")
Batch = TypeVar("Batch")
Result = TypeVar("Result")

MAX_BATCHES = 1024
"""Batch numbers are 4 bytes each, all written before any process reads: 4 KiB, the capacity of the
smallest pipe Linux makes."""
SMALLEST_SHARE = 64
"""The smallest batch is this share of a process's part: the processes end within it of each other."""
_NUMBER = struct.Struct("=I")
_HEADER = struct.Struct("=iQ")
_END = -1
_FAILED = -2
_PIPE_BYTES = 1 << 20
"""What a forked process's pipe is enlarged to (the most Linux allows without privileges): a tree's
results fit, so its sender rarely waits for this process to read."""


class WorkerDied(TorchadaError):
    """A forked process ended without sending its results (killed by a signal, or out of memory)."""


class _ChildTraceback(Exception):
    """Where a forked process raised: the cause of the exception it sent, so both are printed."""

    def __str__(self) -> str:
        return f"\n{self.args[0]}"


def split(items: Sequence[Item], jobs: int, most: int) -> list[Sequence[Item]]:
    """``items`` in batches for ``jobs`` processes: each batch a share of what is left (guided
    scheduling: large batches first, so few libclang calls; small ones last, so the processes end
    together), at most ``most`` items (memory), and at most :data:`MAX_BATCHES` batches."""
    fewest = -(-len(items) // MAX_BATCHES)
    least = -(-len(items) // (SMALLEST_SHARE * jobs))
    batches = []
    start = 0
    while start < len(items):
        size = max(1, fewest, min(most, max(least, -(-(len(items) - start) // (2 * jobs)))))
        batches.append(items[start : start + size])
        start += size
    return batches


class Workers(Generic[Batch, Result]):
    """This process's side: its share of the batches, and what the forked processes send."""

    def __init__(self, work: Callable[[Batch], Result], batches: Sequence[Batch], numbers: int) -> None:
        self.work = work
        self.batches = batches
        self.numbers = numbers
        self.children: dict[int, int] = {}
        """The read end of each forked process's pipe → its pid, until it has sent its results."""

    def run(self, done: Callable[[int], None]) -> list[Result]:
        """Work until no batch is left, calling ``done`` with each batch number any process finishes;
        then collect the other processes' results. The results, in batch order."""
        results: dict[int, Result] = {}
        poll = select.poll()
        for read_end in self.children:
            poll.register(read_end, select.POLLIN)
        while (number := _next_number(self.numbers)) is not None:
            results[number] = self.work(self.batches[number])
            done(number)
            self._receive(poll, done, results, timeout=0)
        while self.children:
            self._receive(poll, done, results, timeout=None)
        return [results[number] for number in range(len(self.batches))]

    def _receive(self, poll: select.poll, done: Callable[[int], None], results: dict[int, Result],
                 timeout: int | None) -> None:  # fmt: skip
        """Read what the forked processes have sent (waiting for something unless ``timeout`` is 0)."""
        for read_end, _ in poll.poll(timeout):
            number, length = _HEADER.unpack(self._read(poll, read_end, _HEADER.size))
            if number == _END:
                self._forget(poll, read_end)
                continue
            import pickle

            payload = pickle.loads(self._read(poll, read_end, length))
            if number == _FAILED:
                error, where = payload
                raise error from _ChildTraceback(where)
            results[number] = payload
            done(number)

    def _read(self, poll: select.poll, read_end: int, size: int) -> bytes:
        """``size`` bytes from a forked process's pipe, which it must not close first."""
        chunks: list[bytes] = []
        while size:
            chunk = os.read(read_end, min(size, 1 << 20))
            if not chunk:
                status = self._forget(poll, read_end)
                raise WorkerDied(f"a worker process {_ended(status)} before it sent its results; rerun with -j 1")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def _forget(self, poll: select.poll, read_end: int) -> int:
        """Stop reading a forked process that has ended; its wait status."""
        poll.unregister(read_end)
        os.close(read_end)
        return os.waitpid(self.children.pop(read_end), 0)[1]


@contextlib.contextmanager
def forked_workers(work: Callable[[Batch], Result], batches: Sequence[Batch], jobs: int) -> Iterator[Workers[Batch, Result]]:  # fmt: skip
    """Fork ``jobs - 1`` processes (fewer with few batches) that take ``batches`` in turn with this one
    (:meth:`Workers.run`). Leaving the block stops the forked processes."""
    if len(batches) > MAX_BATCHES:
        raise ValueError(f"{len(batches)} batches: at most {MAX_BATCHES}")
    numbers, write_end = os.pipe()
    os.write(write_end, b"".join(_NUMBER.pack(n) for n in range(len(batches))))
    os.close(write_end)
    workers = Workers(work, batches, numbers)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        for _ in range(min(jobs, len(batches)) - 1):
            read_end, write_end = os.pipe()
            with contextlib.suppress(AttributeError, OSError):  # not Linux, or a lower limit: it waits more
                fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
            pid = os.fork()
            if pid == 0:
                for fd in (read_end, *workers.children):  # only this process reads them: a write to a
                    os.close(fd)  # pipe it no longer reads fails at once
                _work_in_child(work, batches, numbers, write_end)
            os.close(write_end)
            workers.children[read_end] = pid
        yield workers
    finally:
        os.close(numbers)
        for read_end, pid in workers.children.items():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            os.close(read_end)
            os.waitpid(pid, 0)


def _next_number(numbers: int) -> int | None:
    data = os.read(numbers, _NUMBER.size)
    return _NUMBER.unpack(data)[0] if data else None


def _ended(status: int) -> str:
    """How a process ended, from its wait status."""
    if os.WIFSIGNALED(status):
        return f"was killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def _send(fd: int, number: int, payload: bytes = b"") -> None:
    view = memoryview(_HEADER.pack(number, len(payload)) + payload)
    while view:
        view = view[os.write(fd, view) :]


def _work_in_child(work: Callable[[Batch], Result], batches: Sequence[Batch], numbers: int, pipe: int) -> None:
    """A forked process's life: take batches until none is left, send each one's result, then the end;
    exit (never returns, and runs no exit handler of the process it was forked from)."""
    import pickle

    status = 0
    try:
        while (number := _next_number(numbers)) is not None:
            _send(pipe, number, pickle.dumps(work(batches[number]), pickle.HIGHEST_PROTOCOL))
        _send(pipe, _END)
    except BaseException as error:  # sent to the parent, which raises it
        import traceback

        status = 1
        where = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        with contextlib.suppress(BaseException):
            _send(pipe, _FAILED, pickle.dumps((_portable(error), where), pickle.HIGHEST_PROTOCOL))
    finally:
        os._exit(status)


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else a :class:`RuntimeError` with its type and message."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # whatever pickling it raises
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error
