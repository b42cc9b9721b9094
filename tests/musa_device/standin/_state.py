"""The installed profile and the loaded C extension, shared by the package's modules."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .profiles import Profile

__all__ = ["C", "profile"]

C: ModuleType
profile: Profile
