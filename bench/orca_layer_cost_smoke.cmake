# CTest smoke test of throng-bench-orca --layer-cost (bench/CMakeLists.txt): the paired
# layer-off solves must not change the crowd (the same statuses as a run without them), and
# the JSON must hold the layer-off step and a positive cost ratio. Not a timing test.
#   cmake -DBENCH=path/to/throng-bench-orca -DOUT=prefix -P orca_layer_cost_smoke.cmake
set(args --backends cpu --scenarios random --sizes 1000 --ticks 6 --warmup 40 --no-overlaps)
foreach(run plain paired)
  file(REMOVE "${OUT}_${run}.json")
  set(extra "")
  if(run STREQUAL "paired")
    set(extra --layer-cost)
  endif()
  execute_process(COMMAND "${BENCH}" ${args} ${extra} --json "${OUT}_${run}.json"
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "throng-bench-orca ${extra} exited with ${rc}")
  endif()
  file(READ "${OUT}_${run}.json" json_${run})
  foreach(status ok safe_stop emergency)
    string(JSON ${run}_${status} GET "${json_${run}}" results 0 statuses ${status})
  endforeach()
endforeach()
foreach(status ok safe_stop emergency)
  if(NOT plain_${status} EQUAL paired_${status})
    message(FATAL_ERROR "--layer-cost changed the crowd: ${status} ${plain_${status}} without, "
                        "${paired_${status}} with")
  endif()
endforeach()
string(JSON ratio GET "${json_paired}" results 0 layer_cost_ratio)
string(JSON off_step GET "${json_paired}" results 0 layer_off_median_ms step)
if(NOT ratio GREATER 0 OR NOT off_step GREATER 0)
  message(FATAL_ERROR "unexpected layer cost: ratio ${ratio}, layer-off step ${off_step} ms")
endif()
string(JSON has_ratio ERROR_VARIABLE missing GET "${json_plain}" results 0 layer_cost_ratio)
if(missing STREQUAL "NOTFOUND")
  message(FATAL_ERROR "a run without --layer-cost reports a layer cost")
endif()
message(STATUS "throng-bench-orca --layer-cost: random 1000, on / off ${ratio}, "
               "statuses ${paired_ok}/${paired_safe_stop}/${paired_emergency} with and without")
