// Whether this process writes files and prints results. A process running alone does; under MPI only rank 0 does,
// which the cluster sets when it becomes the process's cluster (checkers/cluster.hpp). The writers of files.hpp read
// it, so a rank other than 0 writes nothing.
#pragma once

namespace tverify {

bool writes_outputs();
void set_writes_outputs(bool writes);

}  // namespace tverify
