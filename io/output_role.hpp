// Whether this process writes files and prints results. A process running alone does; under MPI only rank 0 does,
// which set_active_cluster (checkers/cluster.hpp), its only writer, sets when a cluster becomes the process's. The
// writers of files.hpp read it, so a rank other than 0 writes nothing.
#pragma once

namespace tverify {

bool writes_outputs();
void set_writes_outputs(bool writes);

}  // namespace tverify
