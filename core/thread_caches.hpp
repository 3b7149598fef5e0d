// MPFR's per-thread state (Debian's MPFR is built thread-safe, so each thread has its own).
// - Caches of constants such as log 2, filled by exp and log: a thread that used them must free them before it ends,
//   or they leak (LeakSanitizer reports them). Worker threads call release_thread_caches last.
// - The exponent range: by default numbers down to about 2^-2^30 (e^-7.4e8), so e^-1e9 rounds to 0 and its
//   enclosure cannot exclude 0. Every thread that computes widens it to MPFR's limits (about 2^-4.6e18) first.
#pragma once

#include <mpfr.h>

#include <stdexcept>

namespace tverify {

inline void release_thread_caches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

// Widens this thread's exponent range to MPFR's limits; once per thread, a thread-local test after the first call.
// Numbers made under the default range stay valid in the wider one.
inline void widen_exponent_range() {
  thread_local const bool widened = [] {
    if (!mpfr_buildopt_tls_p())  // one range for every thread: round_to_format's narrowing would race
      throw std::logic_error("tverify needs an MPFR built thread-safe (its state per thread)");
    return mpfr_set_emin(mpfr_get_emin_min()) == 0 && mpfr_set_emax(mpfr_get_emax_max()) == 0;
  }();
  (void)widened;
}

}  // namespace tverify
