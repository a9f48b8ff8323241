# Every file of samples/maps is installed under PREFIX/share/rpgnav/maps, the tool under
# PREFIX/bin, the headers and the CMake package files where find_package looks.
# usage: cmake -DPREFIX=... -DMAPS=.../samples/maps -P installed_files.cmake
file(GLOB maps RELATIVE ${MAPS} ${MAPS}/*)
set(expected bin/rpgnav include/rpgnav/rpgnav.hpp)
foreach(map IN LISTS maps)
  list(APPEND expected share/rpgnav/maps/${map})
endforeach()
file(GLOB_RECURSE config ${PREFIX}/*/cmake/rpgnav/rpgnavConfig.cmake)
if(NOT config)
  message(FATAL_ERROR "no lib*/cmake/rpgnav/rpgnavConfig.cmake under ${PREFIX}")
endif()
foreach(file IN LISTS expected)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "not installed: ${PREFIX}/${file}")
  endif()
endforeach()
list(LENGTH expected count)
message(STATUS "${count} files in place under ${PREFIX}")
