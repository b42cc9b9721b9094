# An ordinary CUDA extension. Build it for MUSA without editing a line:
#   python -m torchada_build setup.py build_ext --inplace
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="vector_add",
    ext_modules=[
        CUDAExtension(
            "vector_add",
            ["vector_add.cpp", "vector_add_kernel.cu"],
            extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O2", "--use_fast_math"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
