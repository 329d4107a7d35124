#pragma once
// What the host is: caches from sysfs, cores, the vector units the kernels were
// built for, and the clock measured under load.

#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/ceilings/cpu_cores.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::microbench {

// Everything but the clock; reads /proc/cpuinfo and /sys/devices/system/cpu.
// `sysfs_root` exists for tests ("/sys/devices/system/cpu" on a real machine).
core::Machine describe_host(const std::string& sysfs_root = "/sys/devices/system/cpu");

// Caches of cpu0 as listed under <sysfs_root>/cpu0/cache (data and unified only).
std::vector<core::CacheLevel> read_caches(const std::string& sysfs_root);

// Sustained core clock in GHz, measured with a chain of dependent integer adds
// (one cycle each on every current core) on all threads of the host space at once;
// the highest reading. Also sets `method` to a one-line description.
double measure_host_clock_ghz(std::string& method);

// The clock around one timed sample: the same chain, shorter (about 1.5 ms in all), and
// the mean over the threads, as every core contributes its own clock to the sample's
// rate. What core::Sampling::clock is set to for the compute points.
double sample_clock_ghz();

// Seconds per measuring thread lost so far to other tasks and to the hypervisor (the
// scheduler's run_delay of this process's threads and the steal time of its CPUs, from
// /proc). Only differences mean anything. host_lost_time_readable() is false where the
// kernel keeps no scheduler statistics; then only steal time is seen.
double host_lost_seconds();
bool host_lost_time_readable();
// The watch a host's core::Sampling::watch is set to: what each launch lost of its time
// by host_lost_seconds. Measurements run one at a time.
core::Watch& host_watch();

// The calling thread's own clock: the fastest of `attempts` chains of `iterations` x 256
// dependent adds (6000 iterations: about 0.4 ms at 3.5 GHz).
double thread_clock_ghz(std::int64_t iterations = 6000, int attempts = 3);

}  // namespace rooftop::microbench
