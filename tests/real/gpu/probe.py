"""One build's CUDA ops on fixed inputs, the results saved: ``probe.py torchsort|fused_adam|rwkv BUILD_DIR OUT.pt``."""
import importlib.util
import sys
from pathlib import Path

import torch

kind, build, out = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
device = torch.device("cuda")
results = {}
if kind == "torchsort":
    sys.path.insert(0, str(build))
    import torchsort
    import torchsort.isotonic_cuda  # the CUDA extension itself must load (ops.py would fall back silently)

    assert Path(torchsort.isotonic_cuda.__file__).is_relative_to(build), torchsort.isotonic_cuda.__file__
    gen = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        x = torch.randn(64, 257, generator=gen, dtype=dtype).to(device).requires_grad_()
        for name, op in (("rank", torchsort.soft_rank), ("sort", torchsort.soft_sort)):
            for reg in ("l2", "kl"):
                y = op(x, regularization=reg, regularization_strength=0.5)
                (grad,) = torch.autograd.grad((y * y).sum(), x)
                results[f"{name}-{reg}-{dtype}"] = (y.detach().cpu(), grad.cpu())
elif kind == "rwkv":  # its JIT op library (cuBLAS GEMM, int8 matmuls, WKV) is compiled by load() at import
    import os

    os.environ.update(RWKV_CUDA_ON="1", RWKV_JIT_ON="0")
    sys.path.insert(0, str(build / "src"))
    import rwkv.model as model

    assert not model.DISABLE_CUBLAS_GEMM, "the cuBLAS GEMM did not build"
    gen = torch.Generator().manual_seed(0)
    a, b = (torch.randn(shape, generator=gen).half().to(device) for shape in ((64, 1024), (1024, 2048)))
    for dtype in (torch.float16, torch.float32):
        c = model.matmul_float(a, b, dtype)
        error = (c.float() - a.float() @ b.float()).abs().max().item()
        print(f"rwkv gemm_fp16_cublas -> {dtype}: max abs difference to torch {error:.2e}")
        results[f"gemm-{dtype}"] = c.cpu()
    n, m = 512, 768
    w = torch.randint(0, 256, (n, m), generator=gen, dtype=torch.uint8).to(device)
    for dtype in (torch.float16, torch.float32):
        mx, rx = (torch.rand(m, generator=gen).to(device, dtype) * 0.01 for _ in range(2))
        my, ry = (torch.rand(n, 1, generator=gen).to(device, dtype) * 0.01 for _ in range(2))
        x = torch.randn(16, n, generator=gen).to(device, dtype)
        results[f"mm8_seq-{dtype}"] = model.cuda_mm8_seq(16, n, m, x, w, mx, rx, my, ry).cpu()
        results[f"mm8_one-{dtype}"] = model.cuda_mm8_one(n, m, x[0], w, mx, rx, my, ry).cpu()
        error = (results[f"mm8_seq-{dtype}"].float() - model.torch_mm8_seq(x, w, mx, rx, my, ry).float().cpu()).abs().max()
        print(f"rwkv mm8_seq {dtype}: max abs difference to torch {error.item():.2e}")
    t, c = 32, 256
    w_, u = (torch.randn(c, generator=gen).to(device) for _ in range(2))
    k, v = (torch.randn(t, c, generator=gen).to(device) for _ in range(2))
    state = [torch.zeros(c, device=device), torch.zeros(c, device=device), torch.full((c,), -1e38, device=device)]
    y, *state = model.cuda_wkv(t, c, w_, u, k, v, *state)
    results["wkv"] = [y.cpu(), *(s.cpu() for s in state)]
else:
    (library,) = build.glob("deepspeed/ops/adam/fused_adam_op*.so")
    spec = importlib.util.spec_from_file_location("fused_adam_op", library)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    gen = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        params = [torch.randn(n, generator=gen).to(device, dtype) for n in (1000, 4097, 65536 + 3)]
        moments = [torch.zeros_like(p, dtype=torch.float32 if dtype is torch.float32 else dtype) for p in params]
        squares = [torch.zeros_like(m) for m in moments]
        reference = [p.float().clone().requires_grad_() for p in params]
        adamw = torch.optim.AdamW(reference, lr=1e-2, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
        noop = torch.zeros(1, dtype=torch.int, device=device)
        for step in range(1, 6):
            grads = [torch.randn(p.shape, generator=gen).to(device, dtype) for p in params]
            module.multi_tensor_adam(2048 * 32, noop, [grads, params, moments, squares], 1e-2, 0.9, 0.999, 1e-8,
                                     step, 1, 1, 0.01)
            for r, g in zip(reference, grads, strict=True):
                r.grad = g.float()
            adamw.step()
        results[f"adam-{dtype}"] = [p.cpu() for p in params]
        if dtype is torch.float32:
            error = max((p - r.detach()).abs().max().item() for p, r in zip(params, reference, strict=True))
            print(f"fused_adam fp32 vs torch.optim.AdamW after 5 steps: max abs difference {error:.2e}")
            assert error < 1e-5, error
torch.save(results, out)
print(f"{kind} {build.name}: {len(results)} results saved")
