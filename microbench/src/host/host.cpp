#include "rooftop/microbench/host.hpp"
#include "rooftop/core/host_name.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "compute_kernel.hpp"

namespace rooftop::microbench {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "48K", "2048K", "105M" -> bytes.
std::uint64_t parse_size(const std::string& s) {
  std::uint64_t v = 0;
  std::size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
    v = v * 10 + (s[i++] - '0');
  if (i < s.size() && (s[i] == 'K' || s[i] == 'k')) v <<= 10;
  if (i < s.size() && s[i] == 'M') v <<= 20;
  if (i < s.size() && s[i] == 'G') v <<= 30;
  return v;
}

// "0-3,8-11" -> 8.
int count_cpu_list(const std::string& list) {
  int count = 0;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    if (part.empty()) continue;
    if (dash == std::string::npos) {
      ++count;
    } else {
      count += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
    }
  }
  return count;
}

std::map<std::string, std::string> cpuinfo_first_processor() {
  std::map<std::string, std::string> out;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) break;  // end of the first processor's block
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    out[key] = value;
  }
  return out;
}

int physical_cores(const std::string& sysfs_root) {
  std::set<std::string> cores;
  for (int cpu = 0;; ++cpu) {
    const std::string base = sysfs_root + "/cpu" + std::to_string(cpu) + "/topology/";
    const std::string core = read_line(base + "core_id");
    if (core.empty()) break;
    cores.insert(read_line(base + "physical_package_id") + ":" + core);
  }
  return static_cast<int>(cores.size());
}

// kAdds dependent adds, unrolled at compile time so that loop control (a taken branch
// per add) cannot be the limit. The empty asm that "may change x" forbids folding the
// chain into one multiply; each add then waits one cycle for the previous one.
template <std::size_t... kAdds>
inline std::int64_t add_chain(std::int64_t x, std::int64_t k, std::index_sequence<kAdds...>) {
  const auto add = [&] {
    x += k;
    asm volatile("" : "+r"(x));
  };
  (((void)kAdds, add()), ...);
  return x;
}

}  // namespace

std::vector<core::CacheLevel> read_caches(const std::string& sysfs_root) {
  std::vector<core::CacheLevel> out;
  for (int index = 0;; ++index) {
    const std::string base = sysfs_root + "/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = read_line(base + "level");
    if (level.empty()) break;
    const std::string type = read_line(base + "type");
    if (type != "Data" && type != "Unified") continue;
    core::CacheLevel c;
    c.name = "l" + level;
    c.bytes = parse_size(read_line(base + "size"));
    c.shared_by = std::max(1, count_cpu_list(read_line(base + "shared_cpu_list")));
    if (c.bytes > 0) out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

core::Machine describe_host(const std::string& sysfs_root) {
  core::Machine m;
  m.hostname = core::host_name();
  const auto info = cpuinfo_first_processor();
  m.cpu_model = info.count("model name") ? info.at("model name") : "unknown CPU";
  m.execution_space = Kokkos::DefaultHostExecutionSpace::name();
  m.threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  m.hardware_threads = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  // The host's memory, as a GPU's is recorded: what a model's weights must fit in.
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    m.memory_bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  // Threads are spread over cores first (OMP_PROC_BIND=spread).
  m.cores = std::min(std::max(1, physical_cores(sysfs_root)), m.threads);
  m.caches = read_caches(sysfs_root);
  m.simd_bits = kHostSimdBytes * 8;
  const auto number = [&](const char* key, int base) {
    try {
      return info.count(key) ? std::stoi(info.at(key), nullptr, base) : 0;
    } catch (const std::exception&) {
      return 0;
    }
  };
  const ceilings::CoreModel p =
      ceilings::core_model(info.count("vendor_id") ? info.at("vendor_id") : "", number("cpu family", 10),
                 number("model", 10), m.cpu_model, m.simd_bits);
  m.fma_pipes = p.fma;
  m.add_pipes = p.add;
  m.load_ports = p.loads;
  m.store_bytes_per_cycle = p.store_bytes;
  m.hardware_model = p.assumption;
  m.compiler = __VERSION__;
#ifdef ROOFTOP_KERNEL_FLAGS
  m.compile_flags = ROOFTOP_KERNEL_FLAGS;
#endif
  m.kokkos_version = std::to_string(KOKKOS_VERSION / 10000) + "." +
                     std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                     std::to_string(KOKKOS_VERSION % 100);
  m.device_arch = ROOFTOP_DEVICE_ARCH;
  return m;
}

namespace {

constexpr std::int64_t kAddsPerIteration = 256;

// Every thread of the host space reads its own clock at once; in GHz, one per thread.
std::vector<double> clock_per_thread_ghz(std::int64_t iterations, int attempts) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  std::vector<double> ghz(static_cast<std::size_t>(Host().concurrency()), 0.0);
  double* out = ghz.data();
  Kokkos::parallel_for("rooftop::clock", Kokkos::RangePolicy<Host>(0, Host().concurrency()),
                       [=](const int t) { out[t] = thread_clock_ghz(iterations, attempts); });
  Host().fence();
  return ghz;
}

}  // namespace

// `attempts` chains of `iterations` x 256 dependent adds on the calling thread; the
// fastest. Preemption and interrupts only ever lower the apparent clock, so the fastest
// attempt is the truth.
double thread_clock_ghz(std::int64_t iterations, int attempts) {
  double best = 0.0;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    std::int64_t x = attempt, k = 1;
    asm volatile("" : "+r"(k));  // an opaque register, not an immediate the core could fold
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t i = 0; i < iterations; ++i)
      x = add_chain(x, k, std::make_index_sequence<kAddsPerIteration>{});
    const auto t1 = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t1 - t0).count();
    best = std::max(best, static_cast<double>(iterations * kAddsPerIteration) / s * 1e-9);
    asm volatile("" ::"r"(x));
  }
  return best;
}

double measure_host_clock_ghz(std::string& method) {
  // 12.8 M cycles per attempt: ~5 ms at 2.5 GHz.
  const std::vector<double> ghz = clock_per_thread_ghz(50000, 7);
  method = "dependent integer-add chain, 1 cycle per add, on all " + std::to_string(ghz.size()) +
           " threads at once; highest of 7 runs on any thread";
  // The highest reading keeps theoretical peaks upper bounds.
  return *std::max_element(ghz.begin(), ghz.end());
}

double sample_clock_ghz() {
  // 1.5 M cycles per attempt: ~0.4 ms at 3.5 GHz, short beside a 10-50 ms sample.
  const std::vector<double> ghz = clock_per_thread_ghz(6000, 3);
  // The cores' peaks add up: the machine's is cores x per-core peak x the mean clock.
  double sum = 0.0;
  for (double g : ghz) sum += g;
  return sum / static_cast<double>(ghz.size());
}

}  // namespace rooftop::microbench
