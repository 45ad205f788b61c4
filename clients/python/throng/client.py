"""The gRPC client: worlds, steps and streams with numpy columns (docs/CLIENTS.md)."""

import dataclasses

import grpc
import numpy as np
from google.protobuf import json_format

from throng import columns
from throng.v1 import simulation_pb2 as pb
from throng.v1 import simulation_pb2_grpc as pb_grpc

# The metadata key under which every call that names a world carries its id (a proxy in
# front of several throngd routes by it).
WORLD_ID_KEY = "throng-world-id"


class ThrongError(Exception):
    """A failed call: `.code` is the grpc.StatusCode, `.message` the server's message."""

    def __init__(self, code, message):
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


class InvalidArgument(ThrongError):
    """Bad input; the message names the field and index ("agents.radius[3]: ...")."""


class NotFound(ThrongError):
    """Unknown world (a world is soft state: re-create it)."""


class AlreadyExists(ThrongError):
    """A world id that is taken on that server (CreateWorld or ImportWorld with an id)."""


class ResourceExhausted(ThrongError):
    """Over the server's limits (worlds, agents, message size)."""


class Unauthenticated(ThrongError):
    """Missing or wrong bearer token."""


class FailedPrecondition(ThrongError):
    """A backend the server cannot provide, or a world with no state to advance."""


class Unavailable(ThrongError):
    """No server at the address (or it went away)."""


_ERRORS = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
}


def _typed(error):
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    message = error.details() if hasattr(error, "details") else str(error)
    return _ERRORS.get(code, ThrongError)(code, message or "")


@dataclasses.dataclass
class StepResult:
    """One tick's answer. `agents`, `vehicles` and `forward` map AgentResults,
    VehicleResults and ForwardResults field names to numpy arrays in request order (empty
    when the server left a column out); `stats` is the TickStats message."""
    world_id: str
    tick: int
    agents: dict
    vehicles: dict
    stats: object
    forward: dict = dataclasses.field(default_factory=dict)

    @classmethod
    def from_proto(cls, response):
        forward = columns.decode(response.forward) if response.HasField("forward") else {}
        return cls(response.world_id, response.tick, columns.decode(response.agents),
                   columns.decode(response.vehicles), response.stats, forward)


def world_config(config):
    """A pb.WorldConfig from a WorldConfig, a dict in proto JSON form, or a Scenario."""
    if isinstance(config, pb.WorldConfig):
        return config
    if isinstance(config, dict):
        return json_format.ParseDict(config, pb.WorldConfig())
    if hasattr(config, "config") and isinstance(config.config, pb.WorldConfig):
        return config.config
    raise TypeError(f"world config: expected WorldConfig, dict or Scenario, got {type(config)}")


def _fill_request(req, agents, vehicles, integrate, debug, forward=None):
    if agents is not None:
        columns.fill(req.agents, agents)
    if vehicles is not None:
        columns.fill(req.vehicles, vehicles)
    if forward is not None:
        columns.fill(req.forward, forward)
    req.options.integrate = integrate
    req.options.debug = debug
    return req


def step_request(world_id, tick, dt, agents=None, vehicles=None, integrate=False, debug=False,
                 forward=None):
    """A pb.StepRequest from numpy columns (dicts of AgentBatch/VehicleBatch/ForwardBatch
    field names)."""
    req = pb.StepRequest(world_id=world_id, tick=tick, dt=dt)
    return _fill_request(req, agents, vehicles, integrate, debug, forward)


