"""nvcc's command line → :class:`ParsedArgs`, keeping every word's disposition.

The words are ``NVCC_PREPEND_FLAGS``, then argv, then ``NVCC_APPEND_FLAGS``; ``--options-file``
contents are spliced in where the option stands (so last-wins order holds), nested files included.
Each word becomes an :class:`Arg`: an option (with its value split as its :class:`~.options.Kind`
says), an input file, or an unknown option forwarded to the host compiler or linker under
``-forward-unknown-to-host-compiler``/``-linker``/``-opts``. Every ``Arg`` keeps the words it came from,
so a backend can render it again unchanged.

    >>> p = parse_args(["-Xcompiler", "'-fPIC'", "-O3", "-c", "k.cu"], environ={})
    >>> p.values("--compiler-options"), p.last("--optimize"), p.inputs
    (["'-fPIC'"], '3', ['k.cu'])
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from .cmdline import environment_flags, read_options_file, split_list
from .errors import UsageError
from .option_table import all_options, find_option
from .options import GLUABLE_SHORT, Kind, Option

__all__ = ["Arg", "ArgKind", "ParsedArgs", "parse_args", "validate_value"]

_MAX_OPTIONS_FILES = 256
_FORWARD_COMPILER = frozenset({"--forward-unknown-to-host-compiler", "--forward-unknown-opts"})
_FORWARD_LINKER = frozenset({"--forward-unknown-to-host-linker", "--forward-unknown-opts"})


class ArgKind(enum.Enum):
    OPTION = "option"
    INPUT = "input"
    TO_HOST_COMPILER = "to host compiler"
    """An unknown option under -forward-unknown-to-host-compiler."""
    TO_HOST_LINKER = "to host linker"
    """An unknown option under -forward-unknown-to-host-linker."""
    TO_HOST_BOTH = "to host compiler and linker"
    """An unknown option under -forward-unknown-opts (or both forwarding options)."""


@dataclass(frozen=True, slots=True)
class Arg:
    kind: ArgKind
    option: Option | None
    spelling: tuple[str, ...]
    """The words as given: ``("-o", "x.o")``, ``("-O3",)``, ``("k.cu",)``."""
    values: tuple[str, ...]
    """The value(s): split for list options, ``()`` for flags, the word itself for inputs."""

    @property
    def canonical(self) -> str | None:
        return self.option.canonical if self.option else None


@dataclass(frozen=True)
class ParsedArgs:
    args: tuple[Arg, ...]
    warnings: tuple[str, ...] = ()

    def of(self, long: str) -> Iterator[Arg]:
        """The occurrences of an option (or of its aliases), in order; a ``long`` name that is no
        option's canonical name is a KeyError (a misspelt lookup would otherwise answer "absent")."""
        option = find_option(long)
        if option is None or option.canonical != long:
            msg = f"{long!r} is not the canonical long name of an option in the option table"
            raise KeyError(msg)
        return (a for a in self.args if a.canonical == long)

    def has(self, long: str) -> bool:
        return any(True for _ in self.of(long))

    def last(self, long: str) -> str | None:
        """The value that counts for a single-valued option: the last one."""
        value = None
        for arg in self.of(long):
            value = arg.values[-1] if arg.values else value
        return value

    def values(self, long: str) -> list[str]:
        """Every value of a list option, accumulated in order."""
        return [v for arg in self.of(long) for v in arg.values]

    @property
    def inputs(self) -> list[str]:
        return [a.values[0] for a in self.args if a.kind is ArgKind.INPUT]

    def forwarded(self, *kinds: ArgKind) -> list[str]:
        return [a.spelling[0] for a in self.args if a.kind in kinds]


def validate_value(option: Option, value: str) -> None:
    """Raise nvcc's error for a value the option does not accept."""
    if option.choices and value not in option.choices:
        if option.choices == ("true", "false"):
            msg = f"'{value}': expected true or false"
        else:
            msg = f"Value '{value}' is not defined for option '{option.name}'"
        raise UsageError(msg)
    if option.numeric and not value.isdigit():
        msg = f"'{value}': expected a number"
        raise UsageError(msg)


