"""The build's one piece that pyproject.toml cannot say: the solver's optional compiled core.

``optional=True``: where no C compiler is found the package still installs,
and the solver runs its pure-Python loop (scorpion_ref/solver/search.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scorpion_ref.solver._core",
            ["scorpion_ref/solver/_core.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
