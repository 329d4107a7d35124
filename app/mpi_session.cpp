#include "mpi_session.hpp"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdint>

#include "rooftop/core/error.hpp"

namespace rooftop::app {

MpiSession::MpiSession() {
  const auto t0 = std::chrono::steady_clock::now();
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  MPI_Comm_free(&node);
  init_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

int MpiSession::broadcast_from_root(int value) const {
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

std::vector<std::string> MpiSession::gather_to_root(const std::string& bytes) const {
  // Every rank learns every size, so that all of them agree on whether the gather fits
  // (MPI counts and displacements are ints) and none waits for a gather that never comes.
  const int mine =
      bytes.size() > static_cast<std::size_t>(INT_MAX) ? -1 : static_cast<int>(bytes.size());
  std::vector<int> sizes(static_cast<std::size_t>(size_));
  MPI_Allgather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::int64_t total = 0;
  std::vector<int> offsets(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    total += sizes[r];
    if (sizes[r] < 0 || total > INT_MAX)
      throw Error(
          "the fleet's results are over 2 GiB: too much for one gather (measure "
          "fewer ranks at once)");
  }
  std::string all(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(bytes.data(), mine, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (rank_ != 0) return out;
  for (std::size_t r = 0; r < sizes.size(); ++r)
    out.push_back(
        all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
  return out;
}

}  // namespace rooftop::app
