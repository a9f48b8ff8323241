# SPDX-License-Identifier: MIT
# The shared library exports the public API and nothing else (`nm -D --defined-only`):
# - every function rpgnav.h declares, and the C++ entry points an engine links against;
# - no symbol outside the C API and namespace rpgnav (no standard library code, no Boost);
# - nothing of rpgnav's internals: the search grids, line tests, corners, the stages' context and
#   the pimpls' Impl classes stay hidden (hidden visibility, RPGNAV_API on what is public, and
#   lib/rpgnav.map).
# usage: cmake -DNM=nm -DLIBRARY=librpgnav.so -DHEADER=include/rpgnav/rpgnav.h -P check_exports.cmake
execute_process(COMMAND ${NM} -D --defined-only -C ${LIBRARY} OUTPUT_VARIABLE listing RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(names "")
foreach(line IN LISTS lines)
  # "0000000000012340 T rpgnav::Planner::plan(...)": the name is what follows the type letter.
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] (.*)$")
    list(APPEND names "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(LENGTH names count)
if(count LESS 50)
  message(FATAL_ERROR "only ${count} symbols exported by ${LIBRARY}")
endif()

set(stray "")
set(internal "")
foreach(name IN LISTS names)
  string(REGEX REPLACE "^(typeinfo name for |typeinfo for |vtable for |non-virtual thunk to |guard variable for )" "" bare "${name}")
  if(NOT bare MATCHES "^rpgnav_" AND NOT bare MATCHES "^rpgnav::")
    list(APPEND stray "${name}")
  elseif((bare MATCHES "^rpgnav::(detail|SearchGrid|SearchContext|SearchGate|SegmentTester|ConvexCorners|Clearance|NavLayer|StageScratch|StageContext|BitLines|EntityQuery|DetourOutcome|QueryDoors)(::|\\()"
          OR bare MATCHES "^rpgnav::[A-Za-z]+::Impl(::|\\()"  # (a pimpl's insides)
          OR bare MATCHES "^rpgnav::(SearchRequest|SearchResult|GateRule|GateCrossing|TileRect|BarrierSource)(::|\\()"
          OR bare MATCHES "^rpgnav::([a-zA-Z]+Stage|detourReach|polylineCost|measurePolyline|barrierClearance|meetsBarrier|barrierSlack)\\(")
         AND NOT bare MATCHES "^rpgnav::detail::assertFailed\\(")  # (what RPGNAV_ASSERT calls)
    list(APPEND internal "${name}")
  endif()
endforeach()
if(stray)
  list(JOIN stray "\n  " text)
  message(FATAL_ERROR "exported outside the public API:\n  ${text}")
endif()
if(internal)
  list(JOIN internal "\n  " text)
  message(FATAL_ERROR "internals exported:\n  ${text}")
endif()

# Every C function of the header is there.
file(STRINGS ${HEADER} declarations REGEX "RPGNAV_C_API .*[ *]rpgnav_[a-z0-9_]+\\(")
set(functions 0)
foreach(declaration IN LISTS declarations)
  string(REGEX MATCH "rpgnav_[a-z0-9_]+\\(" function "${declaration}")
  string(REPLACE "(" "" function "${function}")
  list(FIND names "${function}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${function} (declared in rpgnav.h) is not exported")
  endif()
  math(EXPR functions "${functions} + 1")
endforeach()
# And the C++ entry points of the README's first program.
foreach(required "rpgnav::Planner::plan(" "rpgnav::readMapFile(" "rpgnav::World::World(" "rpgnav::ReplanScheduler::update("
                 "rpgnav::CrowdField::setGoals(" "typeinfo for rpgnav::DoorPolicy")
  string(FIND "${listing}" "${required}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${required} is not exported")
  endif()
endforeach()
message(STATUS "${count} symbols exported, all public; the ${functions} functions of rpgnav.h among them")