def _suggestion(word: str) -> str:
    import difflib

    name = word.partition("=")[0]
    dashes = "--" if name.startswith("--") else "-"
    spellings = [s for o in all_options() for s in o.spellings() if s.startswith(dashes) == name.startswith(dashes)]
    if dashes == "-":
        spellings = [s for s in spellings if not s.startswith("--")]
    close = difflib.get_close_matches(name, spellings, n=1, cutoff=0.8)
    return f"; did you mean '{close[0]}'?" if close else ""


def _match(word: str, rest: deque[str]) -> tuple[Option, str | None, tuple[str, ...]] | None:
    """The option ``word`` spells, its value, and the words it used; None for an unknown option."""
    name, equals, attached = word.partition("=")
    option = find_option(name)
    if option is None:
        short = word[1:2]
        if word.startswith("--") or short not in GLUABLE_SHORT or len(word) < 3:
            return None
        option = find_option("-" + short)
        if option is None or not option.kind.glues:
            return None
        return option, word[2:], (word,)
    if not option.kind.takes_value:
        if equals:
            msg = f"no argument expected after '{name}'"
            raise UsageError(msg)
        return option, None, (word,)
    if equals:
        return option, attached, (word,)
    if not rest:
        msg = f"argument expected after '{name}'"
        raise UsageError(msg)
    value = rest.popleft()
    return option, value, (word, value)


def parse_args(argv: Sequence[str], *, environ: Mapping[str, str]) -> ParsedArgs:
    """Parse an nvcc command line (with the environment's ``NVCC_*_FLAGS``)."""
    prepend, append = environment_flags(environ)
    rest = deque([*prepend, *argv, *append])
    args: list[Arg] = []
    unknown: list[int] = []
    warnings: list[str] = []
    single: dict[str, str] = {}
    files_read = 0
    while rest:
        word = rest.popleft()
        if not word.startswith("-") or word == "-":
            args.append(Arg(ArgKind.INPUT, None, (word,), (word,)))
            continue
        matched = _match(word, rest)
        if matched is None:
            unknown.append(len(args))
            args.append(Arg(ArgKind.TO_HOST_COMPILER, None, (word,), (word,)))
            continue
        option, value, spelling = matched
        if value is None:
            values: tuple[str, ...] = ()
        elif option.kind in (Kind.COMMA_LIST, Kind.JOINED_COMMA_LIST):
            values = tuple(split_list(value))
        else:
            values = (value,)
        for v in values:
            validate_value(option, v)
        if option.kind in (Kind.SEPARATE, Kind.JOINED_OR_SEPARATE) and value is not None:
            previous = single.get(option.canonical)
            if previous is not None and previous != value:
                warnings.append(
                    f"incompatible redefinition for option '{option.name}', the last value of this option was used"
                )
            single[option.canonical] = value
        args.append(Arg(ArgKind.OPTION, option, spelling, values))
        if option.long == "--options-file":
            files_read += len(values)
            if files_read > _MAX_OPTIONS_FILES:
                msg = f"more than {_MAX_OPTIONS_FILES} options files: do they include each other?"
                raise UsageError(msg)
            for path in reversed(values):
                rest.extendleft(reversed(read_options_file(path)))
    return ParsedArgs(tuple(_forward_unknown(args, unknown)), tuple(warnings))


def _forward_unknown(args: list[Arg], unknown: list[int]) -> list[Arg]:
    """Mark unknown options as forwarded, or refuse the first one as nvcc does."""
    if not unknown:
        return args
    present = {a.canonical for a in args if a.kind is ArgKind.OPTION}
    to_compiler = bool(present & _FORWARD_COMPILER)
    to_linker = bool(present & _FORWARD_LINKER)
    if not (to_compiler or to_linker):
        word = args[unknown[0]].spelling[0]
        msg = f"Unknown option '{word}'{_suggestion(word)}"
        raise UsageError(msg)
    kind = (
        ArgKind.TO_HOST_BOTH
        if to_compiler and to_linker
        else ArgKind.TO_HOST_COMPILER
        if to_compiler
        else ArgKind.TO_HOST_LINKER
    )
    for i in unknown:
        args[i] = Arg(kind, None, args[i].spelling, args[i].values)
    return args
