"""The one part of the build pyproject.toml cannot say stably: the solver's compiled kernel.

``perudo.solve._cfr`` is plain C (no Python API) loaded with ctypes by
:mod:`perudo.solve.native`. It is optional: without a C compiler the install still succeeds
and the solver runs its numpy kernel (``perudo.solve.native.available()`` says which).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "perudo.solve._cfr",
            sources=["src/perudo/solve/_cfr.c"],
            depends=["src/perudo/solve/_cfr_kernel.h"],
            # Built where it runs (pip install on the solving machine): -march=native lets
            # the loops over hands use the machine's vector instructions. OpenMP splits each
            # update over the cores.
            extra_compile_args=[
                "-O3",
                "-march=native",
                "-std=gnu11",
                "-fno-math-errno",
                "-fopenmp",
            ],
            extra_link_args=["-fopenmp"],
            libraries=["m"],
            optional=True,
        )
    ]
)
