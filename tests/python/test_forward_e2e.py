"""Forward-moving agents over gRPC from the Python client (docs/ALGORITHMS.md §4, the cast
fan): a ground agent turns away from a wall ahead instead of entering it, a drone in a 3D
cone world flies around a sphere toward its goal, and bad columns are INVALID_ARGUMENT
naming field and index."""

import numpy as np
import pytest

import throng
from throng import columns

DT = 0.1


def one_agent(**columns_):
    """A ForwardBatch of one agent as numpy columns."""
    return {k: np.atleast_1d(np.asarray(v)) for k, v in dict(id=1, **columns_).items()}


def position(forward):
    return np.array([forward["x"][0], forward["y"][0],
                     forward["z"][0] if forward["z"].size else 0.0])


def rectangle_distance(p, lo, hi):
    """Distance from ground point p to the axis-aligned rectangle [lo, hi] (0 inside)."""
    d = np.maximum(np.maximum(lo - p, 0.0), p - hi)
    return float(np.hypot(*d))


def test_a_ground_agent_turns_away_from_a_wall_ahead(client):
    # A 2 m thick wall 4 m ahead, 6 m wide: going straight on at 1 m/s, the agent would be
    # inside it after 40 ticks.
    lo, hi = np.array([4.0, -3.0]), np.array([6.0, 3.0])
    wall = {"vertices": [{"x": 4, "y": -3}, {"x": 6, "y": -3}, {"x": 6, "y": 3}, {"x": 4, "y": 3}]}
    world = client.create_world({"name": "wall ahead", "obstacles": [wall]}).world_id
    radius = 0.5
    agent = one_agent(x=0.0, y=0.0, forward_x=1.0, forward_y=0.0, speed=1.0, radius=radius)
    first = client.step(world, 1, DT, forward=agent, integrate=True)
    f = first.forward
    assert f["probe"].size == 1 and f["probe"][0] != 0  # it turns at once
    assert np.hypot(f["move_x"][0], f["move_y"][0]) == pytest.approx(1.0, abs=1e-5)
    assert f["x"][0] == pytest.approx(DT * f["move_x"][0], abs=1e-6)
    assert f["y"][0] == pytest.approx(DT * f["move_y"][0], abs=1e-6)
    assert first.stats.forward_agents == 1
    travelled = 0.0
    previous = position(f)
    for _ in range(49):
        last, totals = client.advance(world, 1, DT)
        p = position(last.forward)
        travelled += float(np.linalg.norm(p - previous))
        previous = p
        assert rectangle_distance(p[:2], lo, hi) > radius, p  # never touching the wall
    assert travelled == pytest.approx(49 * DT * 1.0, rel=1e-4)  # at its speed all along
    assert totals.forward_in_obstacles == 0
    assert last.tick == 50
    state = columns.decode(client.get_world(world, include_state=True).forward)
    np.testing.assert_array_equal(state["id"], [1])
    assert state["x"][0] == last.forward["x"][0] and state["y"][0] == last.forward["y"][0]
    client.delete_world(world)


def test_a_drone_flies_around_a_sphere_to_its_goal(client):
    centre, sphere_radius, drone_radius = np.array([10.0, 0.0, 5.0]), 2.0, 0.5
    goal = np.array([20.0, 0.0, 5.0])
    world = client.create_world({
        "name": "sphere in the way", "forward": {"mode": "FAN_MODE_CONE"},
        "spheres": [{"center": {"x": 10, "y": 0, "z": 5}, "radius": sphere_radius}]}).world_id
    assert client.get_world(world).config.forward.mode == throng.pb.FAN_MODE_CONE
    drone = one_agent(x=0.0, y=0.0, z=5.0, forward_x=1.0, forward_y=0.0, forward_z=0.0,
                      speed=2.0, radius=drone_radius, goal_x=goal[0], goal_y=goal[1],
                      goal_z=goal[2])
    step = client.step(world, 1, DT, forward=drone, integrate=True)
    start_to_goal = float(np.linalg.norm(goal - [0.0, 0.0, 5.0]))
    distances = [float(np.linalg.norm(position(step.forward) - centre))]
    closest_to_goal = start_to_goal
    for _ in range(99):
        last, _ = client.advance(world, 1, DT)
        p = position(last.forward)
        distances.append(float(np.linalg.norm(p - centre)))
        closest_to_goal = min(closest_to_goal, float(np.linalg.norm(p - goal)))
    assert min(distances) > sphere_radius + drone_radius  # never touches the sphere
    assert min(distances) < sphere_radius + drone_radius + 1.0  # but went past it, close
    assert closest_to_goal < 1.0  # and got to the goal behind it
    client.delete_world(world)


def test_bad_forward_columns_name_field_and_index(client):
    world = client.create_world({}).world_id
    agents = {"id": np.arange(2), "x": np.zeros(2), "y": np.array([0.0, 10.0]),
              "forward_x": np.ones(2), "forward_y": np.zeros(2), "speed": np.array([1.0, 0.0])}
    with pytest.raises(throng.InvalidArgument, match=r"forward\.speed\[1\]: must be at least"):
        client.step(world, 1, DT, forward=agents)
    with pytest.raises(throng.InvalidArgument, match=r"forward\.speed: 1 value for 2 forward"):
        client.step(world, 1, DT, forward=dict(agents, speed=np.array([1.0])))
    with pytest.raises(throng.InvalidArgument, match=r"forward\.probes\[0\]: must be within"):
        client.step(world, 1, DT, forward=dict(agents, speed=np.ones(2),
                                               probes=np.array([65, 9], np.uint32)))
    assert not client.get_world(world).info.has_state
    with pytest.raises(throng.InvalidArgument, match=r"forward\.mode: 7 is not a FanMode"):
        client.create_world({"forward": {"mode": 7}})
    with pytest.raises(throng.InvalidArgument, match=r"obstacles\[0\]\.top: missing while base"):
        client.create_world({"obstacles": [{"vertices": [{"x": 0}, {"x": 1}], "base": 1.0}]})
    client.delete_world(world)
