"""Which files in an output folder ``torchada-port -o`` wrote, so that a rerun replaces only those.

``.torchada-port.json`` beside the outputs records, per output (relative to the folder), the original it
was translated from and the SHA-256 of the bytes written. A file is a *previous output* of a source only
when both still hold: a file the user made, or edited after the port, is not overwritten without
``--force``. The record is rewritten atomically after the outputs, so an interrupted run leaves outputs
it does not claim (a rerun then asks for ``--force``), never a claim on a file it did not write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from torchada_build.core.files import write_atomically

__all__ = ["MANIFEST_NAME", "OutputManifest"]

MANIFEST_NAME = ".torchada-port.json"


def _digest(data: bytes) -> str:
    import hashlib  # only -o needs it (OpenSSL's libcrypto loads with it)

    return hashlib.sha256(data).hexdigest()


@dataclass
class OutputManifest:
    directory: Path
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    """output path relative to ``directory`` → ``{"source": original, "sha256": digest}``."""

    @classmethod
    def load(cls, directory: Path) -> OutputManifest:
        """The folder's record; an unreadable one claims nothing."""
        try:
            outputs = json.loads((directory / MANIFEST_NAME).read_text())["outputs"]
        except (OSError, ValueError, KeyError, TypeError):
            outputs = {}
        return cls(directory, outputs if isinstance(outputs, dict) else {})

    def _key(self, path: Path) -> str:
        return path.absolute().relative_to(self.directory.absolute()).as_posix()

    def refusal(self, path: Path, source: Path) -> str | None:
        """Why ``path`` may not be overwritten by the output of ``source`` (None: it is absent, or this
        folder's earlier, unedited output of ``source``)."""
        if not path.exists():
            return None
        entry = self.outputs.get(self._key(path))
        if not isinstance(entry, dict) or entry.get("source") != str(source.resolve()):
            return f"'{path}' exists and is not an earlier output of '{source}'"
        try:
            unedited = entry.get("sha256") == _digest(path.read_bytes())
        except OSError:
            unedited = False
        return None if unedited else f"'{path}' was changed since torchada-port wrote it"

    def record(self, path: Path, source: Path, data: bytes) -> None:
        self.outputs[self._key(path)] = {"source": str(source.resolve()), "sha256": _digest(data)}

    def save(self) -> None:
        document = {"written_by": "torchada-port -o", "outputs": dict(sorted(self.outputs.items()))}
        write_atomically(self.directory / MANIFEST_NAME, json.dumps(document, indent=1) + "\n")
