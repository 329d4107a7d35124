#include "cupti_api.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "rooftop/core/error.hpp"
#include "rooftop/counters/cupti_host.hpp"

namespace rooftop::counters::cupti {
namespace {

Api open_api() {
  void* library = nullptr;
  std::string why;
  for (const char* name : {ROOFTOP_CUPTI_SONAME, ROOFTOP_CUPTI_PATH}) {
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library) break;
    const char* e = dlerror();
    why += std::string(why.empty() ? "" : "; ") + (e ? e : name);
  }
  if (!library)
    throw Error("GPU counters need libcupti (" ROOFTOP_CUPTI_SONAME "), which could not be "
                "loaded: " + why + " (put the CUDA Toolkit's CUPTI folder on LD_LIBRARY_PATH)");
  Api api;
#define ROOFTOP_CUPTI_RESOLVE(name)                                                           \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(library, #name));                     \
  if (!api.name)                                                                              \
    throw Error("the libcupti loaded (" ROOFTOP_CUPTI_SONAME ") has no " #name                 \
                ": it is older than the CUPTI rooftop was built with");
  ROOFTOP_CUPTI_FUNCTIONS(ROOFTOP_CUPTI_RESOLVE)
#undef ROOFTOP_CUPTI_RESOLVE
  return api;  // the library stays open for the life of the process
}

}  // namespace

const Api& api() {
  static std::once_flag once;
  static Api table;
  static std::string failure;
  std::call_once(once, [] {
    try {
      table = open_api();
    } catch (const Error& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw Error(failure);
  return table;
}

bool cupti_loaded() {
  void* handle = dlopen(ROOFTOP_CUPTI_SONAME, RTLD_NOLOAD | RTLD_LAZY);
  if (!handle) return false;
  dlclose(handle);  // RTLD_NOLOAD took a reference
  return true;
}

}  // namespace rooftop::counters::cupti
