"""tests/runtime: torchada's redirects, run for real on the test device (tests/musa_device).

``on_device/`` holds the behavioural suite. It needs a process of its own per vendor (PyTorch
renames PrivateUse1 once per process), so the main session does not collect it;
``test_device_suite.py`` runs it in a subprocess per vendor. Run it directly with::

    TORCHADA_TEST_VENDOR=musa python -m pytest tests/runtime/on_device
"""

from __future__ import annotations

import os

collect_ignore = [] if os.environ.get("TORCHADA_TEST_VENDOR") else ["on_device"]
