"""torch.distributed with backend "nccl": two processes, each on its own device."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

WORKER = Path(__file__).parent / "workers" / "allreduce.py"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_process_all_reduce(vendor):
    address = f"127.0.0.1:{_free_port()}"
    ranks = [
        subprocess.Popen([sys.executable, str(WORKER), str(rank), "2", address],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=vendor.env())
        for rank in range(2)
    ]
    outputs = [rank.communicate(timeout=120) for rank in ranks]
    for process, (_, err) in zip(ranks, outputs, strict=True):
        assert process.returncode == 0, err[-3000:]
    results = [json.loads(out.strip().splitlines()[-1]) for out, _ in outputs]
    for rank, result in enumerate(results):
        assert result["device"] == f"{vendor.device}:{rank}"
        assert result["all_reduce"] == [3.0] * 4
        assert result["broadcast"] == [0.0, 1.0, 2.0, 3.0]
        assert result["all_gather"] == [0.0, 1.0]
        assert result["get_backend"] == "nccl"
        assert result["is_nccl_available"] is True
