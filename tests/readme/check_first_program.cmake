# SPDX-License-Identifier: MIT
# The README's "A first program" is samples/hello_world.cpp, byte for byte: the fenced block
# right after the line MARKER (below) must equal the file.
#
# usage: cmake -DREADME=README.md -DPROGRAM=samples/hello_world.cpp -P check_first_program.cmake
cmake_minimum_required(VERSION 3.21)

set(marker "<!-- first-program: samples/hello_world.cpp -->")
set(open "\n```c++\n")
set(close "\n```\n")

file(READ "${README}" readme)
file(READ "${PROGRAM}" program)
string(REPLACE "\r\n" "\n" readme "${readme}")

string(FIND "${readme}" "${marker}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README}: no line \"${marker}\" (it marks the first program's block)")
endif()
string(FIND "${readme}" "${marker}" last REVERSE)
if(NOT at EQUAL last)
  message(FATAL_ERROR "${README}: \"${marker}\" appears more than once")
endif()

string(LENGTH "${marker}" markerLength)
math(EXPR after "${at} + ${markerLength}")
string(SUBSTRING "${readme}" ${after} -1 rest)
string(LENGTH "${open}" openLength)
string(SUBSTRING "${rest}" 0 ${openLength} opening)
if(NOT "${opening}" STREQUAL "${open}")
  message(FATAL_ERROR "${README}: the line after \"${marker}\" must open a fence: ```c++")
endif()
string(SUBSTRING "${rest}" ${openLength} -1 body)  # from the program's first line on
string(FIND "${body}" "${close}" end)
if(end EQUAL -1)
  message(FATAL_ERROR "${README}: the first program's ```c++ block is not closed")
endif()
math(EXPR end "${end} + 1")  # up to and with the newline of the block's last line
string(SUBSTRING "${body}" 0 ${end} block)

if("${block}" STREQUAL "${program}")
  message(STATUS "README.md's first program is ${PROGRAM}")
  return()
endif()

# Name the first line that differs.
set(line 1)
set(a "${block}")
set(b "${program}")
while(TRUE)
  string(FIND "${a}" "\n" na)
  string(FIND "${b}" "\n" nb)
  if(na EQUAL -1 OR nb EQUAL -1)
    break()
  endif()
  string(SUBSTRING "${a}" 0 ${na} la)
  string(SUBSTRING "${b}" 0 ${nb} lb)
  if(NOT "${la}" STREQUAL "${lb}")
    break()
  endif()
  math(EXPR na "${na} + 1")
  math(EXPR nb "${nb} + 1")
  string(SUBSTRING "${a}" ${na} -1 a)
  string(SUBSTRING "${b}" ${nb} -1 b)
  math(EXPR line "${line} + 1")
endwhile()
string(REGEX MATCH "^[^\n]*" la "${a}")
string(REGEX MATCH "^[^\n]*" lb "${b}")
if("${la}" STREQUAL "${lb}")
  set(what "at its end (a final newline, or lines after line ${line})")
else()
  set(what "at line ${line}:\n  README.md: ${la}\n  ${PROGRAM}: ${lb}")
endif()
message(FATAL_ERROR "The first program in ${README} (the ```c++ block after \"${marker}\") differs "
  "from ${PROGRAM} ${what}\n"
  "Copy the file into the README's block again (or the block into the file).")

