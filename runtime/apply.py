"""``apply(vendor)``: install the redirect table for a vendor, once per process.

``torch.cuda`` and its submodules become :class:`CudaModule` objects that resolve a name on its
first use (from its row, else the vendor's attribute of the same name) and store the result, so
every later ``torch.cuda.X`` is a plain module attribute load. Rows elsewhere are installed now,
or when their module is first imported.
"""

from __future__ import annotations

import functools
import importlib
import operator
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from torchada_build.startup import when_imported

from . import _device, _env, _jit, _serialization
from ._warn import warn_once
from .redirects import REDIRECTS, Kind, Redirect, factory_redirects
from .vendors import MISSING, Vendor

__all__ = ["CudaModule", "apply", "original_module"]

_applied: Vendor | None = None
_ROOTS = ("torch.", "triton.")


def _build(row: Redirect, original: Any, vendor: Vendor) -> Any:
    """The object ``row`` puts in place of ``original`` (``MISSING`` when it does not apply)."""
    if row.kind is Kind.KEEP:
        return original
    if row.kind is Kind.MODULE:
        return sys.modules[row.cuda_name]
    if row.kind is Kind.ALIAS or (row.kind is Kind.FALLBACK and row.via is None):
        return _vendor_attribute(vendor.format(row.musa_name or ""), vendor)
    if row.kind is Kind.CONSTANT:
        return vendor.format(row.musa_name or "")
    if original is MISSING and row.kind not in (Kind.FALLBACK, Kind.REPLACE):
        return MISSING
    if row.kind is Kind.DEVICE_ARGS:
        value = _device.device_args(original)
    elif row.via is not None:
        module_name, function = row.via.split(":")
        builder = getattr(importlib.import_module(f"{__package__}.{module_name}"), function)
        value = builder(original, vendor)
    else:
        msg = f"redirect {row.cuda_name!r}: {row.kind} cannot be built here"
        raise AssertionError(msg)
    if callable(original) and value is not original:
        _jit.keep_builtin(original, value)  # torch.jit.script still sees the operator
    return value


def _vendor_attribute(path: str, vendor: Vendor) -> Any:
    if path.startswith(_ROOTS):
        return importlib.import_module(path)
    return operator.attrgetter(path)(vendor.device_module()) if path else vendor.device_module()


def _no_counterpart(qualified: str, function: Callable[..., Any], vendor: Vendor) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        warn_once(
            qualified,
            f"{qualified} has no {vendor.device.upper()} counterpart; running the CUDA "
            f"implementation, which does not see {vendor.device.upper()} devices",
        )
        return function(*args, **kwargs)

    return wrapper


class CudaModule(ModuleType):
    """``torch.cuda`` (or one of its submodules) answered by the vendor, name by name.

    A miss goes to the module-level ``__getattr__`` (PEP 562) in its dict, which resolves the
    name and stores it; the class itself defines no ``__getattr__``, so a stored name is read
    by the module type's own attribute lookup, as fast as any module attribute.
    """

    def __init__(self, original: ModuleType, search: Callable[[], list[ModuleType]],
                 rows: dict[str, Redirect], vendor: Vendor) -> None:
        super().__init__(original.__name__, original.__doc__)
        for dunder in ("__file__", "__path__", "__spec__", "__loader__", "__package__", "__all__"):
            if hasattr(original, dunder):
                self.__dict__[dunder] = getattr(original, dunder)
        self.__dict__["_torchada"] = (original, search, rows, vendor)
        self.__dict__["__getattr__"] = functools.partial(_resolve_attribute, self)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(original_module(self))) | set(self.__dict__))


def _resolve_attribute(module: CudaModule, name: str) -> Any:
    original, search, rows, vendor = module.__dict__["_torchada"]
    if name.startswith("__") and name.endswith("__"):
        return getattr(original, name)
    _env.sync()
    value = _resolve(module.__name__, name, original, search, rows, vendor)
    module.__dict__[name] = value
    return value


def _resolve(module_name: str, name: str, original: ModuleType,
             search: Callable[[], list[ModuleType]], rows: dict[str, Redirect],
             vendor: Vendor) -> Any:
    cuda_value = getattr(original, name, MISSING)
    for prefix in (f"{module_name}.", "torch.cuda."):
        row = rows.get(prefix + name)
        if row is not None:
            value = _build(row, cuda_value, vendor)
            if value is not MISSING:
                return value
            break
    for module in search():
        value = getattr(module, name, MISSING)
        if value is not MISSING:
            return value
    if cuda_value is MISSING:
        msg = f"module {module_name!r} has no attribute {name!r}"
        raise AttributeError(msg)
    if name.startswith("_") or isinstance(cuda_value, (type, ModuleType)) or not callable(cuda_value):
        return cuda_value
    return _no_counterpart(f"{module_name}.{name}", cuda_value, vendor)


