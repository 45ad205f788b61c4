"""Throng's Python client: numpy columns in and out over gRPC (docs/CLIENTS.md).

Installed (pip, the python3-throng package or cmake --install; docs/INSTALLING.md), the
generated stubs are the sub-package ``throng.v1`` inside this one. In the source tree they
are generated at build time (target ``throng_python``) into
``<build>/clients/python/gen/throng/v1``, so this package's path is extended with every
``throng`` directory on ``sys.path`` (put ``<build>/clients/python/gen`` there), and, as a
fallback for a checkout, with ``<repo>/build/clients/python/gen``.
"""

import os
import pkgutil

__path__ = pkgutil.extend_path(__path__, __name__)  # noqa: F821 (module attribute)


def _add_gen_dir():
    env = os.environ.get("THRONG_PY_GEN")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for gen in (env, os.path.join(repo, "build", "clients", "python", "gen")):
        if gen and os.path.isdir(os.path.join(gen, "throng", "v1")):
            sub = os.path.join(gen, "throng")
            if sub not in __path__:
                __path__.append(sub)
            return


_add_gen_dir()

try:
    from throng.v1 import simulation_pb2 as pb  # noqa: E402
except ImportError as e:  # pragma: no cover - a message for people, not a code path
    raise ImportError(
        "throng: generated stubs not found; build the CMake target throng_python and put "
        "<build>/clients/python/gen on PYTHONPATH (or set THRONG_PY_GEN to it)") from e

from throng.client import (  # noqa: E402
    Client, StepResult, ThrongError, InvalidArgument, NotFound, AlreadyExists,
    ResourceExhausted, Unauthenticated, FailedPrecondition, Unavailable, WORLD_ID_KEY)
from throng.scenario import Scenario, load_scenario, make_scenario  # noqa: E402

__all__ = [
    "pb", "Client", "StepResult", "ThrongError", "InvalidArgument", "NotFound", "AlreadyExists",
    "WORLD_ID_KEY",
    "ResourceExhausted", "Unauthenticated", "FailedPrecondition", "Unavailable",
    "Scenario", "load_scenario", "make_scenario",
]
