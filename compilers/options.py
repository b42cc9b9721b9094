"""The nvcc option model: one frozen :class:`Option` per nvcc option, looked up by spelling.

An option has a long name (``--output-file``) and usually a short one (``-o``); nvcc never mixes
dashes (``-output-file`` and ``--o`` are unknown). How its value attaches is its :class:`Kind`
(LLVM's option kinds, specialised to nvcc's grammar, ``docs/nvcc.md``). What each backend does
with it is a :class:`Treatment`: an :class:`Action`, the one-line reason, the :class:`Stage` of the
driver that acts on it and, for an option a compile renders word for word, its spelling for that
backend. The rows, and the lookup by spelling, are in :mod:`.option_table`; everything else that
knows about options (the toolchains' renderers, the loopback forwarding, ``docs/options.md``) is
derived from them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = [
    "GLUABLE_SHORT",
    "Action",
    "Group",
    "Kind",
    "Option",
    "Stage",
    "TO_NVCC",
    "TO_NVCC_AND_DEVICE_LINK",
    "Treatment",
]

GLUABLE_SHORT = frozenset({"I", "D", "U", "L", "l", "O", "t"})
"""The only short options whose value may be glued on (``-Ifoo``, ``-O3``, ``-t4``) in nvcc 13."""


class Kind(enum.Enum):
    """How an option takes its value."""

    FLAG = "flag"
    """No value; ``-lineinfo=true`` is an error."""
    SEPARATE = "separate"
    """One value, as ``-opt=V`` or ``-opt V``; a different repeat warns and the last wins."""
    JOINED_OR_SEPARATE = "joined-or-separate"
    """Like SEPARATE, and the short form also glues (``-O3``)."""
    COMMA_LIST = "comma-list"
    """A comma-separated list (``\\,`` and double quotes protect commas); repeats accumulate."""
    JOINED_COMMA_LIST = "joined-comma-list"
    """Like COMMA_LIST, and the short form also glues (``-Ifoo,bar``)."""
    REPEATED = "repeated"
    """One value per occurrence, not split (``-gencode arch=…,code=…``); repeats accumulate."""

    @property
    def takes_value(self) -> bool:
        return self is not Kind.FLAG

    @property
    def is_list(self) -> bool:
        return self in (Kind.COMMA_LIST, Kind.JOINED_COMMA_LIST, Kind.REPEATED)

    @property
    def glues(self) -> bool:
        return self in (Kind.JOINED_OR_SEPARATE, Kind.JOINED_COMMA_LIST)


class Group(enum.Enum):
    """The categories of ``nvcc --help``, in its order."""

    PHASE = "phase"
    FILE = "file and path"
    BEHAVIOUR = "compiler/linker behaviour"
    PASS_THROUGH = "pass-through"
    MISC = "driver miscellany"
    CODEGEN = "GPU code generation"
    CUDA = "CUDA compilation"
    DIAGNOSTICS = "generic and diagnostic"
    TORCHADA = "torchada"


class Action(enum.Enum):
    """What a backend does with an option."""

    PASS = "pass"
    """The backend compiler takes the same meaning under the same or an obvious spelling."""
    TRANSLATE = "translate"
    """The driver turns it into something else (other flags, a different job, a mapped value)."""
    DROP = "drop"
    """Accepted and ignored: it has no meaning for this backend."""
    UNSUPPORTED = "unsupported"
    """Refused with a one-line error: ignoring it would build something other than asked."""


class Stage(enum.Flag):
    """The parts of the driver that act on an option for one backend."""

    DRIVER = enum.auto()
    """The driver itself: the command line, phases, outputs, dependency files, architectures and the
    choice of host compiler (``parse``, ``request``, ``plan``, ``archs``, ``cli``)."""
    COMPILE = enum.auto()
    """Every compile command: by the treatment's spelling, else by the toolchain's renderer for the
    option (loopback: as written, to the real nvcc)."""
    DEVICE = enum.auto()
    """Device compiles only (``.cu``): device code generation."""
    LINK = enum.auto()
    """The host link or the archive (``TranslatingToolchain.link_argv``, ``archive_argv``)."""
    DEVICE_LINK = enum.auto()
    """The device link (loopback: as written, to ``nvcc -dlink``)."""

    @property
    def label(self) -> str:
        """``compile, link``, as ``docs/options.md`` shows it."""
        return ", ".join(s.name.lower().replace("_", " ") for s in Stage if s in self)  # type: ignore[union-attr]


_NO_STAGE = Stage(0)


@dataclass(frozen=True, slots=True)
class Treatment:
    action: Action
    reason: str
    stage: Stage = _NO_STAGE
    """Who acts on the option; none for a dropped or unsupported one."""
    spelling: tuple[str, ...] = ()
    """The backend's words for one value, ``{}`` standing for it (``-O{}``), on each compile (compile
    and device stages) and on the host link (link stage); empty when the stage renders it otherwise."""

    def spell(self, values: tuple[str, ...] | list[str]) -> list[str]:
        """The spelling once per value (once for a flag).

        >>> Treatment(Action.PASS, "mcc -O", Stage.COMPILE, ("-O{}",)).spell(["3"])
        ['-O3']
        """
        return [word.format(value) for value in (values or ("",)) for word in self.spelling]


TO_NVCC = Treatment(Action.PASS, "real nvcc compiles the translated unit with it", Stage.COMPILE)
TO_NVCC_AND_DEVICE_LINK = Treatment(
    Action.PASS, "real nvcc compiles the translated unit, and device-links, with it", Stage.COMPILE | Stage.DEVICE_LINK
)


@dataclass(frozen=True, slots=True)
class Option:
    long: str
    """``--output-file`` (with the dashes)."""
    short: str | None
    """``-o``, or None (``--no-align-double`` has no short form)."""
    kind: Kind
    group: Group
    help: str
    mcc: Treatment
    loopback: Treatment = TO_NVCC
    choices: tuple[str, ...] = ()
    """The accepted values of an enumerated option."""
    numeric: bool = False
    """Whether the value must be a number (``-O``, ``-t``)."""
    alias_of: str | None = None
    """The long name of the option this one spells differently (``--lto`` → ``--dlink-time-opt``)."""

    @property
    def name(self) -> str:
        """The name without dashes, as nvcc's messages spell it (``output-file``)."""
        return self.long.lstrip("-")

    @property
    def canonical(self) -> str:
        return self.alias_of or self.long

    def spellings(self) -> tuple[str, ...]:
        return (self.long,) if self.short is None else (self.long, self.short)
