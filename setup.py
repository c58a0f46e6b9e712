"""Build hook: compile the numba kernels into the wheel (see ``ruby_metric/kernels.py``).

Everything else about the package is in ``pyproject.toml``. After ``build_py`` has copied the
sources, ``python -m ruby_metric.kernels`` runs on the built copy, so numba writes its cache
files next to the built sources and the wheel carries them: the first run after
``pip install`` loads the kernels (about 0.3 s) instead of compiling them (about 25 s).
If the kernels cannot be built here (numba missing from the build environment, no
``--no-build-isolation`` dependencies), the build goes on without them and the first run
compiles, as before.
"""

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithKernels(build_py):
    """``build_py``, then the numba kernels compiled into the build directory."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install compiles in its source tree on first use
        env = dict(os.environ)
        # pip's isolated build environment reaches the child through PYTHONPATH: keep it
        path = [os.path.abspath(self.build_lib), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # numba's cache files only, no .pyc
        env.pop("NUMBA_CACHE_DIR", None)  # the cache must land next to the built sources
        env.pop("NUMBA_DISABLE_JIT", None)
        try:
            subprocess.run(
                [sys.executable, "-m", "ruby_metric.kernels"],
                env=env,
                cwd=self.build_lib,
                check=True,
                timeout=1800,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            self.warn(f"numba kernels not precompiled ({exc}); the first run will compile them")


setup(cmdclass={"build_py": BuildPyWithKernels})
