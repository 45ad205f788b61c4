# The reference must be an oracle of its own (issue 40): no file in kernels/reference/
# includes the engine's code in kernels/backends, kernels/orca, kernels/steering or
# kernels/vehicles. Types are allowed (the backend interface it implements, the ORCA
# types). The exceptions below are the references that still lean on engine code, each
# to be written independently and then struck from this list; a new engine include, or
# an exception no longer needed, fails the test.
#   cmake -DSOURCE_DIR=<repository root> -P include_rule.cmake
cmake_minimum_required(VERSION 3.16)  # IN_LIST in script mode
set(allowed_types
    "kernels/backends/backend.h"
    "kernels/orca/orca_types.h"
    "kernels/steering/forward_batch.h"
    "kernels/steering/forward_scene_types.h")
set(pending
    # Obstacle vertices and their validation: the engine's BuildObstacleVertices, and
    # ValidateOrcaParams / ValidateAgents.
    "reference_backend.cpp:kernels/orca/obstacles.h"
    "reference_backend.cpp:kernels/orca/orca_validate.h"
    # SplineDesc, and FollowerParams / VehicleState: types, in headers that hold engine code.
    "spline_ref.h:kernels/vehicles/spline.h"
    "vehicle_ref.h:kernels/vehicles/vehicle.cuh")
file(GLOB files RELATIVE "${SOURCE_DIR}/kernels/reference"
     "${SOURCE_DIR}/kernels/reference/*.cpp" "${SOURCE_DIR}/kernels/reference/*.h"
     "${SOURCE_DIR}/kernels/reference/*.cuh")
set(failures "")
set(used "")
foreach(file IN LISTS files)
  file(STRINGS "${SOURCE_DIR}/kernels/reference/${file}" lines
       REGEX "^#include \"kernels/(backends|orca|steering|vehicles)/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
    if(header IN_LIST allowed_types)
      continue()
    endif()
    if("${file}:${header}" IN_LIST pending)
      list(APPEND used "${file}:${header}")
      continue()
    endif()
    string(APPEND failures "  kernels/reference/${file} includes engine code: ${header}\n")
  endforeach()
endforeach()
foreach(exception IN LISTS pending)
  if(NOT exception IN_LIST used)
    string(APPEND failures "  no longer needed, strike it from the list: ${exception}\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "include_rule: the reference must not include engine code:\n${failures}")
endif()
list(LENGTH files count)
list(LENGTH pending left)
message("include_rule: ${count} reference files, ${left} pending exceptions")
