# find_package(Torchada): make torchada-nvcc the CUDA compiler of this project.
#
#   cmake -DTorchada_DIR="$(python -m torchada_build --cmake-dir)" ...
#   project(app LANGUAGES CXX)
#   find_package(Torchada REQUIRED)     # before enable_language(CUDA)
#   enable_language(CUDA)
#   find_package(CUDAToolkit REQUIRED)  # CUDA::cublas etc. now resolve to MUSA libraries
#
# Sets TORCHADA_NVCC and Torchada_CMAKE_DIR. A project that enables CUDA in project() itself uses the
# toolchain file (TorchadaToolchain.cmake, next to this file) instead; find_package(Torchada) then only
# checks that the CUDA compiler is torchada-nvcc.
include("${CMAKE_CURRENT_LIST_DIR}/TorchadaToolchain.cmake")
set(Torchada_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

get_property(_torchada_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
list(FIND _torchada_languages CUDA _torchada_cuda_enabled)
if(NOT _torchada_cuda_enabled EQUAL -1)
  get_filename_component(_torchada_compiler "${CMAKE_CUDA_COMPILER}" REALPATH)
  get_filename_component(_torchada_nvcc "${TORCHADA_NVCC}" REALPATH)
  if(NOT _torchada_compiler STREQUAL _torchada_nvcc)
    message(FATAL_ERROR
      "torchada: CUDA is already enabled with '${CMAKE_CUDA_COMPILER}'; call find_package(Torchada) before "
      "enable_language(CUDA), or configure with -DCMAKE_TOOLCHAIN_FILE=${CMAKE_CURRENT_LIST_DIR}/TorchadaToolchain.cmake")
  endif()
  unset(_torchada_compiler)
  unset(_torchada_nvcc)
endif()
unset(_torchada_languages)
unset(_torchada_cuda_enabled)
set(Torchada_FOUND TRUE)
