// Uninitialised buffers for large tables, on transparent huge pages where the system offers them (Linux's
// MADV_HUGEPAGE): a table of a few megabytes written once then costs a few page faults instead of one per 4 KiB page.
// The contents are indeterminate until written.
#pragma once

#include <sys/mman.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace tverify {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
using LargeBuffer = std::unique_ptr<T[], FreeDeleter>;

// A buffer of `count` T (trivial types only), its storage aligned to huge pages from 1 MiB up. With huge_pages false
// (a buffer written sparsely) the storage is plain: a page is touched only where something is written.
template <class T>
LargeBuffer<T> large_buffer(std::size_t count, bool huge_pages = true) {
  static_assert(std::is_trivial_v<T>);
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  const std::size_t bytes = count * sizeof(T);
  if (!huge_pages || bytes < (std::size_t{1} << 20)) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (!p) throw std::bad_alloc();
    return LargeBuffer<T>(static_cast<T*>(p));
  }
  const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
  void* p = std::aligned_alloc(huge_page, rounded);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages the buffer works the same
#endif
  return LargeBuffer<T>(static_cast<T*>(p));
}

}  // namespace tverify
