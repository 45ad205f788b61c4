// "town": a road loop with two-way traffic, pedestrians crossing it at crosswalks and
// walking along its sidewalks, buildings inside. Layout and sizes in docs/SCENARIOS.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "kernels/math/scalar.cuh"
#include "kernels/scenarios/scenario_layout.h"
#include "kernels/vehicles/spline.h"

namespace throng::scenarios::detail {
namespace {

constexpr float kSpacing = layout::kLatticeSpacing;
constexpr float kLaneOffset = 1.75f;     // lane centre from the road's centre line, m
constexpr float kCornerRadius = 20.f;    // of the road's centre line, m
constexpr float kSpeedLimit = 10.f;      // m/s on both lanes
constexpr float kLanePerVehicle = 18.f;  // m of lane per vehicle (at least 15 m apart)
// Nearest lattice line of pedestrians, from the road's centre line: the lane's edge is at
// 3.5 m, people stay 2 m beyond it, plus 0.5 m for jitter and for the spline's small
// departures from the designed loop.
constexpr float kCurb = 6.f;
constexpr float kMinSide = 60.f;  // m, the short straights of the smallest town
// Crosswalks: a waiting group stands on the scenes' lattice (layout::kLatticeSpacing),
// 7 lines across (9.6 m, a 10 m crossing) and at most 12 rows deep (23.9 m from the road's
// centre line with jitter), so groups at the two ends of a corner (each starts >= 9.9 m
// from it) never meet. A zone of 30 m around each crossing is kept free of walkers.
constexpr int kCrosswalkLines = 7;
constexpr int kMaxCrosserRows = 12;
constexpr float kCrosswalkZone = 30.f;
// Walkers: slots 1.25 m apart in a band of 5 lines (6 to 11 m from the centre line) on
// both sides, away from the ends of the straights; at most half the slots are used, so a
// walker's neighbours are mostly further off than the lattice pitch. Jitter 0.2 m keeps
// neighbouring slots >= 0.85 m apart.
constexpr float kWalkerPitch = 1.25f;
constexpr float kWalkerJitter = 0.2f;
constexpr int kWalkerLines = 5;
constexpr float kSideMargin = 5.f;
constexpr float kWalkersPerMetre = 0.5f * 2.f * kWalkerLines / kWalkerPitch;
constexpr float kWalkMin = 10.f, kWalkMax = 35.f;  // m walked along the sidewalk
// Buildings fill the inside beyond the deepest waiting group, at most this many.
constexpr float kBuildingSetback =
    kCurb + layout::kLatticeSpacing * (kMaxCrosserRows - 1) + layout::kJitter + 6.f;
constexpr int kMaxBuildings = 48;
// A lane is at most ServiceLimits' 100 km: a town with more vehicles per lane than this
// (45 km of inner lane) is cut into districts, each its own loop with its own lanes,
// side by side along y, kDistrictGap apart between their outermost walkers.
constexpr size_t kMaxVehiclesPerLane = 2500;
constexpr float kDistrictGap = 100.f;

// The corner argument above, and the buildings' inside rectangle (it needs the setback to
// pass the corners' centres).
static_assert(kCurb + kSpacing * (kMaxCrosserRows - 1) + layout::kJitter - kCornerRadius <
              kSideMargin - kWalkerJitter);
static_assert(kCurb + kSpacing * (kMaxCrosserRows - 1) + layout::kJitter - kCornerRadius <
              0.5f * kCrosswalkZone - kSpacing * (kCrosswalkLines / 2) - layout::kJitter);
static_assert(kBuildingSetback >= kCornerRadius);

// The road's centre line: a rounded rectangle, straights of lx (bottom, top) and ly
// (right, left) around corner centres (+-lx/2, +-ly/2), run counter-clockwise. Side i has
// a start, a unit direction and an outward normal (the direction's right).
// The loop is centred on `centre`.
struct RoadLoop {
  float lx, ly;
  Vec2 centre;
  std::array<Vec2, 4> start, dir, out;
  std::array<float, 4> length;

