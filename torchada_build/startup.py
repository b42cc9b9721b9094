"""The start-up hook: ``torchada.pth``, installed beside torchada, runs :func:`arm` in every Python of the
environment, so that ``pip install``, ``pip wheel`` and ``uv pip install`` of an unchanged project build it for
MUSA without a ``python -m torchada_build`` or an ``import torchada`` in its ``setup.py``.

:func:`arm` reads one variable and puts one finder on ``sys.meta_path`` (:func:`when_imported`); it imports
nothing the interpreter had not (not even ``__future__``: this module's annotations are strings), and
``benchmarks/startup_hook.py`` measures it. When a process imports ``torch.utils.cpp_extension`` or
scikit-build-core's build backend, :mod:`.activation` decides what to do: on a MUSA machine (torch_musa
installed, or ``TORCHADA_BACKEND`` set) it installs the seam or points CMake at torchada's toolchain file;
elsewhere nothing changes. ``TORCHADA_HOOK=0`` turns it off.

:func:`when_imported` is also how ``import torchada`` waits for modules a program may never import
(Inductor, Triton, ``torch.utils.cpp_extension``).
"""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; the types are for mypy alone
    from collections.abc import Callable, Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

    Action = Callable[[ModuleType], None]

__all__ = ["OFF_VARIABLE", "WATCHED", "arm", "when_imported"]

OFF_VARIABLE = "TORCHADA_HOOK"
"""``TORCHADA_HOOK=0``: the hook does nothing, in every process that inherits it."""

WATCHED = ("torch.utils.cpp_extension", "scikit_build_core.build")
"""The modules whose import makes the hook act: torch's extension builder, scikit-build-core's PEP 517 backend."""

_armed: "list[str | None]" = []


def arm(sitedir: "str | None") -> None:
    """Wait for the modules of :data:`WATCHED`; ``sitedir`` is the site folder holding ``torchada.pth``
    (to tell a build that pip isolated from it). Once per process: pip's isolation runs the ``.pth`` again."""
    if _armed or not _hook_on():
        return
    _armed.append(sitedir)
    for name in WATCHED:
        when_imported(name, _activate)


def _hook_on() -> bool:
    """``TORCHADA_HOOK`` (on when unset, without importing the settings table: every Python of the
    environment runs this); a value it may not take says so on one line and leaves the hook on (an
    error would stop every Python of the environment)."""
    if OFF_VARIABLE not in os.environ:
        return True
    from .core.settings import SettingError, is_on

    try:
        return is_on(OFF_VARIABLE, os.environ)
    except SettingError as error:
        print(f"torchada: warning: {error}; the start-up hook stays on", file=sys.stderr)
        return True


def _activate(module: "ModuleType") -> None:
    from .activation import activate

    activate(module.__name__, _armed[0])


_pending: "dict[str, list[Action]]" = {}


def when_imported(name: str, action: "Action") -> None:
    """Call ``action(module)`` once ``name`` is imported: now if it is, else right after its code runs."""
    module = sys.modules.get(name)
    if module is not None:
        action(module)
        return
    _pending.setdefault(name, []).append(action)
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


class _Loader:
    """The module's own loader, then the actions waiting for it."""

    def __init__(self, loader: "Any") -> None:
        self._loader = loader

    def create_module(self, spec: "ModuleSpec") -> "ModuleType | None":
        module: ModuleType | None = self._loader.create_module(spec)
        return module

    def exec_module(self, module: "ModuleType") -> None:
        module.__loader__ = self._loader  # the module sees its own loader (linecache, importlib.resources)
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        for action in _pending.pop(module.__name__, ()):
            action(module)

    def __getattr__(self, name: str) -> "Any":
        return getattr(self._loader, name)


class _Finder:
    """Finds nothing itself: for an awaited module, the next finder's spec with :class:`_Loader`."""

    def find_spec(
        self, fullname: str, path: "Sequence[str] | None", target: "ModuleType | None" = None
    ) -> "ModuleSpec | None":
        if fullname not in _pending:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec: ModuleSpec | None = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader)  # type: ignore[assignment]
                return spec
        return None

    def invalidate_caches(self) -> None:
        """Nothing cached."""
