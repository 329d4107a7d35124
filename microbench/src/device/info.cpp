// What the GPU is: CUDA runtime properties and attributes (CUDA 13 removed the clocks
// from cudaDeviceProp), and NVML, loaded at run time when present, for the driver's
// version string, the nominal clocks and MIG mode. Nothing here changes a clock.
#include <dlfcn.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>

#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/host.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace rooftop::microbench {
namespace {

std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

DriverCheck driver_check(int driver, int runtime) {
  DriverCheck out;
  if (driver <= 0) {
    out.fatal = true;
    out.message = "--space device: no NVIDIA driver found (libcuda.so.1 did not load)";
  } else if (driver / 1000 < runtime / 1000) {
    out.fatal = true;
    out.message = "--space device: the NVIDIA driver supports CUDA " + cuda_version_string(driver) +
                  ", older than the CUDA " + cuda_version_string(runtime) +
                  " runtime this rooftop was built with: install a driver for CUDA " +
                  cuda_version_string(runtime / 1000 * 1000) + " or newer";
  } else if (driver < runtime) {
    out.message = "the NVIDIA driver supports CUDA " + cuda_version_string(driver) +
                  ", older than the CUDA " + cuda_version_string(runtime) +
                  " runtime this rooftop was built with: it runs through CUDA's minor-version "
                  "compatibility, but a kernel the driver must compile from PTX will fail";
  }
  return out;
}

std::string device_name(const std::string& cuda_name, bool mig_mode) {
  if (!mig_mode || cuda_name.find(" MIG") != std::string::npos) return cuda_name;
  return cuda_name + " MIG";
}

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

// NVML's few entry points, resolved with dlsym: no header and no link dependency.
struct Nvml {
  std::string driver;
  unsigned max_sm_mhz = 0, max_mem_mhz = 0;
  bool mig = false;  // MIG mode is on: the CUDA device is a slice of this GPU
};

Nvml query_nvml(const std::string& pci_bus_id) {
  Nvml out;
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return out;
  using Init = int (*)();
  using Driver = int (*)(char*, unsigned);
  using Handle = int (*)(const char*, void**);
  using Clock = int (*)(void*, int, unsigned*);
  const auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
  const auto shutdown = reinterpret_cast<Init>(dlsym(lib, "nvmlShutdown"));
  const auto driver = reinterpret_cast<Driver>(dlsym(lib, "nvmlSystemGetDriverVersion"));
  const auto handle = reinterpret_cast<Handle>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  const auto max_clock = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
  using MigMode = int (*)(void*, unsigned*, unsigned*);
  const auto mig_mode = reinterpret_cast<MigMode>(dlsym(lib, "nvmlDeviceGetMigMode"));
  if (init && shutdown && init() == 0) {
    char version[96] = {};
    if (driver && driver(version, sizeof version) == 0) out.driver = version;
    // By PCI bus id: NVML's device index differs from CUDA's under CUDA_VISIBLE_DEVICES.
    void* device = nullptr;
    if (handle && max_clock && handle(pci_bus_id.c_str(), &device) == 0) {
      constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
      max_clock(device, kClockSm, &out.max_sm_mhz);
      max_clock(device, kClockMem, &out.max_mem_mhz);
      // Not supported (an error) on GPUs without MIG.
      unsigned current = 0, pending = 0;
      constexpr unsigned kMigEnabled = 1;  // NVML_DEVICE_MIG_ENABLE
      if (mig_mode && mig_mode(device, &current, &pending) == 0) out.mig = current == kMigEnabled;
    }
    shutdown();
  }
  dlclose(lib);
  return out;
}

}  // namespace

void check_device(int device) {
  int driver = 0;
  cudaDriverGetVersion(&driver);
  const DriverCheck versions = driver_check(driver, CUDART_VERSION);
  if (versions.fatal) throw Error(versions.message);
  if (!versions.message.empty()) std::fprintf(stderr, "warning: %s\n", versions.message.c_str());
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess)
    throw Error(std::string("--space device: no usable GPU (") + cudaGetErrorString(err) + ")");
  if (count == 0) throw Error("--space device: no usable GPU (the CUDA runtime sees none)");
  if (device < 0 || device >= count)
    throw Error("--device " + std::to_string(device) + ": no such GPU (this machine has " +
                std::to_string(count) + ")");
}

