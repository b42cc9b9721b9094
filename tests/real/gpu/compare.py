"""`compare.py STOCK.pt LOOPBACK.pt [KEY ...]`: every result of the loopback build equals the stock build's, bit for
bit; a KEY named (a result summed with float atomicAdd, whose order varies from run to run) within eight units in the
last place of its type at its largest value."""
import sys

import torch

stock, loopback = torch.load(sys.argv[1]), torch.load(sys.argv[2])
nondeterministic = set(sys.argv[3:])
assert stock.keys() == loopback.keys()
different = []
for key in stock:
    a, b = stock[key], loopback[key]
    a, b = (list(a) if isinstance(a, (list, tuple)) else [a]), (list(b) if isinstance(b, (list, tuple)) else [b])
    pairs = list(zip(a, b, strict=True))
    same = all(torch.equal(x, y) for x, y in pairs)
    worst = max((x.double() - y.double()).abs().max().item() for x, y in pairs)
    close = all(torch.allclose(x.double(), y.double(), rtol=0, atol=8 * torch.finfo(x.dtype).eps * x.abs().max().item())
                for x, y in pairs)
    if same:
        print(f"  {key}: identical")
    elif key in nondeterministic and close:
        print(f"  {key}: within 8 ulps (max abs {worst:.3e}; float atomics: the order varies from run to run)")
    else:
        print(f"  {key}: DIFFERENT (max abs {worst:.3e})")
        different.append(key)
print(f"{sys.argv[1]} vs {sys.argv[2]}: {len(stock) - len(different)}/{len(stock)} agree")
sys.exit(1 if different else 0)
