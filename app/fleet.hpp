#pragma once
// `measure` across a fleet: started by an MPI launcher (mpirun, mpiexec, srun), every rank
// characterizes its share of its node (one GPU chosen from the node-local rank, or the
// cores bound to the rank) and rank 0 writes one fleet file. MPI stays inside the
// program; the ceilings library holds the fleet's data model and file.

#include <string>
#include <vector>

#include "commands.hpp"

namespace rooftop::app {

// How many ranks the MPI launcher that started this process says there are; 0 when no
// launcher started it. Read from the launchers' environment (Open MPI's mpirun, MPICH and
// MVAPICH, Slurm's srun with PMI or PMIx), before MPI starts. ROOFTOP_MPI=0 ignores a
// launcher; ROOFTOP_MPI=1 starts MPI even without one.
int launcher_ranks();

// The CPUs this process may run on (its affinity mask: the cores mpirun or srun bound
// it to), ascending, and the same as a list such as "0-3,8".
std::vector<int> bound_cpus();
std::string cpu_list(const std::vector<int>& cpus);

// GPUs this process can see: the entries of CUDA_VISIBLE_DEVICES where it is set (Slurm's
// --gpus-per-task sets it), else the GPUs the NVIDIA driver lists; 0 where there are none.
int visible_gpus();

// Every rank measures; rank 0 gathers the results once and writes `options.out` once.
// Returns rank 0's exit status on rank 0 (0 when the file was written and at least one
// rank measured) and 0 on the other ranks, whose results rank 0 reports. In a build
// without MPI it throws rooftop::Error, so that N processes never race on one file.
int run_measure_fleet(const MeasureOptions& options, const std::string& command_line);

}  // namespace rooftop::app
