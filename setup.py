"""Builds arenaplan's extension module with CMake (python/CMakeLists.txt) for `pip install .`.

The build folder is build-python/ in the source tree (kept, so that rebuilds are incremental), or
$ARENAPLAN_BUILD_DIR to reuse an existing CMake build tree (CI reuses its plain build).
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def cached_python(build):
    """The interpreter an existing build tree was configured for (None for a fresh one)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("Python_EXECUTABLE:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def same_interpreter(a, b):
    # A venv's python is a link to its base interpreter: same headers, same module suffix, so a tree
    # built for the base needs no reconfiguration (which would rebuild the module).
    return a is not None and os.path.realpath(a) == os.path.realpath(b)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("ARENAPLAN_BUILD_DIR") or os.path.join(ROOT, "build-python")
        configure = ["cmake", "-S", ROOT, "-B", build, "-DARENAPLAN_PYTHON=ON"]
        if not same_interpreter(cached_python(build), sys.executable):
            configure.append("-DPython_EXECUTABLE=" + sys.executable)
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            configure += ["-G", "Ninja" if shutil.which("ninja") else "Unix Makefiles", "-DCMAKE_BUILD_TYPE=Release",
                          "-DARENAPLAN_BUILD_TESTS=OFF", "-DARENAPLAN_BUILD_BENCH=OFF"]
        try:  # pybind11's CMake files: Debian's pybind11-dev has them on CMake's path, a pip pybind11 here
            import pybind11
            configure.append("-Dpybind11_DIR=" + pybind11.get_cmake_dir())
        except ImportError:
            pass
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", build, "--target", "_arenaplan", "-j", jobs])
        built = os.path.join(build, "python", "arenaplan")
        module = next(f for f in os.listdir(built) if f.startswith("_arenaplan") and f.endswith(".so"))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, module), target)


setup(ext_modules=[Extension("arenaplan._arenaplan", sources=[])], cmdclass={"build_ext": CMakeBuild})
