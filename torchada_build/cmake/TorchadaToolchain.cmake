# torchada's CMake toolchain file: CUDA code is compiled by torchada-nvcc, so `project(x LANGUAGES CUDA)`,
# CMAKE_CUDA_ARCHITECTURES and the CUDA:: targets of FindCUDAToolkit work unchanged and build for MUSA.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE="$(python -m torchada_build --toolchain)" -S . -B build
#
# torchada-nvcc is taken from -DTORCHADA_NVCC=<path>, else from the Python environment that holds this
# file, else from PATH. It reports the toolkit mimic as its CUDA root (`nvcc -v` prints `#$ TOP=`), so
# CUDA::cudart, CUDA::cublas, CUDA::curand and CUDA::cuda_driver resolve to the MUSA libraries there.
# C and C++ sources call the CUDA API too (<cuda_runtime.h>, cudaMalloc): torchada-host-compile, from
# the same place, goes in front of their compiler (before a launcher such as ccache given with
# -DCMAKE_CXX_COMPILER_LAUNCHER) and compiles a translated copy.
# On an NVIDIA machine both pass everything to the real compilers, untouched. In loopback (verification),
# CUDA::cublas and the other libraries of NVIDIA's pip wheels are the wheels' own files, so the binaries
# get a RUNPATH to them (`torchada-nvcc --torchada-info=cmake` says which).
include_guard(GLOBAL)

# Try-compile projects re-read this file: hand them the driver found by the top-level configure.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TORCHADA_NVCC TORCHADA_HOST_COMPILE)

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

if(NOT TORCHADA_HOST_COMPILE)
  get_filename_component(_torchada_bin "${TORCHADA_NVCC}" DIRECTORY)
  find_program(TORCHADA_HOST_COMPILE NAMES torchada-host-compile HINTS "${_torchada_bin}"
               DOC "torchada-host-compile, which translates C and C++ sources in front of their compiler")
  unset(_torchada_bin)
endif()
if(NOT TORCHADA_HOST_COMPILE)
  message(FATAL_ERROR "torchada: cannot find torchada-host-compile next to ${TORCHADA_NVCC} or on PATH; "
                      "pass -DTORCHADA_HOST_COMPILE=<path>")
endif()

# torchada's programs run in the Python environment they are installed in. A build run with PYTHONPATH
# set (pip's build isolation, `pip wheel .`, sets one whose sitecustomize hides every other environment,
# torchada's too) runs them through wrappers in the build tree that unset it for them alone; the build's
# own Python commands keep it.
get_property(_torchada_in_try_compile GLOBAL PROPERTY IN_TRY_COMPILE)
if(NOT _torchada_in_try_compile AND NOT "$ENV{PYTHONPATH}" STREQUAL "")
  set(_torchada_wrappers "${CMAKE_BINARY_DIR}/CMakeFiles/torchada")
  foreach(_torchada_program TORCHADA_NVCC TORCHADA_HOST_COMPILE)
    get_filename_component(_torchada_name "${${_torchada_program}}" NAME)
    if(NOT "${${_torchada_program}}" STREQUAL "${_torchada_wrappers}/${_torchada_name}")
      file(WRITE "${_torchada_wrappers}/staging/${_torchada_name}"
           "#!/bin/sh\n# Written by TorchadaToolchain.cmake: ${_torchada_name} without the build's PYTHONPATH.\n"
           "unset PYTHONPATH\nexec '${${_torchada_program}}' \"$@\"\n")
      file(COPY "${_torchada_wrappers}/staging/${_torchada_name}" DESTINATION "${_torchada_wrappers}/staged"
           FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
      file(RENAME "${_torchada_wrappers}/staged/${_torchada_name}" "${_torchada_wrappers}/${_torchada_name}")
      set(${_torchada_program} "${_torchada_wrappers}/${_torchada_name}" CACHE FILEPATH
          "${_torchada_name} run without the build's PYTHONPATH" FORCE)
    endif()
  endforeach()
  file(REMOVE_RECURSE "${_torchada_wrappers}/staging" "${_torchada_wrappers}/staged")
  unset(_torchada_wrappers)
  unset(_torchada_program)
  unset(_torchada_name)
endif()

# Written for any policy setting: projects with cmake_minimum_required(VERSION 3.0) read this file too
# (IN_LIST needs CMP0057, quoted if() arguments CMP0054).
get_property(_torchada_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
list(FIND _torchada_languages CUDA _torchada_cuda_enabled)
if(_torchada_cuda_enabled EQUAL -1 AND NOT CMAKE_CUDA_COMPILER)
  set(CMAKE_CUDA_COMPILER "${TORCHADA_NVCC}")
endif()
unset(_torchada_languages)
unset(_torchada_cuda_enabled)

# Not in try-compile projects: CMake's compiler checks would record the translated compile's include
# directories as the compiler's own.
if(NOT _torchada_in_try_compile)
  execute_process(COMMAND "${TORCHADA_NVCC}" --torchada-info=cmake RESULT_VARIABLE _torchada_status
                  OUTPUT_VARIABLE _torchada_cmake ERROR_VARIABLE _torchada_error)
  if(NOT _torchada_status EQUAL 0)
    string(STRIP "${_torchada_error}" _torchada_error)
    message(FATAL_ERROR "torchada: ${TORCHADA_NVCC} --torchada-info=cmake failed: ${_torchada_error}")
  endif()
  cmake_language(EVAL CODE "${_torchada_cmake}")
  unset(_torchada_status)
  unset(_torchada_cmake)
  unset(_torchada_error)
  foreach(_torchada_language C CXX)
    if(NOT DEFINED CMAKE_${_torchada_language}_COMPILER_LAUNCHER
       AND DEFINED ENV{CMAKE_${_torchada_language}_COMPILER_LAUNCHER})
      set(CMAKE_${_torchada_language}_COMPILER_LAUNCHER "$ENV{CMAKE_${_torchada_language}_COMPILER_LAUNCHER}")
    endif()
    set(CMAKE_${_torchada_language}_COMPILER_LAUNCHER
        "${TORCHADA_HOST_COMPILE}" -- ${CMAKE_${_torchada_language}_COMPILER_LAUNCHER})
  endforeach()
  unset(_torchada_language)
endif()
unset(_torchada_in_try_compile)
