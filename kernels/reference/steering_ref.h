// Independent reference for kernels/steering/steering.cuh and kernels/steering/cast_fan.cuh: double
// precision, written from docs/ALGORITHMS.md §3-4 and docs/VEHICLES.md without the kernels'
// code. Where the kernels solve geometry in closed form, this side uses other methods:
// - sphere casts: the first root of the (convex) distance-to-obstacle function along the
//   ray, by golden-section minimisation then bisection, no quadratic formula;
// - the stopping speed: bisection on the braking condition instead of the closed root;
// - fan directions: a yaw rotation of the heading instead of a local frame.
// Build with -ffp-contract=off.
#pragma once

#include <vector>

namespace throng::reference {

struct D2 {
  double x = 0, y = 0;
};

struct D3 {
  double x = 0, y = 0, z = 0;
};

struct ArriveParamsD {
  double max_speed;
  double max_force;
  double mass = 1;
  double slowing_radius;
};

D2 Seek(D2 position, D2 target, double max_speed);
D2 Flee(D2 position, D2 threat, double max_speed);
D2 ArriveDesired(D2 position, D2 target, double max_speed, double slowing_radius);
// Largest v with v^2 / (2 accel) + v * dt <= distance.
double StoppingSpeed(double distance, double accel, double dt);
D2 ArriveDesiredForStep(D2 position, D2 target, const ArriveParamsD& p, double dt);
D2 SteerToward(D2 velocity, D2 desired, const ArriveParamsD& p, double dt);
D2 ArriveStep(D2 position, D2 velocity, D2 target, const ArriveParamsD& p, double dt);

// Local-frame directions (z forward, +x right), as in docs/ALGORITHMS.md §4.
D3 FanDirection2D(int i, int n, double fov);
D3 ConeDirection3D(int i, int n, double fov);
// Probe i of a 2D fan in the internal ground plane: the heading rotated counter-clockwise
// (left) by theta_i for odd i, clockwise (right) for even i.
D2 FanGroundDirection(D2 forward, int i, int n, double fov);

// Sphere casts; +infinity when nothing is touched within max_distance, 0 on overlap.
double SphereCastSegment2D(D2 origin, D2 dir, double radius, double max_distance, D2 a, D2 b);
double SphereCastSphere(D3 origin, D3 dir, double radius, double max_distance, D3 center,
                        double sphere_radius);
double SphereCastBox(D3 origin, D3 dir, double radius, double max_distance, D3 box_min, D3 box_max);

struct Segment {
  D2 a, b;
};

struct FanChoiceD {
  int probe = -1;
  D2 direction;
  double hit_distance = 0;
  bool all_blocked = false;
};

FanChoiceD ChooseFanDirection2D(D2 forward, D2 eye, double radius, double max_distance, double fov,
                                int n, const std::vector<Segment>& segments);

D2 TurnToward(D2 forward, D2 chosen, double dt, double turn_speed);

}  // namespace throng::reference
