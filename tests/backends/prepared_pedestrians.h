// What Backend::PreparePedestrians writes, in host columns a test owns: every row starts
// as a value no preparation writes (-1, 99, 0xff), so a row left unwritten shows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/math/vec.cuh"
#include "kernels/steering/pedestrian_prepare_types.h"

namespace throng::testing {

struct PreparedPedestrians {
  std::vector<uint32_t> id;
  std::vector<float> px, py, vx, vy, radius, max_speed, pref_vx, pref_vy, z, vz;
  std::vector<uint8_t> flags, has_goal, navigates;
  std::vector<Vec2> goal;

  explicit PreparedPedestrians(size_t n)
      : id(n, 99),
        px(n, -1.f),
        py(n, -1.f),
        vx(n, -1.f),
        vy(n, -1.f),
        radius(n, -1.f),
        max_speed(n, -1.f),
        pref_vx(n, -1.f),
        pref_vy(n, -1.f),
        z(n, -1.f),
        vz(n, -1.f),
        flags(n, 0xff),
        has_goal(n, 0xff),
        navigates(n, 0xff),
        goal(n, Vec2{-1.f, -1.f}) {}
  PedestrianPrepareOutput View() {
    return {{id.data(), px.data(), py.data(), vx.data(), vy.data(), radius.data(), max_speed.data(),
             pref_vx.data(), pref_vy.data(), flags.data()},
            z.data(),
            vz.data(),
            goal.data(),
            has_goal.data(),
            navigates.data()};
  }
};

}  // namespace throng::testing
