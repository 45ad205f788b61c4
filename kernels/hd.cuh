// Qualifiers for per-agent code that both parallel backends compile: nvcc sees
// __host__ __device__, a host compiler sees plain inline functions.
#pragma once

#if defined(__CUDACC__)
#define THRONG_HD __host__ __device__
#else
#define THRONG_HD
#endif