class Client:
    """A connection to throngd. Thread-safe (gRPC channels are)."""

    def __init__(self, address, token=None, tls_ca=None, timeout=None, max_message_mb=256):
        """`address` "host:port"; `token` a bearer token sent with every call; `tls_ca`
        the path of a PEM root certificate (TLS), else plaintext; `timeout` seconds per
        unary call; `max_message_mb` the largest request or reply, as throngd's
        --max-message-mb (gRPC's own default, 4 MB, is less than one navigation field of
        a million cells)."""
        limit = max_message_mb * 1024 * 1024
        options = [("grpc.max_receive_message_length", limit),
                   ("grpc.max_send_message_length", limit)]
        if tls_ca:
            with open(tls_ca, "rb") as f:
                creds = grpc.ssl_channel_credentials(root_certificates=f.read())
            self._channel = grpc.secure_channel(address, creds, options=options)
        else:
            self._channel = grpc.insecure_channel(address, options=options)
        # Metadata rather than call credentials: gRPC refuses those on plaintext channels,
        # and a loopback server with a token is a setup people use.
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()
        self._timeout = timeout
        self._stub = pb_grpc.SimulationStub(self._channel)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _routed(self, world_id):
        """The call's metadata: the token, and the world it names under WORLD_ID_KEY, which
        a proxy routes by (docs/OPERATIONS.md, "Many replicas")."""
        return self._metadata + ((WORLD_ID_KEY, world_id),) if world_id else self._metadata

    def _call(self, method, request, world_id=None):
        try:
            return getattr(self._stub, method)(request, metadata=self._routed(world_id),
                                               timeout=self._timeout)
        except grpc.RpcError as e:
            raise _typed(e) from None

    def wait_ready(self, timeout=10.0):
        """Blocks until the channel connects; raises Unavailable after `timeout` s."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise Unavailable(grpc.StatusCode.UNAVAILABLE, "server not ready") from None

    def create_world(self, config, name=None, backend=None, world_id=None):
        """Creates a world; returns its pb.WorldInfo (`.world_id`). `backend` is a
        pb.Backend value or a name ("cpu", "auto", ...). `world_id`: the world's id, chosen
        by the caller (behind a proxy that routes by world, name every world); None: the
        server names it."""
        cfg = pb.WorldConfig()
        cfg.CopyFrom(world_config(config))
        if name is not None:
            cfg.name = name
        if backend is not None:
            cfg.backend = (pb.Backend.Value(f"BACKEND_{backend.upper()}")
                           if isinstance(backend, str) else backend)
        return self._call("CreateWorld", pb.CreateWorldRequest(config=cfg, world_id=world_id or ""),
                          world_id)

    def step(self, world_id, tick, dt, agents=None, vehicles=None, integrate=False,
             debug=False, forward=None):
        """One tick on the given snapshot; returns a StepResult."""
        req = step_request(world_id, tick, dt, agents, vehicles, integrate, debug, forward)
        return StepResult.from_proto(self._call("Step", req, world_id))

    def stream(self, world_id, ticks):
        """Steps over one stream. `ticks` yields dicts with the keys of step() (tick, dt,
        agents, vehicles, forward, integrate, debug) or pb.StepRequest messages; it is consumed
        lazily, so it may wait on the previous result (a game loop). Yields StepResults;
        a rejected tick raises its typed error and ends the stream."""
        def requests():
            for t in ticks:
                yield t if isinstance(t, pb.StepRequest) else step_request(world_id, **t)

        responses = self._stub.StreamSteps(requests(), metadata=self._routed(world_id))
        try:
            for response in responses:
                yield StepResult.from_proto(response)
        except grpc.RpcError as e:
            raise _typed(e) from None
        finally:
            responses.cancel()

    def advance(self, world_id, ticks, dt):
        """Runs `ticks` integrated ticks server-side; returns (last StepResult, totals)."""
        resp = self._call("Advance", pb.AdvanceRequest(world_id=world_id, ticks=ticks, dt=dt),
                          world_id)
        return StepResult.from_proto(resp.last), resp.totals

    def get_world(self, world_id, include_state=False):
        """pb.GetWorldResponse; with include_state, columns.decode(resp.agents) gives the
        current state as arrays."""
        return self._call("GetWorld", pb.GetWorldRequest(world_id=world_id,
                                                         include_state=include_state), world_id)

    def list_worlds(self):
        """[pb.WorldInfo]"""
        return list(self._call("ListWorlds", pb.ListWorldsRequest()).worlds)

    def delete_world(self, world_id):
        self._call("DeleteWorld", pb.DeleteWorldRequest(world_id=world_id), world_id)

    def export_world(self, world_id):
        """pb.WorldExport: the world's whole state, to store (SerializeToString) or to
        import on this or another throngd (docs/SERVICE.md, "Moving a world")."""
        return self._call("ExportWorld", pb.ExportWorldRequest(world_id=world_id), world_id)

    def import_world(self, world_export, world_id=""):
        """A world from an export (pb.WorldExport or its serialized bytes), under its own
        id or `world_id`; returns its pb.WorldInfo."""
        if isinstance(world_export, (bytes, bytearray)):
            world_export = pb.WorldExport.FromString(bytes(world_export))
        return self._call("ImportWorld", pb.ImportWorldRequest(world_export=world_export,
                                                               world_id=world_id),
                          world_id or world_export.world_id)

    def navigation_field(self, world_id, target_id):
        """One navigation target's distance field (docs/NAVIGATION.md), as a dict:
        "distance" (a rows x columns float32 array, m; inf where the target cannot be
        reached), "origin" (x, y of the grid's corner), "cell" (m) and "target_id". Axes:
        the engine's internal ground plane, which is the caller's (x, y) in the default
        frame; throng.render.draw_field draws it."""
        f = self._call("GetNavigationField",
                       pb.GetNavigationFieldRequest(world_id=world_id, target_id=target_id),
                       world_id)
        distance = np.asarray(f.distance, dtype=np.float32).reshape(f.rows, f.columns)
        return {"target_id": f.target_id, "origin": (f.origin_x, f.origin_y), "cell": f.cell,
                "distance": distance}

    def solve(self, config, tick, dt, agents=None, vehicles=None, integrate=False,
              debug=False, forward=None):
        """Stateless one-shot: a configuration and one snapshot; returns a StepResult."""
        req = pb.SolveRequest(config=world_config(config), tick=tick, dt=dt)
        _fill_request(req, agents, vehicles, integrate, debug, forward)
        return StepResult.from_proto(self._call("Solve", req))
