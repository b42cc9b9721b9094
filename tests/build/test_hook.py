"""The cpp_extension seam, backend detection, settings and arch flags, in this process (no compiler runs)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch.utils.cpp_extension as cpp_extension
from musa_standin import MusaStandIn

from torchada_build import cpp_extension as hook
from torchada_build.arch_flags import get_arch_flags, musa_arches_from_list
from torchada_build.commands import get_cmake_dir, get_toolchain_file
from torchada_build.errors import BuildConfigurationError, TorchadaError
from torchada_build.platform import Backend, BackendChoice, detect_backend, require_musa_home, require_torch_musa
from torchada_build.settings import get_extension_settings

MCC = BackendChoice(Backend.MCC, "test")


@pytest.fixture
def no_musa(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("torchada_build.platform.find_torch_musa", lambda: None)
    monkeypatch.setattr("torchada_build.compilers.installations.DEFAULT_MUSA_HOME", "/nonexistent/musa")


@pytest.fixture
def on_musa(monkeypatch: pytest.MonkeyPatch, musa_standin: MusaStandIn) -> MusaStandIn:
    monkeypatch.syspath_prepend(str(musa_standin.site))
    monkeypatch.setenv("MUSA_HOME", str(musa_standin.home))
    return musa_standin


@pytest.fixture
def mimic(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    root = tmp_path / "mimic"
    (root / "bin").mkdir(parents=True)
    monkeypatch.setattr(hook, "toolkit_root", lambda backend: root)
    yield root
    hook.uninstall()


def one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(error.value)
    assert "\n" not in message
    return message


# -- which backend -------------------------------------------------------------------------------


def test_backend_forced_by_environment(no_musa: None) -> None:
    for backend in Backend:
        assert detect_backend({"TORCHADA_BACKEND": backend.value}).backend is backend


def test_unknown_backend_is_one_line(no_musa: None) -> None:
    with pytest.raises(TorchadaError) as error:
        detect_backend({"TORCHADA_BACKEND": "hip"})
    assert one_line(error) == "TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'hip'; unset it for its default (docs/settings.md) [TA2022]"


def test_cuda_machine_passes_through(no_musa: None, nvcc: str) -> None:
    choice = detect_backend({"PATH": str(Path(nvcc).parent)})
    assert choice == BackendChoice(Backend.NVCC, f"no MUSA SDK was found, and NVIDIA's nvcc is at '{nvcc}'")


def test_musa_machine_recognised_by_torch_musa(no_musa: None, on_musa: MusaStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # back to the real finder, with the stand-in torch_musa importable
    monkeypatch.syspath_prepend(str(on_musa.site))
    assert detect_backend({"PATH": "/nonexistent"}) == BackendChoice(Backend.MCC, "torch_musa is installed")
    assert not any(name == "torch_musa" for name in sys.modules), "torch_musa must be found, not imported"


def test_musa_machine_recognised_by_sdk(no_musa: None, musa_standin: MusaStandIn) -> None:
    choice = detect_backend({"MUSA_HOME": str(musa_standin.home), "PATH": "/nonexistent"})
    assert choice.backend is Backend.MCC and str(musa_standin.home) in choice.reason


def test_missing_musa_home_is_one_line(no_musa: None) -> None:
    with pytest.raises(BuildConfigurationError) as error:
        require_musa_home(MCC, {"PATH": "/nonexistent"})
    message = one_line(error)
    assert "cannot find mcc (looked for /nonexistent/musa/bin/mcc" in message and message.endswith("[TA2001]")
    assert "set MUSA_HOME" in message and "TORCHADA_BACKEND=loopback" in message


def test_musa_home_without_mcc_is_named(no_musa: None, tmp_path: Path) -> None:
    with pytest.raises(BuildConfigurationError) as error:
        require_musa_home(MCC, {"MUSA_HOME": str(tmp_path), "PATH": "/nonexistent"})
    assert f"(looked for {tmp_path}/bin/mcc, from MUSA_HOME)" in one_line(error)


def test_missing_torch_musa_is_one_line(no_musa: None) -> None:
    with pytest.raises(BuildConfigurationError) as error:
        require_torch_musa(BackendChoice(Backend.MCC, "a MUSA SDK is at '/usr/local/musa'"))
    message = one_line(error)
    assert "torch_musa is not installed" in message and "/usr/local/musa" in message


# -- architectures -------------------------------------------------------------------------------


def test_musa_arch_list_spellings() -> None:
    assert musa_arches_from_list("21;22") == ["mp_21", "mp_22"]
    assert musa_arches_from_list("mp_31 mp_22 22") == ["mp_22", "mp_31"]  # sorted, as torch_musa does
    assert musa_arches_from_list("2.2;") == ["mp_22"]
    # every architecture torch_musa v2.7.1's MUSAExtension accepts (musa_extension.py:803)
    assert musa_arches_from_list("10;21;22;31;32") == ["mp_10", "mp_21", "mp_22", "mp_31", "mp_32"]


@pytest.mark.parametrize("value", ["22;99", "9.0", ";", "mp_33"])
def test_unknown_musa_arch_is_one_line(value: str) -> None:
    with pytest.raises(BuildConfigurationError) as error:
        musa_arches_from_list(value)
    bad = value.split(";")[-1] if value != ";" else ";"
    assert one_line(error) == (
        f"unknown MUSA architecture '{bad}' in TORCH_MUSA_ARCH_LIST; "
        "use one or more of 10, 21, 22, 31, 32, separated by ';' [TA2021]"
    )


def torch_flags(cflags: object) -> list[str]:
    return ["<torch's TORCH_CUDA_ARCH_LIST flags>"]


@pytest.mark.parametrize("backend", [Backend.MCC, Backend.LOOPBACK])
def test_arch_flags_rules(backend: Backend) -> None:
    both = {"TORCH_MUSA_ARCH_LIST": "21;31", "TORCH_CUDA_ARCH_LIST": "8.0"}
    assert get_arch_flags(["-arch=sm_90"], both, torch_flags, backend) == []
    added = get_arch_flags(["-DTORCH_EXTENSION_NAME=arch"], both, torch_flags, backend)
    # mcc: torchada-nvcc reads TORCH_MUSA_ARCH_LIST itself; loopback's nvcc needs CUDA architectures
    assert added == ([] if backend is Backend.MCC else ["-gencode=arch=compute_75,code=sm_75", "-gencode=arch=compute_90,code=sm_90"])
    assert get_arch_flags([], {"TORCH_CUDA_ARCH_LIST": "8.0"}, torch_flags, backend) == torch_flags(None)
    assert get_arch_flags(None, {}, torch_flags, backend) == []
    assert get_arch_flags(None, {"TORCH_CUDA_ARCH_LIST": "native"}, torch_flags, backend) == []
    with pytest.raises(BuildConfigurationError):
        get_arch_flags([], {"TORCH_MUSA_ARCH_LIST": "32;41"}, torch_flags, backend)


def test_loopback_gencode_stands_for_each_musa_arch() -> None:
    """Tiers map back to themselves; mp_10 and mp_32, no CUDA tier's, to the nearest tier below."""
    from hipify_like.arch import get_arch_table

    table = get_arch_table()
    for arch in table.targets:
        (flag,) = get_arch_flags([], {"TORCH_MUSA_ARCH_LIST": arch.name}, torch_flags, Backend.LOOPBACK)
        sm = int(re.search(r"sm_(\d+)", flag).group(1))
        expected = {"mp_10": "mp_21", "mp_32": "mp_31"}.get(arch.name, arch.name)
        assert table.musa_for_sm(sm) == expected


