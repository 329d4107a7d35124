# One rooftop library: rooftop_<name>, its ALIAS rooftop::<name>, public headers in the
# folder's include/, private sources in src/, and the project's warnings.
# CONNECTOR_SAFE: position-independent with hidden symbols, for the libraries linked
# into the Kokkos Tools connector's shared library.
function(rooftop_library name)
  cmake_parse_arguments(arg "CONNECTOR_SAFE" "" "SOURCES" ${ARGN})
  add_library(rooftop_${name} ${arg_SOURCES})
  add_library(rooftop::${name} ALIAS rooftop_${name})
  target_include_directories(rooftop_${name}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  if(arg_CONNECTOR_SAFE)
    set_target_properties(rooftop_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
      CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  endif()
  rooftop_warnings(rooftop_${name})
endfunction()
