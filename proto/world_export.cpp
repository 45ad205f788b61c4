#include "proto/world_export.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <zlib.h>

#include <algorithm>
#include <stdexcept>

#include "proto/convert.h"

namespace throng::service {
namespace {

uint32_t Crc32(const std::string& bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes lengths as uInt: feed it in pieces below 4 GiB.
  constexpr size_t kPiece = size_t{1} << 30;
  for (size_t at = 0; at < bytes.size(); at += kPiece) {
    const size_t n = std::min(kPiece, bytes.size() - at);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + at), static_cast<uInt>(n));
  }
  return static_cast<uint32_t>(crc);
}

void MemoryToProto(const KeptMemory& m, v1::AgentMemory* a, v1::VehicleMemory* v) {
  a->mutable_id()->Add(m.agent_ids.begin(), m.agent_ids.end());
  for (const AgentMemory& x : m.agents) {
    a->add_flip_history(x.flip_history);
    a->add_last_side(x.last_side);
    a->add_ticks_without_progress(x.ticks_without_progress);
    a->add_progress_ref(x.progress_ref);
    a->add_goal_x(x.goal.x);
    a->add_goal_y(x.goal.y);
    a->add_route(x.route);
  }
  v->mutable_id()->Add(m.vehicle_ids.begin(), m.vehicle_ids.end());
  for (const VehicleMemory& x : m.vehicles) {
    v->add_progress(x.progress);
    v->add_wheel_angle(x.wheel_angle);
    v->add_last_x(x.last_position.x);
    v->add_last_y(x.last_position.y);
    v->add_last_yaw(x.last_yaw);
    v->add_last_speed(x.last_speed);
    v->add_last_dt(x.last_dt);
    v->add_turn_before_move(x.turn_before_move);
  }
}

// Every column of a memory message as long as its ids. `route` came later: an export
// without it (empty) reads as no re-routes.
template <class Message>
void CheckLengths(const Message& m, const char* name) {
  const auto* descriptor = m.GetDescriptor();
  const auto* reflection = m.GetReflection();
  const int rows = m.id_size();
  for (int f = 0; f < descriptor->field_count(); ++f) {
    const int n = reflection->FieldSize(m, descriptor->field(f));
    if (n == 0 && descriptor->field(f)->name() == "route") continue;
    if (n != rows) {
      throw std::invalid_argument(std::string(name) + "." + descriptor->field(f)->name() + ": " +
                                  std::to_string(n) + " values for " + std::to_string(rows) +
                                  " ids");
    }
  }
}

KeptMemory MemoryFromProto(const v1::AgentMemory& a, const v1::VehicleMemory& v) {
  CheckLengths(a, "agent_memory");
  CheckLengths(v, "vehicle_memory");
  KeptMemory m;
  m.agent_ids.assign(a.id().begin(), a.id().end());
  m.agents.resize(m.agent_ids.size());
  for (int i = 0; i < a.id_size(); ++i) {
    AgentMemory& x = m.agents[i];
    x.flip_history = a.flip_history(i);
    // Out of int8's range is out of the side's too: World::Restore refuses it.
    const int32_t side = a.last_side(i);
    x.last_side = static_cast<int8_t>(side < -2 ? -2 : side > 2 ? 2 : side);
    x.ticks_without_progress = a.ticks_without_progress(i);
    x.progress_ref = a.progress_ref(i);
    x.goal = {a.goal_x(i), a.goal_y(i)};
    x.route = a.route_size() == 0 ? 0 : a.route(i);
  }
  m.vehicle_ids.assign(v.id().begin(), v.id().end());
  m.vehicles.resize(m.vehicle_ids.size());
  for (int i = 0; i < v.id_size(); ++i) {
    VehicleMemory& x = m.vehicles[i];
    x.progress = v.progress(i);
    x.wheel_angle = v.wheel_angle(i);
    x.last_position = {v.last_x(i), v.last_y(i)};
    x.last_yaw = v.last_yaw(i);
    x.last_speed = v.last_speed(i);
    x.last_dt = v.last_dt(i);
    x.turn_before_move = v.turn_before_move(i);
  }
  return m;
}

}  // namespace

