// Qualifiers for per-agent code that both parallel backends compile: nvcc sees
// __host__ __device__, a host compiler sees plain inline functions.
#pragma once

#if defined(__CUDACC__)
#define THRONG_HD __host__ __device__
#else
#define THRONG_HD
#endif

// For the few helpers that take a caller's loop body as a lambda (the neighbour scan):
// left out of line, the body reaches every local it captures through memory.
#if defined(__CUDACC__)
#define THRONG_HD_FORCE_INLINE __host__ __device__ __forceinline__
#else
#define THRONG_HD_FORCE_INLINE __attribute__((always_inline)) inline
#endif

// The same for a loop body given as a lambda that more than one place calls (the
// neighbour scan's, which a shrinking scan calls for rows and for marked buckets): written
// after the lambda's parameter list.
#define THRONG_INLINE_LAMBDA __attribute__((always_inline))