  RoadLoop(float x, float y, Vec2 c) : lx(x), ly(y), centre(c) {
    const float hx = 0.5f * lx, hy = 0.5f * ly, r = kCornerRadius;
    start = {c + Vec2{-hx, -hy - r}, c + Vec2{hx + r, -hy}, c + Vec2{hx, hy + r},
             c + Vec2{-hx - r, hy}};
    dir = {Vec2{1, 0}, Vec2{0, 1}, Vec2{-1, 0}, Vec2{0, -1}};
    for (int i = 0; i < 4; ++i) out[i] = RightOf(dir[i]);
    length = {lx, ly, lx, ly};
  }

  // `along` m from side i's start, `offset` m outward (negative: inside the loop).
  Vec2 At(int i, float along, float offset) const {
    return start[i] + dir[i] * along + out[i] * offset;
  }

  // The loop moved `offset` m outward, as control points about 5 m apart, counter-clockwise.
  std::vector<Vec3> Lane(float offset) const {
    std::vector<Vec3> points;
    for (int i = 0; i < 4; ++i) {
      const int steps = static_cast<int>(std::ceil(length[i] / 5.f));
      for (int k = 0; k < steps; ++k) {
        const Vec2 p = At(i, length[i] * static_cast<float>(k) / static_cast<float>(steps), offset);
        points.push_back({p.x, p.y, 0.f});
      }
      // The corner after side i, 15 degrees a point, from its end up to the next start.
      const Vec2 corner = At(i, length[i], -kCornerRadius);
      const float a0 = std::atan2(out[i].y, out[i].x);
      for (int k = 0; k < 6; ++k) {
        const float a = a0 + 0.5f * kPi * static_cast<float>(k) / 6.f;
        const float rr = kCornerRadius + offset;
        points.push_back({corner.x + rr * std::cos(a), corner.y + rr * std::sin(a), 0.f});
      }
    }
    return points;
  }
};

struct Crosswalk {
  int side;
  float along;  // centre, m from the side's start
};

// Crosswalks per side: the long straights get about twice the short ones' share.
std::array<int, 4> CrosswalksPerSide(int wanted) {
  const int per_short = std::max(1, wanted / 6);
  const int per_long = std::max(1, (wanted - 2 * per_short + 1) / 2);
  return {per_long, per_short, per_long, per_short};
}

// The short straight's length: enough lane per vehicle, sidewalk for the walkers, room
// for the crosswalks, and kMinSide. The long straights are twice as long.
float ShortSide(size_t vehicles_per_lane, size_t walkers, const std::array<int, 4>& crosswalks) {
  const int total = crosswalks[0] + crosswalks[1] + crosswalks[2] + crosswalks[3];
  // The inner lane is the shortest: 6 ly + 2 pi (r - offset).
  const float inner_corners = kTwoPi * (kCornerRadius - kLaneOffset);
  const float for_vehicles =
      (kLanePerVehicle * static_cast<float>(vehicles_per_lane) - inner_corners) / 6.f;
  const float for_walkers = (static_cast<float>(walkers) / kWalkersPerMetre +
                             kCrosswalkZone * static_cast<float>(total) + 8.f * kSideMargin) /
                            6.f;
  const float for_crosswalks = std::max(kCrosswalkZone * static_cast<float>(crosswalks[1]),
                                        0.5f * kCrosswalkZone * static_cast<float>(crosswalks[0])) +
                               2.f * kSideMargin;
  return std::ceil(std::max({kMinSide, for_vehicles, for_walkers, for_crosswalks}));
}

// The district's two lanes, after those of the districts before it.
void AddLanes(Scenario& s, const RoadLoop& road) {
  const auto id = static_cast<uint32_t>(s.config.splines.size());
  SplineDesc ccw{id, road.Lane(kLaneOffset), true, kSpeedLimit};  // outer: right-hand traffic
  SplineDesc cw{id + 1, road.Lane(-kLaneOffset), true, kSpeedLimit};
  std::reverse(cw.points.begin(), cw.points.end());
  s.config.splines.push_back(std::move(ccw));
  s.config.splines.push_back(std::move(cw));
}

// `count` vehicles evenly spaced along each of the last two lanes from a random phase, on
// the centre line, facing along it, at 2 to 5 m/s.
void AddVehicles(Scenario& s, const std::array<size_t, 2>& count, ScenarioRng& rng) {
  const SplineSet set = BuildSplineSet(s.config.splines);
  VehicleSnapshot& v = s.initial.vehicles;
  const auto first = static_cast<uint32_t>(s.config.splines.size() - 2);
  for (uint32_t lane = first; lane < first + 2; ++lane) {
    const float length = set.headers[lane].length;
    const size_t n = count[lane - first];
    const float spacing = length / static_cast<float>(std::max<size_t>(n, 1));
    const float phase = rng.Uniform(0.f, spacing);
    for (size_t k = 0; k < n; ++k) {
      const float at = phase + spacing * static_cast<float>(k);
      Vec3 p, t;
      FrameAt(set.View(), lane, at, &p, &t);
      v.id.push_back(static_cast<uint32_t>(v.id.size()));
      v.x.push_back(p.x);
      v.y.push_back(p.y);
      v.yaw.push_back(std::atan2(t.y, t.x));
      v.speed.push_back(rng.Uniform(2.f, 5.f));
      v.spline_id.push_back(s.config.splines[lane].id);
      v.progress_hint.push_back(at);
    }
  }
}

// Half of each crosswalk's crowd waits on each side of the road, rows filled from the curb
// outward; each goes straight across, to the mirrored row (the first over walk deepest).
void AddCrossers(AgentSnapshot& agents, const RoadLoop& road, const std::vector<Crosswalk>& walks,
                 size_t crossers, ScenarioRng& rng) {
  const size_t groups = 2 * walks.size();
  for (size_t g = 0; g < groups; ++g) {
    const Crosswalk& w = walks[g / 2];
    const float sign = g % 2 == 0 ? 1.f : -1.f;  // outside first, then inside
    const size_t count = crossers / groups + (g < crossers % groups ? 1 : 0);
    const int rows = static_cast<int>((count + kCrosswalkLines - 1) / kCrosswalkLines);
    for (size_t q = 0; q < count; ++q) {
      const int row = static_cast<int>(q / kCrosswalkLines);
      const int line = static_cast<int>(q % kCrosswalkLines) - kCrosswalkLines / 2;
      const float along = w.along + kSpacing * static_cast<float>(line);
      const Vec2 start =
          road.At(w.side, along, sign * (kCurb + kSpacing * static_cast<float>(row)));
      const Vec2 goal =
          road.At(w.side, along, -sign * (kCurb + kSpacing * static_cast<float>(rows - 1 - row)));
      const Vec2 start_jitter = layout::Jitter(rng, layout::kJitter);
      const Vec2 goal_jitter = layout::Jitter(rng, layout::kJitter);
      layout::AddPedestrian(agents, start + start_jitter, goal + goal_jitter);
    }
  }
}

// Walkers take a random half (at most) of the sidewalk slots outside the crosswalk zones
// and walk 10 to 35 m along the same sidewalk, to a slot of their own: the free slot of
// that sidewalk nearest to the spot drawn, so that no two walkers share a goal (goals
// drawn anywhere in the band put 31-55 pairs of a 1,000-person town within a body of each
// other, and one of each pair could never get home without standing in the other).
void AddWalkers(AgentSnapshot& agents, const RoadLoop& road, const std::vector<Crosswalk>& walks,
                size_t walkers, ScenarioRng& rng) {
  struct Slot {
    int side;
    float along, offset;
    int column, line;  // the slot's place on its sidewalk's lattice
  };
  std::vector<Slot> slots;
  for (int i = 0; i < 4; ++i) {
    int column = 0;
    for (float along = kSideMargin; along <= road.length[i] - kSideMargin;
         along += kWalkerPitch, ++column) {
      bool free = true;
      for (const Crosswalk& w : walks) {
        free = free && !(w.side == i && std::fabs(along - w.along) < 0.5f * kCrosswalkZone);
      }
      if (!free) continue;
      for (float sign : {1.f, -1.f}) {
        for (int k = 0; k < kWalkerLines; ++k) {
          slots.push_back(
              {i, along, sign * (kCurb + kWalkerPitch * static_cast<float>(k)), column, k});
        }
      }
    }
  }
  if (slots.size() < walkers) throw std::logic_error("town scenario: too few sidewalk slots");
  // Each sidewalk's slots by lattice place, to find a free goal slot near a spot; a slot is
  // a goal once at most.
  const auto sidewalk_of = [](const Slot& s) { return 2 * s.side + (s.offset > 0.f ? 0 : 1); };
  std::array<std::vector<size_t>, 8> slot_at;  // [sidewalk][column * kWalkerLines + line]
  std::array<int, 8> columns{};
  for (const Slot& s : slots) {
    columns[sidewalk_of(s)] = std::max(columns[sidewalk_of(s)], s.column + 1);
  }
  rng.ShuffleFront(slots, walkers);
  for (int k = 0; k < 8; ++k) slot_at[k].assign(columns[k] * kWalkerLines, SIZE_MAX);
  for (size_t j = 0; j < slots.size(); ++j) {
    const Slot& s = slots[j];
    slot_at[sidewalk_of(s)][s.column * kWalkerLines + s.line] = j;
  }
  std::vector<uint8_t> goal_taken(slots.size(), 0);
  // The free slot of `sidewalk` nearest to (column, line): columns outward from the spot,
  // the spot's line first. There is one: walkers are at most as many as slots.
  const auto free_slot_near = [&](int sidewalk, int column, int line) {
    const std::vector<size_t>& at = slot_at[sidewalk];
    for (int d = 0; d < columns[sidewalk]; ++d) {
      for (int c : {column + d, column - d}) {
        if (c < 0 || c >= columns[sidewalk]) continue;
        for (int e = 0; e < kWalkerLines; ++e) {
          for (int l : {line + e, line - e}) {
            if (l < 0 || l >= kWalkerLines) continue;
            const size_t j = at[c * kWalkerLines + l];
            if (j != SIZE_MAX && !goal_taken[j]) return j;
          }
        }
      }
    }
    return SIZE_MAX;
  };
  for (size_t k = 0; k < walkers; ++k) {
    const Slot& s = slots[k];
    const float lo = kSideMargin, hi = road.length[s.side] - kSideMargin;
    const float step = rng.Uniform(kWalkMin, kWalkMax);
    float along = s.along + (rng.Coin() ? step : -step);
    if (along < lo || along > hi) along = 2.f * s.along - along;  // the other way
    along = Clamp(along, lo, hi);
    const float depth = rng.Uniform(kCurb, kCurb + kWalkerPitch * (kWalkerLines - 1));
    const int column = static_cast<int>(std::lround((along - kSideMargin) / kWalkerPitch));
    const int line = static_cast<int>(std::lround((depth - kCurb) / kWalkerPitch));
    const size_t goal = free_slot_near(sidewalk_of(s), column, line);
    if (goal == SIZE_MAX) throw std::logic_error("town scenario: no free goal slot");
    goal_taken[goal] = 1;
    const Slot& g = slots[goal];
    const Vec2 jitter = layout::Jitter(rng, kWalkerJitter);
    layout::AddPedestrian(agents, road.At(s.side, s.along, s.offset) + jitter,
                          road.At(g.side, g.along, g.offset));
  }
}

// Rectangular buildings on a grid of cells filling the inside beyond kBuildingSetback,
// one per cell, 40 to 70% of the cell on each axis; the cells grow with the town so that
// there are at most kMaxBuildings (every agent checks every obstacle edge).
void AddBuildings(Scenario& s, const RoadLoop& road, ScenarioRng& rng) {
  const float hx = 0.5f * road.lx + kCornerRadius - kBuildingSetback;
  const float hy = 0.5f * road.ly + kCornerRadius - kBuildingSetback;
  if (hx <= 0.f || hy <= 0.f) return;
  const float pitch = std::max(25.f, std::sqrt(4.f * hx * hy / kMaxBuildings));
  const int nx = static_cast<int>(2.f * hx / pitch), ny = static_cast<int>(2.f * hy / pitch);
  for (int iy = 0; iy < ny; ++iy) {
    for (int ix = 0; ix < nx; ++ix) {
      const Vec2 cell = road.centre + Vec2{-0.5f * nx * pitch + (ix + 0.5f) * pitch,
                                           -0.5f * ny * pitch + (iy + 0.5f) * pitch};
      const float w = pitch * rng.Uniform(0.4f, 0.7f);
      const float h = pitch * rng.Uniform(0.4f, 0.7f);
      const Vec2 half{0.5f * w, 0.5f * h};
      const float jx = rng.Uniform(-0.5f, 0.5f) * (pitch - w) * 0.5f;
      const float jy = rng.Uniform(-0.5f, 0.5f) * (pitch - h) * 0.5f;
      const Vec2 centre = cell + Vec2{jx, jy};
      s.config.obstacles.push_back(layout::Box(centre - half, centre + half));
    }
  }
}

// How one district of `pedestrians` people and `vehicles` vehicles is laid out.
struct DistrictPlan {
  std::array<size_t, 2> per_lane;
  size_t crossers, walkers;
  std::array<int, 4> crosswalks_per_side;
  float ly;  // the short straight

