// The cluster of checkers/cluster.hpp over MPI: one process per rank, launched by mpirun or srun.
#pragma once

#include "checkers/cluster.hpp"

#include <memory>

namespace tverify::mpi {

// Joins the MPI job this process was launched in (MPI_Init_thread, MPI_THREAD_SERIALIZED) and makes it the active
// cluster; null, and nothing initialised, when no MPI launcher started this process. Destroying the result finalises
// MPI. Ranks other than 0 print nothing: their stdout and stderr go to /dev/null.
std::unique_ptr<Cluster> join_launched_job(int& argc, char**& argv);

}  // namespace tverify::mpi
