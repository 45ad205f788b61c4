// Structure-aware mutations of API messages. The value mutators walk a message by
// protobuf reflection, so every float column and configuration field is reachable
// without a list to keep in step with the .proto; each returns what it did, in the
// request's own spelling ("agents.y[1] = 3.4e+38"), for the reproducer.
#pragma once

#include <google/protobuf/message.h>

#include <cstdint>
#include <random>
#include <string>

#include "throng/v1/simulation.pb.h"

namespace throng::fuzz {

namespace v1 = ::throng::v1;
using Rng = std::mt19937_64;

// Finite values at the edges of float: +-1e38, +-3.4e38, +-1e20, +-1e6, 1e5, FLT_MIN,
// denormals, -0.
float ExtremeFloat(Rng& rng);
// NaN (quiet, signalling, negative) or +-inf.
float NonFiniteFloat(Rng& rng);
// 0, 1, powers of two and their neighbours up to 2^64 - 1, or any 64-bit value.
uint64_t OddInteger(Rng& rng);
// A tick: 0, 1, 2^64 - 1, 2^63, 2^53 and its neighbours, `next` - 1, or random bits.
uint64_t OddTick(uint64_t next, Rng& rng);

// Sets one float (a present column's element or a singular field, anywhere in `m`'s
// present sub-messages) to `value`.
std::string SetRandomFloat(google::protobuf::Message* m, float value, Rng& rng);
// Sets one integer, enum or bool field anywhere in `m` to an odd value.
std::string SetRandomInteger(google::protobuf::Message* m, Rng& rng);
// One repeated field (a column, or a list such as splines or points) one shorter, one
// longer, or empty.
std::string ResizeRandomList(google::protobuf::Message* m, Rng& rng);

// Gives one agent (or vehicle) the id of another; nothing to do with fewer than two.
std::string DuplicateId(v1::AgentBatch* agents, v1::VehicleBatch* vehicles, Rng& rng);
// Names a spline that `config` does not have in one vehicle's spline_id (adds a vehicle
// when there is none).
std::string UnknownSplineId(const v1::WorldConfig& config, v1::VehicleBatch* vehicles, Rng& rng);

// 1..8 bit flips, or a cut, an inserted run of bytes, or an overwritten byte.
std::string CorruptBytes(std::string* bytes, Rng& rng);

// Huge but within the message limit.
void HugeAgents(v1::AgentBatch* agents, int count);  // ids and positions only
void HugeSpline(v1::WorldConfig* config, int points, Rng& rng);
void HugeObstacle(v1::WorldConfig* config, int vertices);
std::string LongString(size_t bytes, Rng& rng);

// A mutation picked at random among the value mutators above (extreme, non-finite,
// integer, resize) applied to `m`.
std::string AnyValueMutation(google::protobuf::Message* m, Rng& rng);

}  // namespace throng::fuzz
