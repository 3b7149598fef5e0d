// MPFR (and so MPFI) keeps per-thread caches of constants such as log 2, filled by exp and log. A thread that used
// them must free them before it ends, or they leak (LeakSanitizer reports them). Worker threads call this last.
#pragma once

#include <mpfr.h>

namespace tverify {

inline void release_thread_caches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

}  // namespace tverify
