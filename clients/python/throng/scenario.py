"""Scenarios for the client: the engine's named scenarios (kernels/scenarios/scenario.h) as
a WorldConfig message plus the initial snapshot as numpy columns.

The client's form is JSON written by `throng-scenario <name> --size N --seed S --proto -o f`
(clients/cpp/scenario_tool.cpp): {"format": "throng.v1", "name", "size", "seed",
"suggested_ticks", "config": WorldConfig in proto JSON (field names as in the proto),
"initial": {"tick", "dt", "agents": AgentBatch columns, "vehicles": VehicleBatch columns,
"forward": ForwardBatch columns}}.
The columns are plain JSON lists, read straight into numpy (json_format would walk them
element by element). The library's own JSON (ScenarioToJson) is converted by the tool.
"""

import dataclasses
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np
from google.protobuf import json_format

from throng.v1 import simulation_pb2 as pb

FORMAT = "throng.v1"


@dataclasses.dataclass
class Scenario:
    name: str
    size: int
    seed: int
    config: object            # pb.WorldConfig
    tick: int                 # of the initial snapshot
    dt: float                 # s, the scenario's time step
    agents: dict              # AgentBatch field name -> numpy array
    vehicles: dict            # VehicleBatch field name -> numpy array
    suggested_ticks: int = 0
    forward: dict = dataclasses.field(default_factory=dict)  # ForwardBatch columns


def _columns(message_cls, obj):
    out = {}
    for field in message_cls.DESCRIPTOR.fields:
        values = obj.get(field.name)
        if values:
            dtype = np.float32 if field.type == field.TYPE_FLOAT else np.uint32
            # Proto JSON spells non-finite floats as strings ("Infinity", "NaN"). A load-time
            # scan, not the per-tick path.
            if dtype is np.float32 and any(isinstance(v, str) for v in values):
                values = [float(v) for v in values]
            out[field.name] = np.asarray(values, dtype=dtype)
    unknown = set(obj) - set(message_cls.DESCRIPTOR.fields_by_name)
    if unknown:
        raise ValueError(f"scenario: unknown {message_cls.DESCRIPTOR.name} columns {sorted(unknown)}")
    return out


def scenario_from_dict(doc):
    if doc.get("format") != FORMAT:
        raise ValueError(f"scenario: format is {doc.get('format')!r}, expected {FORMAT!r} "
                         "(write it with throng-scenario --proto)")
    initial = doc.get("initial", {})
    return Scenario(
        name=doc.get("name", ""), size=int(doc.get("size", 0)), seed=int(doc.get("seed", 0)),
        config=json_format.ParseDict(doc["config"], pb.WorldConfig()),
        tick=int(initial.get("tick", 0)), dt=float(initial.get("dt", 0.1)),
        agents=_columns(pb.AgentBatch, initial.get("agents", {})),
        vehicles=_columns(pb.VehicleBatch, initial.get("vehicles", {})),
        suggested_ticks=int(doc.get("suggested_ticks", 0)),
        forward=_columns(pb.ForwardBatch, initial.get("forward", {})))


def load_scenario(path, tool=None):
    """A scenario file in either form: throng.v1 proto JSON, or the engine library's own
    (ScenarioToJson, {"version": ...}), which the throng-scenario tool converts."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != FORMAT and "version" in doc:
        doc = _run_tool(tool, ["--from", path])
    return scenario_from_dict(doc)


def _run_tool(tool, args):
    """throng-scenario ARGS --proto, its JSON document."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "scenario.json")
        proc = subprocess.run([find_tool(tool), *args, "--proto", "-o", out],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise ValueError(f"throng-scenario {' '.join(args)}: "
                             f"{proc.stderr.strip() or proc.stdout.strip()}")
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def find_tool(tool=None):
    """The throng-scenario binary: `tool`, $THRONG_SCENARIO_TOOL, PATH, or the default
    build folder of this checkout."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for candidate in (tool, os.environ.get("THRONG_SCENARIO_TOOL"), shutil.which("throng-scenario"),
                      os.path.join(repo, "build", "clients", "cpp", "throng-scenario")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("throng-scenario not found: build the CMake target throng-scenario "
                            "or set THRONG_SCENARIO_TOOL")


def make_scenario(name, size, seed=1, tool=None):
    """Generates a named scenario ("circle", "random", "corridor", "crossing", "town",
    "flock", "drones", "bottleneck_1m", "bottleneck_2m", "blocks", "u_trap", "rimea_6",
    "rimea_9", "rimea_9_two_exits", "two_exits", "blocks_navigate", "crossing_navigate") with
    the engine's scenario library, through the throng-scenario tool."""
    return scenario_from_dict(_run_tool(tool, [name, "--size", str(size), "--seed", str(seed)]))
