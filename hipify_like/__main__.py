"""``python -m hipify_like`` is ``torchada-port``."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
