"""What the corpus reads from a build's output (``tests/real/corpus.py``), on output as builds print it."""

from __future__ import annotations

from pathlib import Path

from corpus import _findings, _first_error, _first_found

# pip -v indents what the build backend prints (scikit-build-core's CMake build, here).
PIP_VERBOSE = """\
  [7/23] /src/skbuild/CMakeFiles/torchada/torchada-nvcc -x cu -c /src/llama/ggml-cuda.cu -o ggml-cuda.cu.o
  /src/llama/ggml-cuda.cu:238:5: warning: 'CUDART_VERSION' needs manual porting (translated to 'MUSART_VERSION') [TA1002]
  /src/llama/ggml-cuda.cu:105:5: warning: 'CUDART_VERSION' needs manual porting (translated to 'MUSART_VERSION') [TA1002]
  /src/llama/ggml-cuda.cu:479:19: warning: 'WARP_SIZE' is 32, but MUSA warps are 128 lanes wide [TA1201]
/src/llama/ggml-cuda.cu:479:19: warning: 'WARP_SIZE' is 32, but MUSA warps are 128 lanes wide [TA1201]
  [8/23] Linking CXX shared library libggml_shared.so
"""


def test_findings_are_counted_where_pip_indents_the_build_output() -> None:
    assert _findings(PIP_VERBOSE) == {"TA1002": 2, "TA1201": 1}


def test_the_first_finding_of_each_id_is_the_first_in_path_and_line_order() -> None:
    first = _first_found(PIP_VERBOSE, Path("/src"))
    assert first == {
        "TA1002": "llama/ggml-cuda.cu:105: 'CUDART_VERSION' needs manual porting (translated to 'MUSART_VERSION')",
        "TA1201": "llama/ggml-cuda.cu:479: 'WARP_SIZE' is 32, but MUSA warps are 128 lanes wide",
    }


def test_the_first_error_is_the_compilers_not_the_build_tools() -> None:
    """nvcc pads its ``fatal`` with spaces; ninja's and setuptools' tracebacks come after it."""
    output = (
        "[1/1] /usr/local/cuda/bin/nvcc -c hash_cuda.cu -o hash_cuda.o -arch=compute_50\n"
        "nvcc fatal   : Unsupported gpu architecture 'compute_50'\n"
        "    raise CalledProcessError(retcode, process.args,\n"
        "subprocess.CalledProcessError: Command '['ninja', '-v', '-j', '2']' returned non-zero exit status 1.\n"
    )
    assert _first_error(output) == "nvcc fatal   : Unsupported gpu architecture 'compute_50'"
