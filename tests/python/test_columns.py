"""The wire-format column codec agrees with protobuf's own field API."""

import numpy as np
import pytest

from throng import columns, pb


def test_varints_round_trip_every_width():
    values = np.array([0, 1, 127, 128, 300, 16383, 16384, 2**21, 2**28 - 1, 2**28, 2**32 - 1,
                       2**35, 2**63, 2**64 - 1], dtype=np.uint64)
    encoded = columns.encode_varints(values)
    assert np.array_equal(columns.decode_varints(encoded), values)
    # protobuf agrees byte for byte on the uint32 values
    batch = pb.AgentBatch()
    batch.id.extend(int(v) for v in values if v < 2**32)
    small = values[values < 2**32]
    assert columns.encode(pb.AgentBatch, {"id": small}) == batch.SerializeToString()


def test_agent_batch_matches_protobuf():
    rng = np.random.default_rng(7)
    n = 1000
    cols = {"id": rng.permutation(10**6)[:n].astype(np.uint32),
            "x": rng.normal(size=n).astype(np.float32), "y": rng.normal(size=n),
            "radius": np.full(n, 0.3), "flags": rng.integers(0, 4, n)}
    batch = columns.fill(pb.AgentBatch(), cols)
    ref = pb.AgentBatch()
    ref.id.extend(cols["id"].tolist())
    ref.x.extend(cols["x"].tolist())
    ref.y.extend(cols["y"].astype(np.float32).tolist())
    ref.radius.extend([0.3] * n)
    ref.flags.extend(cols["flags"].tolist())
    assert batch == ref
    back = columns.decode(batch)
    assert back["id"].dtype == np.uint32 and np.array_equal(back["id"], cols["id"])
    assert back["x"].dtype == np.float32 and np.array_equal(back["x"], cols["x"])
    assert back["z"].size == 0  # absent column: empty
    back["x"][0] = 5.0  # writable


def test_decode_results_with_non_finite_values():
    res = pb.VehicleResults()
    res.clear_distance.extend([float("inf"), 3.5])
    res.steering.extend([-1.0, 1.0])
    out = columns.decode(res)
    assert np.isinf(out["clear_distance"][0]) and out["steering"].tolist() == [-1.0, 1.0]


def test_fill_replaces_previous_columns():
    batch = columns.fill(pb.AgentBatch(), {"id": [1, 2], "x": [0, 1], "y": [0, 1]})
    columns.fill(batch, {"id": [3], "x": [2], "y": [2]})
    assert list(batch.id) == [3] and list(batch.x) == [2.0]


@pytest.mark.parametrize("cols, message", [
    ({"nope": [1]}, "no column 'nope'"),
    ({"id": [-1]}, "out of range"),
    ({"id": [1.5]}, "integer column"),
    ({"x": [[1.0]]}, "one-dimensional"),
])
def test_bad_columns_are_refused_client_side(cols, message):
    with pytest.raises(ValueError, match=message):
        columns.encode(pb.AgentBatch, cols)
