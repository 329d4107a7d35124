/* Link-time stand-in for the driver's libnvidia-ml.so.1 (its soname), which the CUDA
 * Toolkit here has no stub of: the peers link against it and load the driver's library at
 * run time; it never travels in a bundle. Including nvml.h checks the signatures. */
#include "nvml.h"

nvmlReturn_t nvmlInit_v2(void) { return NVML_ERROR_LIBRARY_NOT_FOUND; }

const char *nvmlErrorString(nvmlReturn_t result) {
  (void)result;
  return "the link-time stand-in for libnvidia-ml was loaded instead of the driver's";
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
  (void)index;
  (void)device;
  return NVML_ERROR_LIBRARY_NOT_FOUND;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device) {
  (void)pciBusId;
  (void)device;
  return NVML_ERROR_LIBRARY_NOT_FOUND;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                    unsigned int *clock) {
  (void)device;
  (void)type;
  (void)clock;
  return NVML_ERROR_LIBRARY_NOT_FOUND;
}
