"""One rank of the 2-process collective check: CUDA code as written for NCCL."""

from __future__ import annotations

import json
import sys

import torch
import torch.distributed as dist
import torchada  # noqa: F401

rank, world_size, address = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
torch.cuda.set_device(rank)
dist.init_process_group("nccl", init_method=f"tcp://{address}", rank=rank, world_size=world_size)
tensor = torch.full((4,), float(rank + 1)).cuda()
dist.all_reduce(tensor)
source = torch.arange(4.0).cuda() if rank == 0 else torch.zeros(4).cuda()
dist.broadcast(source, src=0)
gathered = [torch.zeros(1).cuda() for _ in range(world_size)]
dist.all_gather(gathered, torch.tensor([float(rank)]).cuda())
dist.barrier()
result = {
    "device": str(tensor.device),
    "all_reduce": tensor.cpu().tolist(),
    "broadcast": source.cpu().tolist(),
    "all_gather": [t.item() for t in gathered],
    "get_backend": str(dist.get_backend()),
    "is_nccl_available": dist.is_nccl_available(),
}
dist.destroy_process_group()
print(json.dumps(result))
