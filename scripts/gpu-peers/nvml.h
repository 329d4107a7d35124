/* A minimal nvml.h for the GPU peers that scripts/build-gpu-peers.sh builds: the few types
 * and functions of the NVIDIA Management Library that BabelStream's CUDA model and
 * gpu-benches' clock query call, declared as NVML's public API reference gives them, for
 * a CUDA Toolkit that ships without NVML's own header. The programs call the driver's
 * libnvidia-ml.so.1 at run time; nvml-stub.c only gives the linker those names. */
#ifndef ROOFTOP_PEERS_NVML_H
#define ROOFTOP_PEERS_NVML_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nvmlReturn_enum {
  NVML_SUCCESS = 0,
  NVML_ERROR_UNINITIALIZED = 1,
  NVML_ERROR_INVALID_ARGUMENT = 2,
  NVML_ERROR_NOT_SUPPORTED = 3,
  NVML_ERROR_NOT_FOUND = 6,
  NVML_ERROR_LIBRARY_NOT_FOUND = 12,
  NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

typedef struct nvmlDevice_st *nvmlDevice_t;

typedef enum nvmlClockType_enum {
  NVML_CLOCK_GRAPHICS = 0,
  NVML_CLOCK_SM = 1,
  NVML_CLOCK_MEM = 2,
  NVML_CLOCK_VIDEO = 3
} nvmlClockType_t;

/* The library's current entry points carry a version suffix; the plain names the peers
 * call stand for them, as in NVIDIA's header (the unsuffixed symbols are the old ABI). */
#define nvmlInit nvmlInit_v2
#define nvmlDeviceGetHandleByIndex nvmlDeviceGetHandleByIndex_v2
#define nvmlDeviceGetHandleByPciBusId nvmlDeviceGetHandleByPciBusId_v2

nvmlReturn_t nvmlInit_v2(void);
const char *nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                    unsigned int *clock);

#ifdef __cplusplus
}
#endif

#endif /* ROOFTOP_PEERS_NVML_H */
