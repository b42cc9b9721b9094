"""torchada_build: points existing build systems (setuptools, JIT, CMake, Make) at torchada-nvcc.

Terms:

* **backend** (:mod:`.platform`): ``mcc`` (build for MUSA), ``nvcc`` (pass through to CUDA, untouched) or
  ``loopback`` (verify: translate as for MUSA, compile with the real nvcc); torchada-nvcc's own choice,
  plus "torch_musa is installed" for torch extensions.
* **toolkit mimic**: the CUDA root that the driver writes for a backend; its ``bin/nvcc`` is torchada-nvcc.
* **the seam** (:mod:`.cpp_extension`): :func:`~.cpp_extension.install` rebinds a few names of
  ``torch.utils.cpp_extension`` so unchanged ``CUDAExtension``/``BuildExtension``/``load()``/``load_inline()``
  builds compile through torchada-nvcc with torch_musa's include dirs, libraries and rpaths (:mod:`.settings`).
* **CMake package** (:mod:`.commands`): ``TorchadaToolchain.cmake`` and ``TorchadaConfig.cmake``.
* **start-up hook** (:mod:`.startup`, run by ``torchada.pth`` in every Python of the environment): on a
  MUSA machine, installs the seam when a build imports ``torch.utils.cpp_extension`` (:mod:`.activation`),
  so ``pip install`` of an unchanged project builds for MUSA; :mod:`.build_record` notes it in the wheel.

Example::

    $ python -m torchada_build setup.py build_ext --inplace       # an unchanged setup.py, for MUSA
    $ cmake -DCMAKE_TOOLCHAIN_FILE="$(python -m torchada_build --toolchain)" -S . -B build

Nothing is imported here: ``torchada_build.compilers`` (the driver) shares this package and starts fast,
and the start-up hook imports this package in every interpreter.
"""

__all__: "list[str]" = []  # no __future__ import: the start-up hook imports this package in every Python
