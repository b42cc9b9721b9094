# samples/vector_add built by setuptools itself (BuildExtension without ninja): the tests copy the
# sample and put this file in place of its setup.py.
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
    cmdclass={"build_ext": BuildExtension.with_options(use_ninja=False)},
)
