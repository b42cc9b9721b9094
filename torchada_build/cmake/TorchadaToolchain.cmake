# torchada's CMake toolchain file: CUDA code is compiled by torchada-nvcc, so `project(x LANGUAGES CUDA)`,
# CMAKE_CUDA_ARCHITECTURES and the CUDA:: targets of FindCUDAToolkit work unchanged and build for MUSA.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE="$(python -m torchada_build --toolchain)" -S . -B build
#
# torchada-nvcc is taken from -DTORCHADA_NVCC=<path>, else from the Python environment that holds this
# file, else from PATH. It reports the toolkit mimic as its CUDA root (`nvcc -v` prints `#$ TOP=`), so
# CUDA::cudart, CUDA::cublas, CUDA::curand and CUDA::cuda_driver resolve to the MUSA libraries there.
# On an NVIDIA machine torchada-nvcc passes everything to the real nvcc, untouched.
include_guard(GLOBAL)

# Try-compile projects re-read this file: hand them the driver found by the top-level configure.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TORCHADA_NVCC)

if(NOT TORCHADA_NVCC)
  # <prefix>/lib/pythonX.Y/site-packages/torchada_build/cmake -> <prefix>/bin
  get_filename_component(_torchada_prefix "${CMAKE_CURRENT_LIST_DIR}/../../../../.." ABSOLUTE)
  find_program(TORCHADA_NVCC NAMES torchada-nvcc HINTS "${_torchada_prefix}/bin"
               DOC "torchada-nvcc, the nvcc-compatible driver that builds CUDA code for MUSA")
  unset(_torchada_prefix)
endif()
if(NOT TORCHADA_NVCC)
  message(FATAL_ERROR "torchada: cannot find torchada-nvcc; put it on PATH or pass -DTORCHADA_NVCC=<path>")
endif()

get_property(_torchada_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CUDA" IN_LIST _torchada_languages AND NOT CMAKE_CUDA_COMPILER)
  set(CMAKE_CUDA_COMPILER "${TORCHADA_NVCC}")
endif()
unset(_torchada_languages)