# -- settings ------------------------------------------------------------------------------------


def test_musa_settings_follow_musa_extension(on_musa: MusaStandIn) -> None:
    settings = get_extension_settings(MCC)
    ported = on_musa.torch_musa / "share" / "generated_cuda_compatible"
    assert settings.include_dirs[:5] == tuple(
        map(str, (on_musa.home / "include", ported / "aten/src", ported / "include",
                  ported / "include/torch/csrc/api/include", on_musa.torch_musa / "share/torch_musa_codegen"))
    )
    assert settings.include_dirs[5] == str(on_musa.site)
    assert settings.library_dirs == (str(on_musa.torch_musa / "lib"), str(on_musa.home / "lib"))
    assert settings.rpaths[0] == "$ORIGIN/lib" and settings.rpaths[2] == str(on_musa.torch_musa / "lib")
    libraries = settings.link_libraries(["c10", "torch", "c10_cuda", "torch_cuda", "cudart", "mine"])
    assert libraries == ["c10", "torch", "musa_python", "musart", "mine"]


@pytest.mark.parametrize(("with_cuda", "is_standalone"), [(True, False), (False, False), (True, True), (False, True)])
def test_jit_link_line_is_torch_musas(on_musa: MusaStandIn, with_cuda: bool, is_standalone: bool) -> None:
    """torch_musa v2.7.1 ``_prepare_ldflags`` (musa_extension.py:876-911), line for line, after the
    user's flags (renamed); the one difference: torch_musa/lib is named wherever -lmusa_python is."""
    torch_lib, musa_lib = cpp_extension.TORCH_LIB_PATH, on_musa.torch_musa / "lib"
    link = get_extension_settings(MCC).musa_jit
    flags = link.flags(["-Wl,--no-as-needed", "-lcublas", "-lmine"], with_cuda=with_cuda, is_standalone=is_standalone)
    expected = ["-Wl,--no-as-needed", "-lmublas", "-lmine", f"-L{torch_lib}", "-lc10", "-ltorch_cpu"]
    expected += [f"-L{musa_lib}"] if with_cuda or not is_standalone else []
    expected += ["-ltorch"]
    expected += [f"-Wl,-rpath,{torch_lib}"] if is_standalone else ["-ltorch_python", "-lmusa_python", "-lmusa_kernels"]
    expected += [f"-L{on_musa.home / 'lib'}", "-lmusart"] if with_cuda else []
    assert flags == expected


