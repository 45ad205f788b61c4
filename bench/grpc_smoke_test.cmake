# CTest smoke test of throng-bench-grpc (bench/grpc_load.cmake): a small town through a
# spawned throngd, unary and stream, must exit 0 and write JSON that parses, with one run
# per mode holding per-tick times.
#   cmake -DBENCH=throng-bench-grpc -DTHRONGD=throngd -DOUT=out.json -P grpc_smoke_test.cmake
file(REMOVE "${OUT}")
execute_process(
  COMMAND "${BENCH}" --spawn "${THRONGD}" --scenario town --size 300 --ticks 3 --warmup 1
          --split-repeats 1 --json "${OUT}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "throng-bench-grpc exited with ${rc}")
endif()
file(READ "${OUT}" json)
string(JSON benchmark GET "${json}" benchmark)
string(JSON count LENGTH "${json}" runs)
string(JSON first_mode GET "${json}" runs 0 mode)
string(JSON second_mode GET "${json}" runs 1 mode)
string(JSON ticks GET "${json}" runs 0 ticks)
string(JSON vehicles GET "${json}" runs 0 vehicles)
if(NOT benchmark STREQUAL "throng-bench-grpc" OR NOT count EQUAL 2 OR NOT ticks EQUAL 3
   OR NOT first_mode STREQUAL "unary" OR NOT second_mode STREQUAL "stream"
   OR vehicles EQUAL 0)
  message(FATAL_ERROR "unexpected JSON: benchmark=${benchmark} runs=${count} "
                      "modes=${first_mode},${second_mode} ticks=${ticks} vehicles=${vehicles}")
endif()
string(JSON ms GET "${json}" runs 0 ms)
message(STATUS "throng-bench-grpc smoke: town 300, unary and stream: ${ms}")
