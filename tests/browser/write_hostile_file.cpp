// Writes a kernels file whose every text is hostile to an HTML page: names that close a
// script element or open markup with handlers that would set window.__pwned if they
// ever ran, quotes, U+2028/U+2029, other scripts, and very long strings. The browser tests
// report it and check that all of it reads as text and none of it runs.

#include <cstdio>
#include <exception>
#include <string>

#include "rooftop/ceilings/io.hpp"

namespace {

const std::string kCloser = "</script><script>window.__pwned = 'closer'</script>";
const std::string kMarkup = "<img src=x onerror=\"window.__pwned = 'img'\"><b>bold</b>";
const std::string kQuotes = "\"'`; window.__pwned = 'quotes'; //\xE2\x80\xA8\xE2\x80\xA9<!--";
const std::string kUnicode = "\xC3\x9Cn\xC3\xAF\x63\xC3\xB8" "d\xC3\xA9 \xE2\x98\x83 "
                             "\xF0\x9D\x94\x98 \xD7\xA2\xD7\x91\xD7\xA8\xD7\x99\xD7\xAA";

rooftop::core::Ceiling ceiling(const std::string& name, double value, const std::string& note) {
  rooftop::core::Ceiling c;
  c.name = name;
  c.kind = name.rfind("fp", 0) == 0 ? "compute" : "bandwidth";
  c.units = c.kind == "compute" ? "GFLOP/s" : "GB/s";
  c.value = c.median = c.min = c.max = value;
  c.samples = 1;
  c.pattern = c.kind == "compute" ? "fma" : "read";
  c.note = note;
  return c;
}

rooftop::core::KernelRecord kernel(const std::string& name, const std::string& id, double ai) {
  rooftop::core::KernelRecord k;
  k.name = name;
  k.id = id;
  k.group = "<b>ladder</b>";  // ids and groups are short fields of the file
  k.description = kCloser + " " + kQuotes + " " + std::string(3000, 'x');  // cut at 255 bytes
  k.source = "declared";
  k.precision = "fp64";
  k.flops_fp64 = 1e9;
  k.bytes = {{"dram", 1e9 / ai}, {"l2", 1e9 / (4 * ai)}};
  k.time_s = 0.05;
  k.time_min = k.time_max = 0.05;
  k.samples = 1;
  k.check = "passed";
  k.note = kUnicode + " " + kCloser;
  return k;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_hostile_file OUT.h5\n");
    return 2;
  }
  try {
    rooftop::core::CeilingsFile f;
    f.provenance = rooftop::ceilings::current_provenance(kCloser);
    f.machine.hostname = kCloser;
    f.machine.execution_space = "OpenMP";
    f.machine.cpu_model = kMarkup + " " + kUnicode;
    f.machine.threads = 2;
    f.machine.compiler = kQuotes;
    f.machine.clock_method = std::string(4000, 'y') + kCloser;
    f.ceilings = {ceiling("fp64_fma", 100.0, kCloser), ceiling("l2", 300.0, kMarkup),
                  ceiling("dram", 40.0, kQuotes)};
    f.kernels = {kernel(kCloser, "<s>1", 0.5), kernel(kMarkup, "k\"2'", 4.0),
                 kernel(kQuotes + kUnicode, "\xE2\x98\x83<i>", 32.0)};
    for (std::size_t i = 0; i < f.kernels.size(); ++i) f.kernels[i].order = static_cast<int>(i);
    rooftop::ceilings::write_file(argv[1], f);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "write_hostile_file: %s\n", e.what());
    return 1;
  }
  return 0;
}
