# Runs `EXE path MAP --from FROM --to TO --svg OUT` and checks the picture: an SVG document with
# the map's tiles, the final path and its legend.
execute_process(COMMAND ${EXE} path ${MAP} --from ${FROM} --to ${TO} --radius 0.2 --svg ${OUT}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "rpgnav path --svg failed (${code}): ${out}${err}")
endif()
file(READ ${OUT} svg)
foreach(expected "<svg xmlns=\"http://www.w3.org/2000/svg\"" "<polyline" "smoothed path \\(8\\)" "A\\* tiles" "</svg>")
  if(NOT svg MATCHES "${expected}")
    message(FATAL_ERROR "${OUT} lacks ${expected}")
  endif()
endforeach()
