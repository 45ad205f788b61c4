# throng-bench-grpc: the gRPC load client of issue 5 (Step and StreamSteps over loopback,
# split into serialisation, transport and engine time). Included only with the service.
add_executable(throng-bench-grpc grpc_load.cpp grpc_load_run.cpp grpc_raw.cpp throngd_child.cpp
                                 machine.cpp)
target_link_libraries(throng-bench-grpc PRIVATE throng_client_scenarios CLI11::CLI11
                                                nlohmann_json::nlohmann_json)
if(THRONG_HAVE_CUDA)
  target_link_libraries(throng-bench-grpc PRIVATE CUDA::cudart_static)  # machine.cpp
endif()
