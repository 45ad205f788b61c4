// Independent reference for kernels/steering/cast_3d.cuh: double precision, and a different method.
// Where the kernels intersect a ray with the Minkowski sum part by part in closed form,
// this side sphere-traces exact point-to-shape distance functions: march t along the unit
// ray by (distance - radius), which can never step past a contact because each distance
// is 1-Lipschitz, until within kContactGap of contact or beyond max_distance. Point in
// polygon is the parity of the winding number (a sum of angles), not a crossing count.
//
// Sphere tracing converges slowly for rays that only graze a shape: the gap then shrinks
// by a factor of (1 - cos(incidence)) per step. The march is capped at kMaxTraceSteps and
// an unconverged march reports no hit, so callers compare grazing rays with a tolerance or
// skip them; `closest_gap` (optional) says how close a miss came.
// Build with -ffp-contract=off.
#pragma once

#include <vector>

#include "kernels/reference/steering_ref.h"

namespace throng::reference {

// Contact is declared when the ray point is this close to the sum's surface.
constexpr double kContactGap = 1e-9;
constexpr int kMaxTraceSteps = 100000;

// All casts: dir need not be unit (zero never hits), +infinity when nothing is touched
// within max_distance, 0 when the sphere already touches the shape at the origin. On a miss
// *closest_gap is the smallest (distance - radius) seen at the march's sample points: an
// upper bound on the closest approach up to the last sample, and at most twice it (a
// 1-Lipschitz gap cannot dip below half the next sample between two samples one gap apart).
// It is 0 on a hit, and +infinity where the shape cannot be reached at all.

// Vertical rectangle above segment ab (ground plane) between heights z0 <= z1.
double SphereCastVerticalWall(D3 origin, D3 dir, double radius, double max_distance, D2 a, D2 b,
                              double z0, double z1, double* closest_gap = nullptr);

// The same wall unbounded in z (an infinite vertical strip).
double SphereCastInfiniteWall(D3 origin, D3 dir, double radius, double max_distance, D2 a, D2 b,
                              double* closest_gap = nullptr);

// Face-only contact with a horizontal polygon cap at height z: the sphere's centre reaches
// the face plane offset by radius to the outward side (up when top), over the polygon's
// interior, coming from that side. 0 when the origin is over the polygon and within radius
// of z vertically. The polygon is a closed ring, even-odd filled.
double SphereCastPolygonCap(D3 origin, D3 dir, double radius, double max_distance,
                            const std::vector<D2>& ring, double z, bool top,
                            double* closest_gap = nullptr);

// Box of the given half extents about center, its local +x at (cos yaw, sin yaw, 0).
double SphereCastOrientedBox(D3 origin, D3 dir, double radius, double max_distance, D3 center,
                             D3 half_extent, double yaw, double* closest_gap = nullptr);

// Sphere against the capsule of capsule_radius around segment pq (p == q: a sphere).
double SphereCastCapsule(D3 origin, D3 dir, double radius, double max_distance, D3 p, D3 q,
                         double capsule_radius, double* closest_gap = nullptr);

// Disc of radius in the horizontal plane at height z, moving in that plane, against a
// vertical capsule: its axis runs from height p.z to q.z (either order) above (p.x, p.y);
// q's x and y are not used. No contact at all when z lies capsule_radius or more outside
// the axis's heights.
double DiscCastCapsuleSlice(D2 origin, D2 dir, double radius, double max_distance, double z, D3 p,
                            D3 q, double capsule_radius, double* closest_gap = nullptr);

// The same against a sphere. No contact at all when |z - center.z| >= sphere_radius.
double DiscCastSphereSlice(D2 origin, D2 dir, double radius, double max_distance, double z,
                           D3 center, double sphere_radius, double* closest_gap = nullptr);

// Even-odd rule (odd winding number).
bool PointInPolygon(D2 p, const std::vector<D2>& ring);

}  // namespace throng::reference
