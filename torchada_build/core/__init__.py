"""The facts every part of torchada shares, standard library only: the error tree (:mod:`.errors`), files
written atomically (:mod:`.files`) and the ``TORCHADA_*`` settings (:mod:`.settings`). The translator
(:mod:`hipify_like`), the driver (:mod:`torchada_build.compilers`), the build integration and the runtime
(:mod:`torchada`) import these and nothing of each other's for them.
"""
