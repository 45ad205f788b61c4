# throng-bench-grpc: the gRPC load client of issue 5 (Step and StreamSteps over loopback,
# split into serialisation, transport and engine time). Included only with the service.
add_executable(throng-bench-grpc grpc_load.cpp grpc_load_run.cpp grpc_raw.cpp throngd_child.cpp
                                 machine.cpp)
target_link_libraries(throng-bench-grpc PRIVATE throng_client_scenarios throng_spawn CLI11::CLI11
                                                nlohmann_json::nlohmann_json)
if(THRONG_HAVE_CUDA)
  target_link_libraries(throng-bench-grpc PRIVATE CUDA::cudart_static)  # machine.cpp
endif()

# A check that the load client drives a real throngd end to end and writes JSON that
# parses (unary and stream, small town); not a timing test.
if(THRONG_BUILD_TESTS)
  add_test(NAME throng_bench_grpc_smoke
           COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:throng-bench-grpc>
                   -DTHRONGD=$<TARGET_FILE:throngd>
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/throng_bench_grpc_smoke.json
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/grpc_smoke_test.cmake)
  set_tests_properties(throng_bench_grpc_smoke PROPERTIES ENVIRONMENT "OMP_WAIT_POLICY=PASSIVE"
                                                          TIMEOUT 180)
endif()
