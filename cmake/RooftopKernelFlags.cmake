# Flags for the targets that hold kernels (microbenchmarks, analyzer kernels): built
# for the host's widest vectors, 512-bit vectors preferred where the target has them
# (GCC otherwise stops at 256 bits on many x86 targets). Per target, nothing directory-wide.
set(ROOFTOP_KERNEL_FLAGS "")
if(ROOFTOP_HOST_ARCH AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  # (nvcc_wrapper hands options it does not know to the host compiler.)
  list(APPEND ROOFTOP_KERNEL_FLAGS -march=${ROOFTOP_HOST_ARCH})
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    list(APPEND ROOFTOP_KERNEL_FLAGS -mprefer-vector-width=512)
  endif()
endif()
string(REPLACE ";" " " ROOFTOP_KERNEL_FLAGS_TEXT "${ROOFTOP_KERNEL_FLAGS}")

function(rooftop_kernel_flags target)
  target_compile_options(${target} PRIVATE ${ROOFTOP_KERNEL_FLAGS})
endfunction()
