"""DeepSpeed's op builder JIT-builds FusedAdam (``FusedAdamBuilder().load()``, torch's ``load()`` inside), unchanged.

Prints ``LOADED`` when the module imports, ``LOAD_ERROR <first line>`` when it built but cannot be
imported (the MUSA stand-in's empty objects), ``BUILD_ERROR <first line>`` when it did not build.
"""

from deepspeed.ops.op_builder import FusedAdamBuilder

try:
    FusedAdamBuilder().load(verbose=True)
except ImportError as error:
    print("LOAD_ERROR", str(error).splitlines()[0], flush=True)
except RuntimeError as error:
    print("BUILD_ERROR", str(error).splitlines()[0], flush=True)
else:
    print("LOADED", flush=True)
