// Vehicle path check, per vehicle (docs/WORLD.md, "Vehicles brake"): how far it can drive
// along its lane before it reaches a pedestrian, another vehicle or an obstacle. The
// corridor follows the lane rather than the heading, so a curve ahead is checked where
// the vehicle will actually be. Read on either parallel backend over its neighbour grid,
// and by the reference over every point: the walk and the tests are this file's, the
// search for the points near a sample is the caller's.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/frame.cuh"
#include "kernels/math/hd.cuh"
#include "kernels/math/scalar.cuh"
#include "kernels/math/segment.cuh"
#include "kernels/math/vec.cuh"
#include "kernels/orca/obstacle_grid.cuh"
#include "kernels/vehicles/path_check_types.h"
#include "kernels/vehicles/spline.cuh"
#include "kernels/vehicles/vehicle_body.h"

namespace throng {

// A pedestrian counts as in the path when it is in the corridor now or will step into it
// before the vehicle gets there at its current speed (looking at most kPredictionHorizon
// ahead): drivers yield to people walking toward the road, not only to people on it.
constexpr float kPredictionHorizon = 3.f;  // s
// The longest corridor checked: braking from 250 km/h at 6 m/s^2 needs 400 m. A cap keeps
// one sample walk bounded whatever speed or braking a caller configures.
constexpr float kMaxPathCheckLength = 1000.f;  // m
constexpr float kPathSampleStep = 1.f;         // m between corridor samples along the lane

// What a corridor meets: pedestrians (owner -1, moving at vx, vy) and the vehicles' discs
// (owner = the vehicle, standing), in whatever order the caller's search keeps them.
// A point as the walk tests it: where, how large, whose (-1: a pedestrian, else the disc's
// vehicle). One 16-byte record: a sample's few points are read from one cache line, not
// from one per column (the walk waits on memory, not on arithmetic).
struct PathPoint {
  float x, y, r;
  int32_t owner;
};

struct PathPointsView {
  const PathPoint* point;
  const float* vx;  // read only for the points in a corridor
  const float* vy;
  float r_max;         // largest r
  float walk_max;      // fastest pedestrian, m/s
  float walker_r_max;  // largest r of a pedestrian (owner -1), at most r_max
};

// How far across a corridor's centre line a sample's search reaches, for a corridor of
// half_width (the vehicle's half width and the lateral margin) looking `horizon` seconds
// ahead: only pedestrians drift (at most walk_max), and a vehicle's discs may be larger
// than any walker, so the band is the wider of the two kinds' reach, not the largest
// body's plus the drift.
THRONG_HD inline float CorridorReachAcross(float half_width, const PathPointsView& pts,
                                           float horizon) {
  return half_width + MaxF(pts.walker_r_max + pts.walk_max * horizon, pts.r_max);
}

struct PathVehiclesView {
  const VehicleBody* bodies;
  const uint32_t* spline;  // each vehicle's lane (index in the set)
  const float* progress;   // m, the rear axle's place on the lane
  const float* speed;      // m/s
};

// Metres free ahead of vehicle v's front bumper within its checked length (max(min_length,
// braking distance + reaction distance + gap), at most kMaxPathCheckLength); +inf when
// nothing is there, 0 when something touches the bumper. for_each_near(p, half, f) calls
// f(begin, end) for ranges of point indices that hold every point in the box [p - half,
// p + half] (more, or one twice, is fine: the walk keeps the nearest). Edge k is the segment
// edges[2k], edges[2k + 1]; edge_grid indexes them (orca::ForEachEdgeNear; without a grid
// every edge is tested at every sample, which costs most of the walk in a town).
template <class ForEachNear>
THRONG_HD inline float PathClearAhead(const PathCheckParams& params, float max_brake_decel,
                                      const SplineSetView& lanes, const PathPointsView& pts,
                                      const PathVehiclesView& vehicles, const Vec2* edges,
                                      int32_t edge_count, const orca::EdgeGridView& edge_grid,
                                      uint32_t v, ForEachNear&& for_each_near) {
  const float inf = INFINITY;
  const VehicleBody body = vehicles.bodies[v];
  const float speed = vehicles.speed[v];
  const float wanted = MaxF(params.min_length, speed * speed / (2.f * max_brake_decel) +
                                                   speed * params.reaction_time + params.gap);
  const float length = MinF(kMaxPathCheckLength, wanted);
  const float half_width = 0.5f * body.width + params.lateral_margin;
  const float s_front = vehicles.progress[v] + body.front();
  const int32_t self = static_cast<int32_t>(v);
  float best = inf;
  // From half a body behind the bumper (catches anything touching it) to the end.
  for (float ahead = -0.5f * body.length; ahead <= length; ahead += kPathSampleStep) {
    if (ahead - kPathSampleStep - pts.r_max > best) break;  // nothing further can be nearer
    Vec3 p3, t3;
    FrameAt(lanes, vehicles.spline[v], s_front + ahead, &p3, &t3);
    const Vec2 p{p3.x, p3.y};
    const Vec2 t = Normalize(Vec2{t3.x, t3.y});
    const Vec2 right = RightOf(t);
    // How long until the bumper is here; pedestrians are followed that far ahead.
    const float horizon = MinF(kPredictionHorizon, MaxF(ahead, 0.f) / MaxF(speed, 0.5f));
    // A point the tests below can keep lies within one step along and within the band
    // (now or after its drift) across: in a rectangle of those half-sides along t and
    // right, inside both the disc of radius `reach` and the box around the rectangle that
    // the search reads (a disc read 4 to 6 times the points of a straight lane's box).
    const float across = CorridorReachAcross(half_width, pts, horizon);
    const float reach = hypotf(kPathSampleStep, across);
    const Vec2 half{fabsf(t.x) * kPathSampleStep + fabsf(right.x) * across,
                    fabsf(t.y) * kPathSampleStep + fabsf(right.y) * across};
    for_each_near(p, half, [&](uint32_t begin, uint32_t end) {
      for (uint32_t k = begin; k < end; ++k) {
        const PathPoint q = pts.point[k];
        if (q.owner == self) continue;
        const Vec2 d = Vec2{q.x, q.y} - p;
        if (LengthSq(d) > reach * reach) continue;  // the search's extra points
        const float along = Dot(d, t);
        if (fabsf(along) > kPathSampleStep) continue;
        const float lateral_now = Dot(d, right);
        const float drift = q.owner < 0 ? Dot(Vec2{pts.vx[k], pts.vy[k]}, right) * horizon : 0.f;
        const float lateral_then = lateral_now + drift;
        const float band = half_width + q.r;
        if (MinF(lateral_now, lateral_then) >= band || MaxF(lateral_now, lateral_then) <= -band) {
          continue;  // stays beside the corridor until the vehicle has passed
        }
        const float distance = MaxF(0.f, ahead + along - q.r);
        if (ahead + along + q.r > 0.f) best = MinF(best, distance);
      }
    });
    orca::ForEachEdgeNear(edge_grid, edge_count, p, half_width, [&](int e) {
      if (PointSegmentDistanceSq(p, edges[2 * e], edges[2 * e + 1]) < half_width * half_width) {
        best = MinF(best, MaxF(0.f, ahead));
      }
    });
  }
  return best <= length ? best : inf;
}

}  // namespace throng
