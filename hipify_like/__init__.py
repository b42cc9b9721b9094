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

from .findings import Finding, Severity
from .mapping import Entry, Kind, MappingDB, Status, load_db
from .translate import Translation, translate_source, translate_sources
from .unit import Unit, translate_unit

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
