"""The memory API: torch.cuda's counters follow the device allocator."""

from __future__ import annotations

import torch


def test_allocated_and_reserved_follow_tensors(vendor):
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    x = torch.empty(1 << 20, dtype=torch.float32, device="cuda")
    assert torch.cuda.memory_allocated() - base == 4 << 20
    assert torch.cuda.memory_reserved() >= torch.cuda.memory_allocated()
    assert torch.cuda.max_memory_allocated() >= 4 << 20
    del x
    assert torch.cuda.memory_allocated() == base
    cached = torch.cuda.memory_reserved()
    torch.cuda.empty_cache()
    assert torch.cuda.memory_reserved() < cached
    assert torch.cuda.memory_cached() == torch.cuda.memory_reserved()


def test_stats_peaks_and_info(vendor):
    torch.cuda.reset_peak_memory_stats()
    x = torch.empty(1000, device="cuda")
    stats = torch.cuda.memory_stats()
    assert stats["allocated_bytes.all.current"] == torch.cuda.memory_allocated()
    assert stats["allocation.all.current"] >= 1
    assert torch.cuda.memory_stats_as_nested_dict()["allocated_bytes"]["all"]["peak"] >= 4000
    free, total = torch.cuda.mem_get_info()
    assert 0 < free <= total
    del x
    assert torch.cuda.max_memory_allocated() >= 4000
    torch.cuda.reset_peak_memory_stats()
    assert torch.cuda.max_memory_allocated() == torch.cuda.memory_allocated()


def test_memory_on_another_device(vendor):
    before = torch.cuda.memory_allocated(1)
    x = torch.ones(256, device="cuda:1")
    assert torch.cuda.memory_allocated("cuda:1") - before == 1024
    assert torch.cuda.memory_allocated(torch.device("cuda", 1)) == before + 1024
    del x


def test_out_of_memory_is_torch_out_of_memory_error(vendor):
    torch.cuda.set_per_process_memory_fraction(0.001)
    try:
        free, total = torch.cuda.mem_get_info()
        try:
            torch.empty(total // 4, dtype=torch.uint8, device="cuda")
        except torch.cuda.OutOfMemoryError as error:
            assert "out of memory" in str(error)
        else:
            raise AssertionError("allocating past the memory fraction succeeded")
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0)
