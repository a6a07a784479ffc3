# cmake -DOUTPUT=file -P write_output.cmake -- COMMAND...: runs COMMAND and writes its stdout to
# OUTPUT, whole or not at all (a failed command leaves no half-written file for install to
# pick up). Used for what the build generates from the built bench (CMakeLists.txt).
set(command)
set(after_dashes FALSE)
foreach(index RANGE ${CMAKE_ARGC})
  if(after_dashes AND DEFINED CMAKE_ARGV${index})
    list(APPEND command "${CMAKE_ARGV${index}}")
  elseif("${CMAKE_ARGV${index}}" STREQUAL "--")
    set(after_dashes TRUE)
  endif()
endforeach()
execute_process(COMMAND ${command} OUTPUT_FILE "${OUTPUT}.tmp" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "${command}: ${result}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
