"""Import shim: ``import torch_musa`` installs the torchada test device with the musa profile.

Only on ``sys.path`` in test processes (see tests/musa_device/README.md); not a product.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from standin import install  # noqa: E402

install("musa", sys.modules[__name__])
del sys, Path, install  # the vendor module holds only the vendor's names
