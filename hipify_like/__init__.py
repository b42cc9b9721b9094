"""hipify_like: a token-exact CUDA → MUSA source translator driven by one mapping database.

Terms:

* **mapping database** (:mod:`.mapping`): one :class:`~.mapping.Entry` per CUDA name, read from
  ``data/*.tsv``; everything else (translator tables, compat headers, name converters, docs) derives
  from it.
* **translation** (:mod:`.translate`): one file's bytes in, translated bytes and
  :class:`~.findings.Finding` values out; only whole identifier tokens change.
* **unit** (:mod:`.unit`): a source file and the project headers it includes, translated together.

Example::

    >>> from hipify_like import translate_source
    >>> translate_source(b"cudaStream_t s;", "k.cu").text
    b'musaStream_t s;'
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # the driver imports torchada_build.core.errors and .files on its fast paths: nothing heavy here
if TYPE_CHECKING:
    from typing import Any

    from .findings import Finding, Severity
    from .mapping import Entry, Kind, MappingDB, Status, load_db
    from .translate import Translation, translate_source, translate_sources
    from .unit import Unit, translate_unit

_MODULE_OF = {
    "Finding": "findings",
    "Severity": "findings",
    "Entry": "mapping",
    "Kind": "mapping",
    "MappingDB": "mapping",
    "Status": "mapping",
    "load_db": "mapping",
    "Translation": "translate",
    "translate_source": "translate",
    "translate_sources": "translate",
    "Unit": "unit",
    "translate_unit": "unit",
}
__all__ = [
    "Entry",
    "Finding",
    "Kind",
    "MappingDB",
    "Severity",
    "Status",
    "Translation",
    "Unit",
    "load_db",
    "translate_source",
    "translate_sources",
    "translate_unit",
]


def __getattr__(name: str) -> Any:
    """Import on first use: ``import hipify_like.mapping`` alone must not load the translator."""
    if name not in _MODULE_OF:
        msg = f"module 'hipify_like' has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(importlib.import_module(f".{_MODULE_OF[name]}", __name__), name)