def test_mudnn_path_is_read_as_mudnn_home(on_musa: MusaStandIn, tmp_path: Path) -> None:
    settings = get_extension_settings(MCC, {**os.environ, "MUSA_HOME": str(on_musa.home), "MUDNN_PATH": str(tmp_path)})
    assert settings.include_dirs[-1] == str(tmp_path / "include")
    assert settings.library_dirs[-1] == str(tmp_path / "lib")
    assert settings.musa_jit.flags([], with_cuda=True, is_standalone=False)[-1] == f"-L{tmp_path / 'lib64'}"


def test_loopback_keeps_cuda_names_and_drops_missing_torch_cuda_libraries() -> None:
    settings = get_extension_settings(BackendChoice(Backend.LOOPBACK, "test"))
    torch_lib = Path(cpp_extension.TORCH_LIB_PATH)
    expected = [n for n in ("c10_cuda", "torch_cuda") if (torch_lib / f"lib{n}.so").exists()]
    assert settings.link_libraries(["c10", "c10_cuda", "torch_cuda", "cudart"]) == ["c10", *expected, "cudart"]
    assert settings.include_dirs == settings.library_dirs == settings.rpaths == ()


# -- the seam ------------------------------------------------------------------------------------


def test_every_patched_name_exists_in_this_torch() -> None:
    for patch in hook.PATCHES:
        assert callable(patch.current(cpp_extension)), patch.name


def test_nvcc_backend_changes_nothing(monkeypatch: pytest.MonkeyPatch, mimic: Path) -> None:
    monkeypatch.setenv("TORCHADA_BACKEND", "nvcc")
    before = {p.name: p.current(cpp_extension) for p in hook.PATCHES}
    assert hook.install() is hook.InstallStatus.PASSTHROUGH
    assert {p.name: p.current(cpp_extension) for p in hook.PATCHES} == before
    assert hook.installed_backend() is None


def test_install_is_idempotent_and_reversible(monkeypatch: pytest.MonkeyPatch, mimic: Path) -> None:
    monkeypatch.setenv("TORCHADA_BACKEND", "loopback")
    before = {p.name: p.current(cpp_extension) for p in hook.PATCHES} | {"CUDA_HOME": cpp_extension.CUDA_HOME}
    assert hook.install() is hook.InstallStatus.INSTALLED
    assert hook.install() is hook.InstallStatus.ALREADY_INSTALLED
    assert cpp_extension.CUDA_HOME == str(mimic)
    assert cpp_extension._join_cuda_home("bin", "nvcc") == str(mimic / "bin" / "nvcc")
    assert hook.installed_backend().backend is Backend.LOOPBACK
    assert cpp_extension.BuildExtension.build_extensions is not before["BuildExtension.build_extensions"]
    hook.uninstall()
    after = {p.name: p.current(cpp_extension) for p in hook.PATCHES} | {"CUDA_HOME": cpp_extension.CUDA_HOME}
    assert after == before