void WorldToExport(const std::string& world_id, const v1::WorldConfig& effective_config,
                   const WorldKept& kept, v1::WorldExport* out) {
  v1::WorldExportPayload p;
  p.set_world_id(world_id);
  *p.mutable_config() = effective_config;
  p.set_has_state(kept.has_state);
  if (kept.has_state) {
    p.set_tick(kept.state.tick);
    p.set_dt(kept.state.dt);
    AgentsToProto(kept.state.agents, p.mutable_agents());
    VehiclesToProto(kept.state.vehicles, p.mutable_vehicles());
    ForwardToProto(kept.state.forward, p.mutable_forward());
  }
  TotalsToProto(kept.totals, p.mutable_totals());
  StatsToProto(kept.last_stats, "", p.mutable_last_stats());  // GetWorld names the backend
  MemoryToProto(kept.memory, p.mutable_agent_memory(), p.mutable_vehicle_memory());
  v1::NavigationCrowd* crowd = p.mutable_crowd();
  crowd->set_present(kept.crowd.present);
  crowd->set_tick(kept.crowd.tick);
  for (const Vec2 q : kept.crowd.positions) {
    crowd->add_x(q.x);
    crowd->add_y(q.y);
  }
  out->Clear();
  out->set_format(kWorldExportFormat);
  // Deterministic: the same world exports to the same bytes.
  std::string payload;
  {
    google::protobuf::io::StringOutputStream stream(&payload);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    p.SerializeToCodedStream(&coded);
  }
  out->set_crc32(Crc32(payload));
  out->set_payload(std::move(payload));
  out->set_world_id(world_id);
}

ImportedWorld WorldFromExport(const v1::WorldExport& in) {
  if (in.format() != kWorldExportFormat) {
    throw std::invalid_argument("world_export.format: " + std::to_string(in.format()) +
                                ", this throngd reads format " +
                                std::to_string(kWorldExportFormat));
  }
  if (Crc32(in.payload()) != in.crc32()) {
    throw std::invalid_argument(
        "world_export.payload: does not match its crc32 (corrupted or cut short)");
  }
  v1::WorldExportPayload p;
  if (!p.ParseFromString(in.payload())) {
    throw std::invalid_argument("world_export.payload: not a WorldExportPayload");
  }
  if (!in.world_id().empty() && in.world_id() != p.world_id()) {
    throw std::invalid_argument("world_export.world_id: \"" + in.world_id().substr(0, 128) +
                                "\" is not the payload's");
  }
  ImportedWorld w;
  w.world_id = p.world_id();
  w.config = p.config();
  w.kept.has_state = p.has_state();
  if (p.has_state()) {
    SnapshotFromProto(p.tick(), p.dt(), p.agents(), p.vehicles(), p.forward(), &w.kept.state);
  }
  w.kept.totals = TotalsFromProto(p.totals());
  w.kept.last_stats = StatsFromProto(p.last_stats());
  w.kept.memory = MemoryFromProto(p.agent_memory(), p.vehicle_memory());
  if (p.crowd().x_size() != p.crowd().y_size()) {
    throw std::invalid_argument("crowd.y: " + std::to_string(p.crowd().y_size()) + " values for " +
                                std::to_string(p.crowd().x_size()) + " x");
  }
  w.kept.crowd.present = p.crowd().present();
  w.kept.crowd.tick = p.crowd().tick();
  for (int i = 0; i < p.crowd().x_size(); ++i) {
    w.kept.crowd.positions.push_back({p.crowd().x(i), p.crowd().y(i)});
  }
  return w;
}

}  // namespace throng::service