core::Machine describe_device() {
  core::Machine m = describe_host();
  const int dev = Kokkos::Cuda().cuda_device();
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess)
    throw Error("cannot read the properties of GPU " + std::to_string(dev));
  const auto attribute = [dev](cudaDeviceAttr a) {
    int v = 0;
    return cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess ? v : 0;
  };
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof bus, dev);
  const Nvml nvml = query_nvml(bus);
  m.execution_space = Kokkos::Cuda::name();
  m.gpu_name = device_name(prop.name, nvml.mig);
  m.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  m.cores = prop.multiProcessorCount;
  m.threads = static_cast<int>(Kokkos::Cuda().concurrency());
  m.hardware_threads = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
  // Shared by every thread of the GPU; the SMs' L1s are per SM and not a window.
  m.caches = {{"l2", static_cast<std::uint64_t>(prop.l2CacheSize), m.hardware_threads}};
  m.simd_bits = m.fma_pipes = m.add_pipes = m.load_ports = 0;
  m.store_bytes_per_cycle = 0.0;
  m.hardware_model =
      "FP lanes per SM by compute capability (CUDA C++ Programming Guide); L1 "
      "and shared memory 128 B/clock/SM";
  m.memory_bytes = prop.totalGlobalMem;
  m.memory_clock_ghz = attribute(cudaDevAttrMemoryClockRate) * 1e-6;  // kHz
  m.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  m.nominal_clock_ghz = attribute(cudaDevAttrClockRate) * 1e-6;
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  m.cuda_version = cuda_version_string(runtime);
  m.driver_version = "CUDA " + cuda_version_string(driver);
  if (!nvml.driver.empty())
    m.driver_version = nvml.driver + " (CUDA " + cuda_version_string(driver) + ")";
  if (nvml.max_sm_mhz > 0) m.nominal_clock_ghz = nvml.max_sm_mhz * 1e-3;
  m.hardware_model += nvml.max_sm_mhz > 0 ? "; nominal SM clock from NVML"
                                          : "; nominal SM clock from cudaDevAttrClockRate "
                                            "(NVML not available)";
  if (ceilings::is_mig_slice(m))
    m.hardware_model +=
        "; a MIG slice: the memory clock, bus width and L2 size describe the whole GPU";
  return m;
}

DeviceLimits device_limits() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, Kokkos::Cuda().cuda_device()) != cudaSuccess)
    throw Error("cannot read the properties of the GPU");
  DeviceLimits l;
  l.threads_per_sm = prop.maxThreadsPerMultiProcessor;
  l.threads_per_block = prop.maxThreadsPerBlock;
  l.shared_per_sm = prop.sharedMemPerMultiprocessor;
  l.shared_per_block = prop.sharedMemPerBlock;
  l.reserved_shared_per_block = prop.reservedSharedMemPerBlock;
  return l;
}

std::uint64_t device_free_bytes() {
  std::size_t free = 0, total = 0;
  return cudaMemGetInfo(&free, &total) == cudaSuccess ? free : 0;
}

ceilings::PcieLink pcie_link() {
  ceilings::PcieLink link;
  const int dev = Kokkos::Cuda().cuda_device();
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) {
    // Grace Hopper and Grace Blackwell reach their CPU over NVLink-C2C: whatever NVML
    // says of a PCIe link there does not carry the copies.
    const std::string name = prop.name;
    for (const char* c2c : {"GH200", "GB200", "GB300"})
      if (name.find(c2c) != std::string::npos) {
        link.interconnect = "NVLink-C2C";
        return link;
      }
  }
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof bus, dev);
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    link.why_unknown = "NVML (libnvidia-ml.so.1) did not load";
    return link;
  }
  using Init = int (*)();
  using Handle = int (*)(const char*, void**);
  using Query = int (*)(void*, unsigned*);
  const auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
  const auto shutdown = reinterpret_cast<Init>(dlsym(lib, "nvmlShutdown"));
  const auto handle = reinterpret_cast<Handle>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  const auto query = [lib](const char* symbol, void* device) {
    const auto f = reinterpret_cast<Query>(dlsym(lib, symbol));
    unsigned v = 0;
    return f && f(device, &v) == 0 ? static_cast<int>(v) : 0;
  };
  void* device = nullptr;
  if (!init || !shutdown || !handle || init() != 0) {
    link.why_unknown = "NVML did not initialize";
  } else {
    if (handle(bus, &device) == 0) {
      // Max: what the GPU and its slot both support (the link's rate under load).
      link.generation = query("nvmlDeviceGetMaxPcieLinkGeneration", device);
      link.width = query("nvmlDeviceGetMaxPcieLinkWidth", device);
      link.current_generation = query("nvmlDeviceGetCurrPcieLinkGeneration", device);
      link.current_width = query("nvmlDeviceGetCurrPcieLinkWidth", device);
      if (link.generation == 0 || link.width == 0) {
        link.generation = link.current_generation;
        link.width = link.current_width;
      }
      if (link.generation == 0 || link.width == 0)
        link.why_unknown = "NVML reports no PCIe link generation and width";
    } else {
      link.why_unknown = std::string("NVML does not know the GPU at ") + bus;
    }
    shutdown();
  }
  dlclose(lib);
  return link;
}

#else

std::uint64_t device_free_bytes() { return 0; }

ceilings::PcieLink pcie_link() {
  ceilings::PcieLink link;
  link.why_unknown = "this rooftop was built without a GPU backend";
  return link;
}

void check_device(int) {
  throw Error(
      "--space device: this rooftop was built without a GPU backend "
      "(configure against a CUDA-enabled Kokkos)");
}

core::Machine describe_device() {
  throw Error("--space device: this rooftop was built without a GPU backend");
}

DeviceLimits device_limits() {
  throw Error("--space device: this rooftop was built without a GPU backend");
}

#endif

}  // namespace rooftop::microbench
