"""Builds htpscope's Python extension with the project's CMake.

`pip install .` runs this through setuptools: it configures a Release tree in
build/python (tests and benchmarks off), builds the target `_htpscope` and
copies the module into the wheel beside python/htpscope.

HTPSCOPE_BUILD_DIR=<dir> reuses an already configured tree (e.g. the test
script's build/werror) instead: only `_htpscope` is built there, against the
Python that runs pip.  HTPSCOPE_BUILD_JOBS sets the build's parallelism
(default: the machine's cores).
"""

import os
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def configured_for(build_dir, python):
    """Whether build_dir's CMake cache has the extension on for `python`."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as cache:
            lines = [line.rstrip("\n") for line in cache if "=" in line and line[0] not in "#/"]
    except OSError:
        return False
    entries = {}
    for line in lines:  # NAME:TYPE=VALUE
        key, value = line.split("=", 1)
        entries[key.split(":", 1)[0]] = value
    cached = entries.get("Python3_EXECUTABLE")
    return (
        bool(cached)
        and os.path.realpath(cached) == os.path.realpath(python)
        and entries.get("HTPSCOPE_PYTHON") == "ON"
    )


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def run(self):
        for ext in self.extensions:
            self.build_cmake(ext)

    def build_cmake(self, ext):
        cmake = shutil.which("cmake")
        if not cmake:
            raise RuntimeError("htpscope: cmake not found (Debian: apt-get install cmake ninja-build)")
        # The interpreter a venv was made from, not the venv's link to it,
        # so that a reused tree keeps working when the venv is gone.
        python = getattr(sys, "_base_executable", None) or sys.executable
        reuse = os.environ.get("HTPSCOPE_BUILD_DIR")
        if reuse:
            build_dir = os.path.abspath(reuse)
            if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
                raise RuntimeError(f"HTPSCOPE_BUILD_DIR={reuse}: not a configured CMake build tree")
            configure = [cmake, f"-DPython3_EXECUTABLE={python}", "-DHTPSCOPE_PYTHON=ON", build_dir]
        else:
            build_dir = os.path.join(ROOT, "build", "python")
            configure = [cmake, "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                         "-DHTPSCOPE_BUILD_TESTS=OFF", "-DHTPSCOPE_BUILD_BENCHMARKS=OFF",
                         "-DHTPSCOPE_PYTHON=ON", f"-DPython3_EXECUTABLE={python}"]
            if shutil.which("ninja") and not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
                configure += ["-G", "Ninja"]
        # A tree already configured for this Python is only built (the build
        # re-runs CMake itself when a CMakeLists.txt changed).
        if not configured_for(build_dir, python):
            subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
        jobs = os.environ.get("HTPSCOPE_BUILD_JOBS") or str(os.cpu_count() or 1)
        try:
            subprocess.run([cmake, "--build", build_dir, "--target", "_htpscope", "-j", jobs],
                           check=True)
        except subprocess.CalledProcessError:
            raise RuntimeError(
                f"htpscope: building the Python extension in {build_dir} failed; if the target "
                "_htpscope is unknown, CMake skipped the extension (it needs pybind11-dev and "
                "python3-dev: see its configure messages)"
            ) from None

        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = os.path.join(build_dir, "python", "htpscope", "_htpscope" + suffix)
        if not os.path.isfile(built):
            raise RuntimeError(
                f"htpscope: {built} was not built: the CMake tree has no Python extension for "
                f"this Python ({python}, {suffix}); see the configure messages above"
            )
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)
        shutil.copymode(built, target)


setup(
    ext_modules=[CMakeExtension("htpscope._htpscope")],
    cmdclass={"build_ext": CMakeBuild},
)
