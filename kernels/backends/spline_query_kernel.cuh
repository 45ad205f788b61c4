// The batched spline query, written once for every parallel backend: one thread per query.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/math/hd.cuh"
#include "kernels/vehicles/spline.cuh"

namespace throng {

struct SplineQueryInput {
  const uint32_t* __restrict__ spline;
  const float* __restrict__ s;
  const float* __restrict__ px;
  const float* __restrict__ py;
  const float* __restrict__ pz;
  const float* __restrict__ s_hint;
  float window;
};

struct SplineQueryOutput {
  float* __restrict__ x;
  float* __restrict__ y;
  float* __restrict__ z;
  float* __restrict__ tx;
  float* __restrict__ ty;
  float* __restrict__ tz;
  float* __restrict__ curvature;
  float* __restrict__ progress;
};

struct SplineQueryFunctor {
  SplineSetView set;
  SplineQueryInput in;
  SplineQueryOutput out;

  THRONG_HD void operator()(size_t i) const {
    const uint32_t spline = in.spline[i];
    const SplinePoint p = SampleSpline(set, spline, in.s[i]);
    out.x[i] = p.position.x;
    out.y[i] = p.position.y;
    out.z[i] = p.position.z;
    out.tx[i] = p.tangent.x;
    out.ty[i] = p.tangent.y;
    out.tz[i] = p.tangent.z;
    out.curvature[i] = p.curvature;
    out.progress[i] =
        ProjectOnSpline(set, spline, {in.px[i], in.py[i], in.pz[i]}, in.s_hint[i], in.window);
  }
};

}  // namespace throng
