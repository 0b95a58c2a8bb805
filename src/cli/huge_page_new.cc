// The program's operator new: glibc's malloc, with big blocks advised into
// transparent huge pages (base/huge_pages.h says why).  Only the plain
// form is replaced: libstdc++'s array and nothrow forms call it, and every
// delete form frees with free(), which matches malloc.
//
// Not under AddressSanitizer, whose own operator new pairs with its own
// operator delete to catch mismatched frees, nor under ThreadSanitizer,
// whose runtime defines operator new itself.
#include <cstdlib>
#include <new>

#include "base/huge_pages.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HTPSCOPE_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HTPSCOPE_UNDER_SANITIZER 1
#endif

#ifndef HTPSCOPE_UNDER_SANITIZER
void* operator new(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  void* block;
  while ((block = std::malloc(bytes)) == nullptr) {
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
  htpscope::AdviseHugePages(block, bytes);
  return block;
}
#endif
