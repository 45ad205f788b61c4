# The reference must be an oracle of its own (issue 40): no file in kernels/reference/
# includes the engine's code in kernels/backends, kernels/detection, kernels/navigation,
# kernels/orca, kernels/steering or kernels/vehicles. Allowed are headers of types and of the input
# contract: the backend interface it implements, the columns, parameters and results it
# reads and writes, and the input checks every backend applies (what a valid input is has
# one definition; what is computed from it is the reference's own). Any other engine
# include fails the test.
#   cmake -DSOURCE_DIR=<repository root> -P include_rule.cmake
cmake_minimum_required(VERSION 3.16)  # IN_LIST in script mode
set(allowed
    "kernels/backend_api/backend.h"
    "kernels/backend_api/contacts.h"
    "kernels/detection/agent_conditions.h"
    "kernels/detection/pedestrian_report_types.h"
    "kernels/navigation/nav_steer_types.h"
    "kernels/navigation/nav_types.h"
    "kernels/orca/orca_types.h"
    "kernels/orca/orca_validate.h"
    "kernels/steering/forward_batch.h"
    "kernels/steering/forward_move_types.h"
    "kernels/steering/forward_prepare_types.h"
    "kernels/steering/forward_scene_types.h"
    "kernels/steering/pedestrian_move_types.h"
    "kernels/steering/pedestrian_prepare_types.h"
    "kernels/vehicles/bicycle_params.h"
    "kernels/vehicles/follower_types.h"
    "kernels/vehicles/path_check_types.h"
    "kernels/vehicles/spline_desc.h"
    "kernels/vehicles/spline_queries.h"
    "kernels/vehicles/vehicle_batch.h"
    "kernels/vehicles/vehicle_disc_types.h"
    "kernels/vehicles/vehicle_memory.h"
    "kernels/vehicles/vehicle_move_types.h"
    "kernels/vehicles/vehicle_prepare_types.h"
    # The footprint type. Its helpers (discs, distance, front) are the engine's geometry:
    # the reference rebuilds the footprint from its definition and calls none of them.
    "kernels/vehicles/vehicle_body.h")
set(footprint_helpers "\\.(Disc|DiscCount|DiscRadius|DistanceTo|front|rear|centre)\\(")
# The engine headers a file includes, outside the allowed list, in `out`.
function(engine_includes path out)
  file(STRINGS "${path}" lines
       REGEX "^#include \"kernels/(backends|detection|navigation|orca|steering|vehicles)/")
  set(found "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
    if(NOT header IN_LIST allowed)
      list(APPEND found "${header}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()
# Each allowed header may itself include only allowed headers (or none of the engine's).
foreach(header IN LISTS allowed)
  engine_includes("${SOURCE_DIR}/${header}" found)
  foreach(included IN LISTS found)
    string(APPEND failures "  ${header}, allowed as types, includes engine code: ${included}\n")
  endforeach()
endforeach()
file(GLOB files RELATIVE "${SOURCE_DIR}/kernels/reference"
     "${SOURCE_DIR}/kernels/reference/*.cpp" "${SOURCE_DIR}/kernels/reference/*.h"
     "${SOURCE_DIR}/kernels/reference/*.cuh")
foreach(file IN LISTS files)
  engine_includes("${SOURCE_DIR}/kernels/reference/${file}" found)
  foreach(header IN LISTS found)
    string(APPEND failures "  kernels/reference/${file} includes engine code: ${header}\n")
  endforeach()
  file(STRINGS "${SOURCE_DIR}/kernels/reference/${file}" calls REGEX "${footprint_helpers}")
  foreach(line IN LISTS calls)
    string(APPEND failures "  kernels/reference/${file} calls the footprint's helpers: ${line}\n")
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "include_rule: the reference must not include engine code:\n${failures}")
endif()
list(LENGTH files count)
message("include_rule: ${count} reference files, no engine include")