  DistrictPlan(size_t pedestrians, size_t vehicles)
      : per_lane{(vehicles + 1) / 2, vehicles / 2},
        crossers((pedestrians + 1) / 2),
        walkers(pedestrians / 2) {
    const size_t per_group = 2 * kCrosswalkLines * kMaxCrosserRows;  // both sides of a crossing
    const int wanted = std::max(4, static_cast<int>((crossers + per_group - 1) / per_group));
    crosswalks_per_side = CrosswalksPerSide(wanted);
    ly = ShortSide(per_lane[0], walkers, crosswalks_per_side);
  }

  // From the loop's centre to its outermost walkers and waiting groups, along y.
  float HalfExtentY() const { return 0.5f * ly + kCornerRadius + kBuildingSetback; }
};

// One district: its lanes, vehicles, crossers, walkers and buildings, in that order of
// random draws, its loop centred on (0, centre_y).
void AddDistrict(Scenario& s, const DistrictPlan& plan, float centre_y, ScenarioRng& rng) {
  const RoadLoop road(2.f * plan.ly, plan.ly, Vec2{0.f, centre_y});
  std::vector<Crosswalk> walks;
  for (int i = 0; i < 4; ++i) {
    const int count = plan.crosswalks_per_side[i];
    const float pitch = road.length[i] / static_cast<float>(count);
    for (int k = 0; k < count; ++k) walks.push_back({i, pitch * (static_cast<float>(k) + 0.5f)});
  }
  AddLanes(s, road);
  AddVehicles(s, plan.per_lane, rng);
  AddCrossers(s.initial.agents, road, walks, plan.crossers, rng);
  AddWalkers(s.initial.agents, road, walks, plan.walkers, rng);
  AddBuildings(s, road, rng);
}

}  // namespace

Scenario MakeTown(size_t size, uint32_t seed) {
  Scenario s = layout::PedestrianScenario("town", size, seed);
  ScenarioRng rng(seed);

  // Districts share the people and the vehicles as evenly as they divide; one district
  // (every town up to 250,000 people) is the town as it always was, centred on the origin.
  const size_t vehicles = TownVehicles(size);
  const size_t districts = std::max<size_t>(1, (vehicles + 2 * kMaxVehiclesPerLane - 1) /
                                                   (2 * kMaxVehiclesPerLane));
  float y = 0.f;
  for (size_t d = 0; d < districts; ++d) {
    const size_t people = size / districts + (d < size % districts ? 1 : 0);
    const size_t cars = vehicles / districts + (d < vehicles % districts ? 1 : 0);
    const DistrictPlan plan(people, cars);
    if (d > 0) y += plan.HalfExtentY();
    AddDistrict(s, plan, y, rng);
    y += plan.HalfExtentY() + kDistrictGap;
  }
  // The longest walk: a walker's 45 m and its step across the sidewalk.
  s.suggested_ticks = layout::WalkTicks(std::hypot(kWalkMax, kWalkerPitch * (kWalkerLines - 1)),
                                        layout::kPedestrianSpeed, s.initial.dt);
  return s;
}

}  // namespace throng::scenarios::detail