def original_module(module: ModuleType) -> ModuleType:
    """PyTorch's module behind a :class:`CudaModule` (any other module is returned as is)."""
    return module.__dict__["_torchada"][0] if isinstance(module, CudaModule) else module


def _locate(path: str) -> tuple[Any, str]:
    """``(owner, attribute)`` for a dotted path, or ``(None, module)`` when ``module`` (on the
    path) is not imported yet. Modules are looked up in ``sys.modules``, never imported."""
    parts = path.split(".")
    for end in range(len(parts) - 1, 0, -1):
        owner = sys.modules.get(".".join(parts[:end]))
        if owner is not None:
            break
    else:
        return None, parts[0]
    for index in range(end, len(parts) - 1):
        dotted = ".".join(parts[: index + 1])
        if dotted in sys.modules:
            owner = sys.modules[dotted]
        elif isinstance(owner, ModuleType) and not isinstance(owner, CudaModule):
            if parts[index] not in owner.__dict__:
                return None, dotted
            owner = owner.__dict__[parts[index]]
        else:
            owner = getattr(owner, parts[index])
    return owner, parts[-1]


def _install(row: Redirect, vendor: Vendor) -> None:
    owner, attribute = _locate(vendor.format(row.cuda_name))
    if owner is None:
        when_imported(attribute, lambda _module: _install(row, vendor))
        return
    original = getattr(owner, attribute, MISSING)
    if row.kind is Kind.FALLBACK and original is not MISSING:
        return  # the real implementation wins
    if row.kind is Kind.PROPERTY:
        if original is MISSING:
            value = property(operator.attrgetter(vendor.format(row.musa_name or "")))
        else:
            return
    else:
        value = _build(row, original, vendor)
    if value is MISSING:
        return
    setattr(owner, attribute, value)
    if row.kind is Kind.ALIAS and isinstance(value, ModuleType):
        sys.modules[row.cuda_name] = value  # ``import triton.language.extra.cuda`` finds it


def _install_cuda_modules(rows: dict[str, Redirect], vendor: Vendor) -> None:
    """Replace ``torch.cuda`` and its listed submodules with :class:`CudaModule` objects."""
    import torch

    for row in REDIRECTS:
        if row.kind is not Kind.MODULE:
            continue
        original = importlib.import_module(row.cuda_name)
        if isinstance(original, CudaModule):
            continue

        def search(sub: str | None = row.musa_name) -> list[ModuleType]:
            top = vendor.device_module()
            inner = getattr(top, sub, None) if sub else None
            return [inner, top] if isinstance(inner, ModuleType) else [top]

        module = CudaModule(original, functools.cache(search), rows, vendor)
        parent, _, child = row.cuda_name.rpartition(".")
        sys.modules[row.cuda_name] = module
        owner = torch if parent == "torch" else sys.modules[parent]
        if isinstance(owner, CudaModule):
            owner.__dict__[child] = module
        else:
            setattr(owner, child, module)


def apply(vendor: Vendor) -> None:
    """Redirect CUDA to ``vendor`` in this process (a second call does nothing)."""
    global _applied
    if _applied is not None:
        return
    _env.map_environment(vendor)  # before the vendor's runtime starts
    importlib.import_module(vendor.module)
    _device.set_vendor(vendor)
    table = REDIRECTS + factory_redirects()
    rows = {row.cuda_name: row for row in table}
    _install_cuda_modules(rows, vendor)
    cuda = sys.modules["torch.cuda"]
    for row in table:
        if row.kind is Kind.MODULE:
            continue
        if row.cuda_name.startswith("torch.cuda.") and row.kind is not Kind.PROPERTY:
            # Resolved lazily, except submodules, which ``import torch.cuda.X`` must find.
            name = row.cuda_name.removeprefix("torch.cuda.")
            original = original_module(cuda)
            if "." not in name and isinstance(getattr(original, name, None), ModuleType):
                sys.modules[row.cuda_name] = getattr(cuda, name)
            continue
        _install(row, vendor)
    _serialization.register(vendor)
    if vendor.build_hooks:
        when_imported("torch.utils.cpp_extension", _install_build_hooks)
    _applied = vendor


def _install_build_hooks(_module: ModuleType) -> None:
    try:
        from torchada_build.cpp_extension import install
    except ImportError:
        return
    install()
