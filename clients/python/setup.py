"""Builds the package with its gRPC stubs: throng/v1/simulation_pb2.py and
simulation_pb2_grpc.py are generated into the build folder from the API's .proto with
Debian's protoc and grpc_python_plugin (protobuf-compiler, protobuf-compiler-grpc), as the
CMake target throng_python does for the source tree. The metadata is in pyproject.toml."""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join("throng", "v1", "simulation.proto")


def proto_root():
    """$THRONG_PROTO_ROOT, else the repository's proto/ folder two levels up."""
    for root in (os.environ.get("THRONG_PROTO_ROOT"), os.path.join(HERE, "..", "..", "proto")):
        if root and os.path.isfile(os.path.join(root, PROTO)):
            return os.path.abspath(root)
    raise SystemExit(f"throng: {PROTO} not found; set THRONG_PROTO_ROOT to the folder "
                     "that holds it (proto/ in Throng's repository, or share/throng/proto "
                     "of an installed Throng)")


def tool(name, package):
    path = shutil.which(name)
    if not path:
        raise SystemExit(f"throng: {name} not found; install Debian's {package}")
    return path


class BuildWithStubs(build_py):
    def run(self):
        super().run()
        out = self.build_lib
        root = proto_root()
        subprocess.check_call([
            tool("protoc", "protobuf-compiler"), f"--proto_path={root}", f"--python_out={out}",
            f"--grpc_python_out={out}",
            "--plugin=protoc-gen-grpc_python=" + tool("grpc_python_plugin",
                                                      "protobuf-compiler-grpc"),
            os.path.join(root, PROTO)])
        open(os.path.join(out, "throng", "v1", "__init__.py"), "a").close()


setup(cmdclass={"build_py": BuildWithStubs})
