# Writes OUTPUT with the current git revision of SOURCE_DIR, only when it changed
# (so an unchanged revision rebuilds nothing). Run at build time with cmake -P.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT revision)
  set(revision "unknown")
endif()
set(text "#pragma once\n#define ROOFTOP_GIT_REVISION \"${revision}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
