"""Every ``TORCHADA_*`` environment variable, in one table: its name, kind, default and meaning.

Each part of torchada reads its variables through :func:`value`, which validates the value the same
way for all of them (a choice or switch outside its list is a :class:`SettingError`, one line), and
``docs/settings.md`` is generated from :data:`SETTINGS` (``python -m torchada_build.generate``). Nothing
is imported but :mod:`.errors` (and :mod:`.diagnostics` for a bad value): the compile memo's replay reads ``TORCHADA_CACHE_DIR`` through this module.

    >>> value("TORCHADA_BACKEND", {"TORCHADA_BACKEND": " loopback "})
    'loopback'
    >>> value("TORCHADA_HOOK", {})
    '1'
    >>> value("TORCHADA_BACKEND", {"TORCHADA_BACKEND": "cuda"})
    Traceback (most recent call last):
    ...
    torchada_build.core.settings.SettingError: TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'cuda'; unset it for its default (docs/settings.md) [TA2022]
"""

from __future__ import annotations

from .errors import TorchadaError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["SETTINGS", "Setting", "SettingError", "is_on", "settings_markdown", "value"]


class SettingError(TorchadaError, ValueError):
    """A variable's value is not one it may take: ``TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'cuda'``."""


class Setting:
    """One variable: ``kind`` says what its value is (``choice`` of :attr:`choices`, ``path``,
    ``command``: words split as a shell does, ``switch``: ``1`` or ``0``, ``architectures``: MUSA
    architectures), read by ``reader``."""

    __slots__ = ("choices", "default", "kind", "meaning", "name", "reader")

    def __init__(self, name: str, kind: str, default: str, meaning: str, reader: str,
                 choices: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.name, self.kind, self.default, self.meaning, self.reader = name, kind, default, meaning, reader
        self.choices = choices


SETTINGS = {
    setting.name: setting
    for setting in (
        Setting("TORCHADA_BACKEND", "choice", "", "the backend torchada-nvcc builds with (unset: `mcc` where a MUSA SDK "
                "is found, else `nvcc`); a translating backend also makes a machine a MUSA one for the start-up hook",
                "compilers/backends.py, torchada_build/activation.py", ("mcc", "nvcc", "loopback")),
        Setting("TORCHADA_CACHE_DIR", "path", "", "the translation cache, compile memos and the toolkit mimic, private "
                "to its owner (unset: `$XDG_CACHE_HOME/torchada`, else `~/.cache/torchada`)",
                "compilers/memo.py, compilers/cache.py"),
        Setting("TORCHADA_MUSA_ARCH", "architectures", "", "the MUSA architectures to build for (`mp_22`, `22;31`), "
                "before torch_musa's `TORCH_MUSA_ARCH_LIST` and the visible devices", "compilers/toolchains/mcc.py"),
        Setting("TORCHADA_COMPILER_LAUNCHER", "command", "", "a command (`ccache`, `sccache`) put in front of each "
                "compile of a translated unit", "compilers/launcher.py"),
        Setting("TORCHADA_DEBUG", "switch", "0", "`1`: a Python traceback instead of the one-line error",
                "compilers/cli.py"),
        Setting("TORCHADA_HOOK", "switch", "1", "`0`: the start-up hook (`torchada.pth`) does nothing, in every "
                "process that inherits it", "torchada_build/startup.py"),
        Setting("TORCHADA_PLATFORM", "choice", "", "the platform `import torchada` redirects to (unset: detected)",
                "runtime/platform.py", ("cuda", "musa", "mlu", "cpu")),
        Setting("TORCHADA_FORCE_CUDA_AVAILABLE", "switch", "0", "`1`: `torch.cuda.is_available()` answers with the "
                "vendor's device module at `import torchada`", "runtime/_backends.py"),
        Setting("TORCHADA_CUDA_GRAPH_DEBUG_DUMP_PATH", "path", "", "a folder where each CUDA graph captured through "
                "`torch.cuda.graph` is dumped", "runtime/_graphs.py"),
    )
}  # fmt: skip
"""Every variable, by name."""

_SWITCH = ("0", "1")


def value(name: str, environ: Mapping[str, str]) -> str:
    """The variable's value, stripped, or its default when unset or empty; a :class:`SettingError` for a
    choice or switch it may not take."""
    setting = SETTINGS[name]
    given = environ.get(name, "").strip()
    if not given:
        return setting.default
    allowed = setting.choices if setting.kind == "choice" else _SWITCH if setting.kind == "switch" else ()
    if allowed and given not in allowed:
        from .diagnostics import BAD_SETTING

        raise SettingError(BAD_SETTING.text(name=name, choices=f"{', '.join(allowed[:-1])} or {allowed[-1]}", value=given))
    return given


def is_on(name: str, environ: Mapping[str, str]) -> bool:
    """Whether the switch ``name`` is ``1`` (its default when unset)."""
    return value(name, environ) == "1"


def settings_markdown() -> str:
    """The table of ``docs/settings.md``."""
    rows = ["| Variable | Kind | Default | Meaning | Read by |", "|---|---|---|---|---|"]
    for setting in SETTINGS.values():
        kind = setting.kind + (f" ({', '.join(f'`{c}`' for c in setting.choices)})" if setting.choices else "")
        default = f"`{setting.default}`" if setting.default else "unset"
        rows.append(f"| `{setting.name}` | {kind} | {default} | {setting.meaning} | `{setting.reader}` |")
    return "\n".join(rows) + "\n"
