"""Behaviours chosen per agent and follower profiles chosen per vehicle, over gRPC from the
Python client: each behaviour moves its agent its own way, the world's default applies
where the column says nothing, profiles change only the vehicles that name them, and bad
values are INVALID_ARGUMENT naming field and index."""

import numpy as np
import pytest

import throng
from throng import columns, pb

ARRIVE, SEEK, FLEE, PREFERRED = (pb.BEHAVIOR_ARRIVE, pb.BEHAVIOR_SEEK, pb.BEHAVIOR_FLEE,
                                 pb.BEHAVIOR_PREFERRED_VELOCITY)


def lone_agents(behavior, goal_x=10.0):
    """Agents 100 m apart (no avoidance between them), goals 10 m along +x from each start,
    preferred velocity 0.5 m/s along +y."""
    n = len(behavior)
    y = 100.0 * np.arange(n)
    return {"id": np.arange(n), "x": np.zeros(n), "y": y, "goal_x": np.full(n, goal_x),
            "goal_y": y, "pref_vx": np.zeros(n), "pref_vy": np.full(n, 0.5),
            "behavior": np.asarray(behavior, dtype=np.uint32)}


def run(client, world, agents, ticks, dt=0.1):
    """Step once with integration, Advance the rest; the state as arrays."""
    client.step(world, 1, dt, agents=agents, integrate=True)
    client.advance(world, ticks - 1, dt)
    return columns.decode(client.get_world(world, include_state=True).agents)


def test_each_behavior_over_the_wire(client):
    world = client.create_world({"name": "behaviours"}).world_id
    state = run(client, world, lone_agents([ARRIVE, SEEK, FLEE, PREFERRED, 0]), 60)
    x, y = state["x"], state["y"]
    assert x[0] > 6.0 and x[1] >= x[0]            # arrive and seek head for the goal
    assert x[2] < -6.0                            # flee runs from it
    assert abs(x[3]) < 1e-3 and y[3] == pytest.approx(303.0, abs=0.05)  # pref_v as given
    assert x[4] == x[0]                           # by columns, with goals: arrive
    np.testing.assert_array_equal(state["behavior"], [ARRIVE, SEEK, FLEE, PREFERRED, 0])
    client.delete_world(world)


def test_seek_overshoots_where_arrive_stops(client):
    world = client.create_world({"name": "seek vs arrive"}).world_id
    client.step(world, 1, 0.1, agents=lone_agents([ARRIVE, SEEK], goal_x=3.0), integrate=True)
    farthest = 0.0
    for _ in range(60):
        last, _ = client.advance(world, 1, 0.1)
        farthest = max(farthest, float(last.agents["x"][1]))
    assert last.agents["x"][0] == pytest.approx(3.0, abs=0.02)
    assert farthest > 3.2
    client.delete_world(world)


def test_the_worlds_default_behavior(client):
    world = client.create_world({"defaults": {"agent_behavior": "BEHAVIOR_FLEE"}})
    info = client.get_world(world.world_id)
    assert info.config.defaults.agent_behavior == FLEE
    agents = lone_agents([0, SEEK])
    state = run(client, world.world_id, agents, 30)
    assert state["x"][0] < -2.0 and state["x"][1] > 2.0
    client.delete_world(world.world_id)


def test_bad_behaviors_name_field_and_index(client):
    world = client.create_world({}).world_id
    with pytest.raises(throng.InvalidArgument, match=r"agents\.behavior\[1\]: 9 is not a Behavior"):
        client.step(world, 1, 0.1, agents=lone_agents([ARRIVE, 9]))
    no_goals = {k: v for k, v in lone_agents([PREFERRED, FLEE]).items() if not k.startswith("goal")}
    with pytest.raises(throng.InvalidArgument, match=r"agents\.behavior\[1\]: flee needs the goal"):
        client.step(world, 1, 0.1, agents=no_goals)
    assert not client.get_world(world).info.has_state
    client.delete_world(world)


def lane_world(profiles):
    points = [{"x": 20.0 * k, "y": 0.0, "z": 0.0} for k in range(21)]
    return {"splines": [{"id": 7, "points": points}], "vehicle_profiles": profiles}


def test_a_profile_changes_only_the_vehicles_that_name_it(client):
    # Profile 1: no CTE term, steering by heading alone: a vehicle started 1.5 m off the
    # lane runs parallel to it, while the world's follower brings the other back.
    world = client.create_world(lane_world([{"crosstrack_gain": 0, "heading_weight": 1}]))
    reported = client.get_world(world.world_id).config.vehicle_profiles
    assert len(reported) == 1 and reported[0].HasField("crosstrack_gain")
    assert reported[0].crosstrack_gain == 0 and reported[0].heading_weight == 1
    vehicles = {"id": np.array([1, 2]), "x": np.array([10.0, 60.0]), "y": np.full(2, 1.5),
                "yaw": np.zeros(2), "speed": np.full(2, 8.0), "spline_id": np.full(2, 7),
                "profile": np.array([0, 1])}
    client.step(world.world_id, 1, 0.05, vehicles=vehicles, integrate=True)
    last, _ = client.advance(world.world_id, 100, 0.05)
    assert abs(last.vehicles["cte"][0]) < 0.2
    assert last.vehicles["cte"][1] == pytest.approx(-1.5, abs=0.1)
    with pytest.raises(throng.InvalidArgument, match=r"vehicles\.profile\[1\]: 2 but the world"):
        client.step(world.world_id, 200, 0.05, vehicles=dict(vehicles, profile=np.array([0, 2])))
    client.delete_world(world.world_id)
    with pytest.raises(throng.InvalidArgument, match=r"vehicle_profiles\[0\]\.heading_weight"):
        client.create_world(lane_world([{"heading_weight": 2}]))
