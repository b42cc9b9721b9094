"""Installs ``torchada.pth`` beside the packages: its one line arms torchada's start-up hook
(``torchada_build/startup.py``) in every Python of the environment. Everything else is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PTH_NAME = "torchada.pth"
PTH_LINE = "import torchada_build.startup as hook; hook.arm(sitedir)\n"
"""``site`` runs a ``.pth`` line that starts with ``import``; ``sitedir`` is the site folder it is reading."""


class BuildPyWithPth(build_py):
    """``build_py``, plus ``torchada.pth`` at the top of the wheel (of an editable install's too)."""

    def run(self) -> None:
        super().run()
        # An editable wheel holds what install_lib points at; a regular one, the build folder.
        folder = self.get_finalized_command("install").install_lib if self.editable_mode else self.build_lib
        Path(folder).mkdir(parents=True, exist_ok=True)
        Path(folder, PTH_NAME).write_text(PTH_LINE)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs: list[str] = super().get_outputs(include_bytecode)
        return outputs if self.editable_mode else [*outputs, str(Path(self.build_lib, PTH_NAME))]


setup(cmdclass={"build_py": BuildPyWithPth})
