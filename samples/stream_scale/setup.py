# A CUDA extension whose host .cpp uses at::cuda and c10::cuda. Build it for MUSA without editing a line:
#   python -m torchada_build setup.py build_ext --inplace
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="stream_scale",
    ext_modules=[CUDAExtension("stream_scale", ["stream_scale.cpp", "stream_scale_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
