# CTest smoke test of throng-bench (bench/CMakeLists.txt): a small crossing on the cpu
# backend must exit 0 and write JSON that parses, with one result holding tick times.
#   cmake -DBENCH=path/to/throng-bench -DOUT=out.json -P smoke_test.cmake
file(REMOVE "${OUT}")
execute_process(
  COMMAND "${BENCH}" --scenario crossing --size 200 --ticks 5 --warmup 1 --backend cpu
          --json "${OUT}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "throng-bench exited with ${rc}")
endif()
file(READ "${OUT}" json)
# string(JSON) fails with the parser's message on malformed JSON or a missing member.
string(JSON benchmark GET "${json}" benchmark)
string(JSON count LENGTH "${json}" results)
string(JSON backend GET "${json}" results 0 backend)
string(JSON median GET "${json}" results 0 tick_ms median)
string(JSON ticks GET "${json}" results 0 ticks)
if(NOT benchmark STREQUAL "world_tick" OR NOT count EQUAL 1 OR NOT backend STREQUAL "cpu"
   OR NOT ticks EQUAL 5)
  message(FATAL_ERROR "unexpected JSON: benchmark=${benchmark} results=${count} "
                      "backend=${backend} ticks=${ticks}")
endif()
message(STATUS "throng-bench smoke: crossing 200 on cpu, median tick ${median} ms")
