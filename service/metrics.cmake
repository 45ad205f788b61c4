# throng_metrics: throngd's Prometheus metrics (service/metrics.h), a library of its own
# so its tests link only what they use. Included from service/CMakeLists.txt and from
# tests/metrics/; the guard makes the second include a no-op.
include_guard(GLOBAL)

find_package(prometheus-cpp CONFIG REQUIRED)  # Debian ships 1.0.1 without a version file

add_library(throng_metrics STATIC ${CMAKE_CURRENT_LIST_DIR}/metrics.cpp)
# throng_engine for StageName and TickStats::total_ms (kernels/world/world_types.cpp).
target_link_libraries(throng_metrics
  PUBLIC throng_options
  PRIVATE throng_engine prometheus-cpp::core prometheus-cpp::pull)
