# docs/ARCHITECTURE.md: each folder of kernels/ includes only the folders listed before it
# (and itself), so the concepts build on each other without a loop. An include of a later
# folder, or of a folder missing from the list, fails the test.
#   cmake -DSOURCE_DIR=<repository root> -P folder_rule.cmake
cmake_minimum_required(VERSION 3.16)  # IN_LIST in script mode
set(order math input spatial orca vehicles steering detection navigation backend_api reference
    backends world scenarios)
file(GLOB folders RELATIVE "${SOURCE_DIR}/kernels" "${SOURCE_DIR}/kernels/*")
set(failures "")
foreach(folder IN LISTS folders)
  if(NOT IS_DIRECTORY "${SOURCE_DIR}/kernels/${folder}")
    continue()
  endif()
  list(FIND order "${folder}" rank)
  if(rank EQUAL -1)
    string(APPEND failures "  kernels/${folder}/ is not in the folder order\n")
    continue()
  endif()
  file(GLOB_RECURSE files "${SOURCE_DIR}/kernels/${folder}/*.h" "${SOURCE_DIR}/kernels/${folder}/*.cuh"
       "${SOURCE_DIR}/kernels/${folder}/*.cpp" "${SOURCE_DIR}/kernels/${folder}/*.cu")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" lines REGEX "^#include \"kernels/[a-z_]+/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^#include \"kernels/([a-z_]+)/.*" "\\1" used "${line}")
      list(FIND order "${used}" used_rank)
      if(used_rank GREATER rank)
        file(RELATIVE_PATH shown "${SOURCE_DIR}" "${file}")
        string(APPEND failures "  ${shown} includes kernels/${used}/, listed after ${folder}/\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "folder_rule: a folder includes one listed after it:\n${failures}")
endif()
list(LENGTH order count)
message("folder_rule: ${count} folders, each including only those before it")
