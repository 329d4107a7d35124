// Where this process runs, as the MPI launcher and the kernel say: how many ranks were
// started, the CPUs it is bound to, the GPUs it sees. No MPI here (the plain build too).

#include <sched.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fleet.hpp"

namespace rooftop::app {
namespace {

// A positive integer from the environment, or 0.
int env_count(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' && n > 0 && n < (1L << 24) ? static_cast<int>(n) : 0;
}

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v;
}

}  // namespace

int launcher_ranks() {
  const char* forced = std::getenv("ROOFTOP_MPI");
  if (forced && std::string(forced) == "0") return 0;
  // The size each launcher announces: Open MPI's mpirun, MVAPICH, PMI-2 (MPICH's Hydra,
  // srun --mpi=pmi2), then PMIx (srun --mpi=pmix, Open MPI 5), whose size Slurm gives.
  for (const char* size : {"OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const int n = env_count(size)) return n;
  if (env_set("PMIX_RANK")) {
    for (const char* size : {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"})
      if (const int n = env_count(size)) return n;
    return 1;
  }
  return forced && std::string(forced) == "1" ? 1 : 0;
}

std::vector<int> bound_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(cpus[i]);
    if (j > i) {
      out += '-';
      out += std::to_string(cpus[j]);
    }
    i = j + 1;
  }
  return out;
}

int visible_gpus() {
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) {
    const std::string list = v;
    if (list.empty() || list == "-1" || list == "NoDevFiles") return 0;
    int n = 1;
    for (char c : list) n += c == ',';
    return n;
  }
  std::error_code ec;
  int n = 0;
  for (std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", ec), end;
       !ec && it != end; it.increment(ec))
    ++n;
  return n;
}

}  // namespace rooftop::app
