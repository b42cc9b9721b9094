"""Invariants of the mapping database and of the files generated from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify_like.inventory import cuda_inventory, musa_inventory
from hipify_like.mapping import (
    COLUMNS,
    DATA_DIR,
    Kind,
    MappingError,
    Status,
    build_db,
    data_files,
    load_db,
    read_entries,
)

DB = load_db()


def test_every_data_file_reads_and_is_sorted() -> None:
    for path in data_files():
        entries = read_entries(path)
        keys = [(e.kind.value, e.cuda) for e in entries]
        assert keys == sorted(keys), f"{path.name}: rows must be sorted by kind, then CUDA name"


def test_a_duplicate_key_is_an_error(tmp_path: Path) -> None:
    header = "\t".join(COLUMNS)
    (tmp_path / "a.tsv").write_text(f"{header}\ncudaMalloc\tmusaMalloc\tfunction\tsupported\tinventory\t\n")
    (tmp_path / "b.tsv").write_text(f"{header}\ncudaMalloc\tmusaMalloc\tfunction\tsupported\tinventory\t\n")
    with pytest.raises(MappingError, match="defined twice"):
        build_db(tmp_path)


def test_a_bad_row_names_its_file_and_line(tmp_path: Path) -> None:
    header = "\t".join(COLUMNS)
    (tmp_path / "a.tsv").write_text(f"{header}\ncudaMalloc\tmusaMalloc\tfunktion\tsupported\tinventory\t\n")
    with pytest.raises(MappingError, match=r"a\.tsv:2:"):
        build_db(tmp_path)


def _inventory_spellings(entry) -> list[str]:
    """How the MUSA inventory spells a target: libraries as files or CMake targets."""
    if entry.kind is Kind.LIBRARY:
        return [entry.musa, f"lib{entry.musa}.so", f"lib{entry.musa}.a", f"MUSA::{entry.musa}"]
    return [entry.musa]


def test_every_target_has_evidence() -> None:
    """A MUSA name is in the MUSA inventory, or the entry cites its own source."""
    inventory = musa_inventory()
    missing = [
        f"{e.library}.tsv: {e.cuda} -> {e.musa!r}"
        for e in DB.entries
        if (e.evidence == "inventory" and not any(n in inventory for n in _inventory_spellings(e)))
        or not e.evidence.strip()
    ]
    assert not missing, f"{len(missing)} entries cite evidence that does not hold, e.g. {missing[:10]}"


def test_statuses_are_consistent() -> None:
    for entry in DB.entries:
        if entry.status is Status.UNSUPPORTED:
            assert not entry.musa and entry.note, f"{entry.cuda}: unsupported entries have no MUSA name and a note"
        if entry.status is Status.MANUAL:
            assert entry.note, f"{entry.cuda}: manual entries say what to do"
        if entry.status is Status.SUPPORTED:
            assert entry.musa, f"{entry.cuda}: supported entries name their MUSA counterpart"


def test_translation_is_idempotent_by_construction() -> None:
    """No MUSA target is itself a CUDA name that translation would rename again."""
    for entry in DB.entries:
        if entry.renames and entry.kind.is_identifier:
            again = DB.identifier(entry.musa)
            assert again is None or not again.renames, f"{entry.cuda} -> {entry.musa} -> {again.musa}"
        if entry.renames and entry.kind is Kind.HEADER:
            again = DB.header(entry.musa)
            assert again is None or not again.renames, f"{entry.cuda} -> {entry.musa} -> {again.musa}"


def test_every_inventory_name_is_classified() -> None:
    unclassified = [f"{n.library}:{n.name}" for n in cuda_inventory() if DB.identifier(n.name) is None]
    assert not unclassified, f"{len(unclassified)} inventory names are not in the database, e.g. {unclassified[:10]}"


def test_data_dir_is_the_package_data() -> None:
    assert DATA_DIR.is_dir() and data_files(), "hipify_like/data/*.tsv must ship with the package"


def test_every_driver_style_cuda_name_has_a_row() -> None:
    """TA1004 skips names in the driver API's style (a project's cuWelfordOnlineSum): safe while the
    database knows every such name of the CUDA inventory."""
    from hipify_like.tables import DRIVER_STYLE

    db = load_db()
    driver_style = [n.name for n in cuda_inventory() if DRIVER_STYLE.fullmatch(n.name)]
    assert len(driver_style) > 500
    assert [n for n in driver_style if db.identifier(n) is None] == []
