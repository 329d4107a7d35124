#pragma once
// The little of MPI a fleet needs, owned by the program (MPI stays out of every header
// but this one's implementation): start and stop, who this rank is and who shares its
// node, one flag from rank 0, and one gather of bytes to rank 0.

#include <string>
#include <vector>

namespace rooftop::app {

class MpiSession {
 public:
  MpiSession();   // MPI_Init; finds the ranks on this node (MPI_COMM_TYPE_SHARED)
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // among the ranks on this node
  int local_size() const { return local_size_; }
  double init_seconds() const { return init_seconds_; }

  // Rank 0's `value`, on every rank.
  int broadcast_from_root(int value) const;

  // Every rank's `bytes`, in rank order, on rank 0; empty on the other ranks. When the
  // total cannot travel in one gather, every rank throws the same rooftop::Error.
  std::vector<std::string> gather_to_root(const std::string& bytes) const;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  double init_seconds_ = 0.0;
};

}  // namespace rooftop::app
