"""The corpus tests use the MUSA stand-in of the build tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1] / "build"))
