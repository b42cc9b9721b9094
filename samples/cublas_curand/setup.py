# A pybind11 extension that calls cuBLAS and cuRAND. Build it for MUSA without editing a line:
#   python -m torchada_build setup.py build_ext --inplace
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="blas_rand",
    ext_modules=[
        CUDAExtension(
            "blas_rand",
            ["blas_rand.cpp", "blas_rand_kernels.cu"],
            libraries=["cublas", "curand"],
            extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O2", "-lineinfo"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
