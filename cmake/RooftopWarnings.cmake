# Per-target warnings; nothing directory-wide.
function(rooftop_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>)
  endif()
  # GCC 12 in C++20 at -O2 and above reports a bogus -Wrestrict inside std::string for
  # plain code such as `s = "k"` or `"v" + std::to_string(i)` (GCC bug 105329, fixed in
  # GCC 13): the warning names no defect of ours, so GCC 12 alone does not issue it.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
endfunction()