def test_patched_names_on_musa(monkeypatch: pytest.MonkeyPatch, mimic: Path, on_musa: MusaStandIn, tmp_path: Path) -> None:
    monkeypatch.setenv("TORCHADA_BACKEND", "mcc")
    monkeypatch.setenv("TORCH_MUSA_ARCH_LIST", "22")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("TORCH_EXTENSIONS_DIR", raising=False)
    hook.install()
    includes = cpp_extension.include_paths(device_type="cuda")
    assert includes[0] == str(on_musa.home / "include") and str(mimic / "include") in includes
    assert cpp_extension.include_paths() == hook._STATE.originals["include_paths"]()
    assert cpp_extension.library_paths("cuda")[-1] == str(on_musa.home / "lib")
    extension = cpp_extension.CUDAExtension("pkg.ext", ["a.cpp", "k.cu"], libraries=["cublas"])
    assert "cudart" not in extension.libraries and "musart" in extension.libraries
    assert extension.libraries.count("musa_python") == 1 and "torch_cuda" not in extension.libraries
    assert "-Wl,-rpath,$ORIGIN/lib" in extension.extra_link_args
    assert cpp_extension._get_cuda_arch_flags([]) == []  # torchada-nvcc reads TORCH_MUSA_ARCH_LIST itself
    directory = Path(cpp_extension._get_build_directory("ext", False))
    assert directory.parent.name.endswith("_torchada_mcc") and directory.is_dir()
    assert tmp_path in directory.parents


def test_ninja_file_keeps_cuda_dependencies(monkeypatch: pytest.MonkeyPatch, mimic: Path, tmp_path: Path) -> None:
    monkeypatch.setenv("TORCHADA_BACKEND", "loopback")
    hook.install()
    path = tmp_path / "build.ninja"
    cpp_extension._write_ninja_file(
        path=str(path), cflags=[], post_cflags=[], cuda_cflags=["-Ix"], cuda_post_cflags=[],
        cuda_dlink_post_cflags=None, sycl_cflags=None, sycl_post_cflags=None, sycl_dlink_post_cflags=None,
        sources=[str(tmp_path / "k.cu")], objects=[str(tmp_path / "k.o")], ldflags=None, library_target=None,
        with_cuda=True, with_sycl=False,
    )
    rule = path.read_text().split("rule cuda_compile\n")[1].split("\n\n")[0]
    assert "depfile = $out.d" in rule and "deps = gcc" in rule and "$nvcc -MD -MF $out.d $cuda_cflags" in rule


# -- commands and CMake files --------------------------------------------------------------------


def test_cli_prints_cmake_dir_and_toolchain() -> None:
    for flag, expected in (("--cmake-dir", get_cmake_dir()), ("--toolchain", get_toolchain_file())):
        out = subprocess.run([sys.executable, "-m", "torchada_build", flag], capture_output=True, text=True, check=True)
        assert Path(out.stdout.strip()) == expected and expected.exists()
    assert (get_cmake_dir() / "TorchadaConfig.cmake").is_file()


def test_cli_reports_bad_configuration_in_one_line(tmp_path: Path) -> None:
    script = tmp_path / "setup.py"
    script.write_text("raise SystemExit('not reached')\n")
    out = subprocess.run(
        [sys.executable, "-m", "torchada_build", str(script)], capture_output=True, text=True,
        env={"TORCHADA_BACKEND": "rocm", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 1
    assert out.stderr == "torchada: error: TORCHADA_BACKEND must be mcc, nvcc or loopback, not 'rocm'; unset it for its default (docs/settings.md) [TA2022]\n"


def test_cmake_package_version_is_the_project_version() -> None:
    text = (get_cmake_dir() / "TorchadaConfigVersion.cmake").read_text()
    assert f'set(PACKAGE_VERSION "{importlib.metadata.version("torchada")}")' in text
