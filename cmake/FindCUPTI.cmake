# Finds CUPTI from a CUDA Toolkit, new enough for the Profiler Host API and the Range
# Profiler API (CUDA >= 12.6: cupti_profiler_host.h and cupti_range_profiler.h).
#
#   CUPTI_FOUND, CUPTI_INCLUDE_DIR, CUPTI_LIBRARY, CUPTI_API_VERSION
#   CUPTI::cupti   imported target: libcupti and its headers, nothing else (no libcuda,
#                  no cudart: the host API needs neither a GPU nor a driver)
#   CUPTI::headers the headers alone, for code that opens libcupti at run time
#   CUPTI_SONAME   the name the loader knows libcupti by (libcupti.so.13)
#
# Looks where CUDA usually lives: CUDAToolkit_ROOT, CUDA_HOME, CUDA_PATH, the toolkit
# around the nvcc on PATH, /usr/local/cuda, then the system paths (Debian's packages).

set(_cupti_roots)
foreach(_root IN ITEMS "${CUDAToolkit_ROOT}" "$ENV{CUDAToolkit_ROOT}" "$ENV{CUDA_HOME}"
                       "$ENV{CUDA_PATH}")
  if(_root)
    list(APPEND _cupti_roots "${_root}")
  endif()
endforeach()
find_program(_cupti_nvcc nvcc PATHS /usr/local/cuda/bin NO_CACHE)
if(_cupti_nvcc)
  get_filename_component(_cupti_nvcc_dir "${_cupti_nvcc}" REALPATH)
  get_filename_component(_cupti_nvcc_dir "${_cupti_nvcc_dir}" DIRECTORY)
  get_filename_component(_cupti_nvcc_root "${_cupti_nvcc_dir}" DIRECTORY)
  list(APPEND _cupti_roots "${_cupti_nvcc_root}")
endif()
list(APPEND _cupti_roots /usr/local/cuda)

find_path(CUPTI_INCLUDE_DIR
  NAMES cupti_profiler_host.h
  HINTS ${_cupti_roots}
  PATH_SUFFIXES include extras/CUPTI/include targets/x86_64-linux/include
                targets/sbsa-linux/include
  DOC "Directory holding cupti_profiler_host.h (CUDA >= 12.6)")
find_library(CUPTI_LIBRARY
  NAMES cupti
  HINTS ${_cupti_roots}
  PATH_SUFFIXES lib64 lib extras/CUPTI/lib64 targets/x86_64-linux/lib targets/sbsa-linux/lib
  DOC "libcupti")

set(CUPTI_API_VERSION "")
if(CUPTI_INCLUDE_DIR AND EXISTS "${CUPTI_INCLUDE_DIR}/cupti_version.h")
  file(STRINGS "${CUPTI_INCLUDE_DIR}/cupti_version.h" _cupti_version_line
       REGEX "^#define CUPTI_API_VERSION [0-9]+")
  string(REGEX REPLACE "^#define CUPTI_API_VERSION ([0-9]+).*" "\\1" CUPTI_API_VERSION
         "${_cupti_version_line}")
endif()

# The Range Profiler header arrived with the host API; without it this CUPTI is too old.
set(CUPTI_RANGE_PROFILER_HEADER "")
if(CUPTI_INCLUDE_DIR AND EXISTS "${CUPTI_INCLUDE_DIR}/cupti_range_profiler.h")
  set(CUPTI_RANGE_PROFILER_HEADER "${CUPTI_INCLUDE_DIR}/cupti_range_profiler.h")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CUPTI
  REQUIRED_VARS CUPTI_LIBRARY CUPTI_INCLUDE_DIR CUPTI_RANGE_PROFILER_HEADER
  VERSION_VAR CUPTI_API_VERSION)
mark_as_advanced(CUPTI_INCLUDE_DIR CUPTI_LIBRARY)

if(CUPTI_FOUND)
  set(CUPTI_SONAME "libcupti.so")
  find_program(_cupti_readelf NAMES readelf NO_CACHE)
  if(_cupti_readelf)
    execute_process(COMMAND "${_cupti_readelf}" -d "${CUPTI_LIBRARY}"
                    OUTPUT_VARIABLE _cupti_dynamic ERROR_QUIET)
    if(_cupti_dynamic MATCHES "Library soname: \\[([A-Za-z0-9._+-]+)\\]")
      set(CUPTI_SONAME "${CMAKE_MATCH_1}")
    endif()
  endif()
endif()
if(CUPTI_FOUND AND NOT TARGET CUPTI::headers)
  add_library(CUPTI::headers INTERFACE IMPORTED)
  set_target_properties(CUPTI::headers PROPERTIES
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${CUPTI_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUPTI_INCLUDE_DIR}")
endif()
if(CUPTI_FOUND AND NOT TARGET CUPTI::cupti)
  add_library(CUPTI::cupti UNKNOWN IMPORTED)
  # SYSTEM: the toolkit's headers are not ours to keep warning-free.
  set_target_properties(CUPTI::cupti PROPERTIES
    IMPORTED_LOCATION "${CUPTI_LIBRARY}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${CUPTI_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${CUPTI_INCLUDE_DIR}")
endif()
unset(_cupti_roots)
