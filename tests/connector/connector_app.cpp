// An ordinary Kokkos program that knows nothing of rooftop: test_connector runs it with
// the connector loaded through KOKKOS_TOOLS_LIBS.

#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int n = 1 << 16;
    Kokkos::View<double*> x("x", n), y("y", n);
    for (int it = 0; it < 3; ++it)
      Kokkos::parallel_for(
          "app::axpy", n, KOKKOS_LAMBDA(const int i) { y(i) += 2.0 * x(i) + 1.0; });
    double sum = 0.0;
    Kokkos::parallel_reduce(
        "app::dot", n, KOKKOS_LAMBDA(const int i, double& s) { s += y(i); }, sum);
    long total = 0;
    Kokkos::parallel_scan(
        "app::prefix", 100, KOKKOS_LAMBDA(const int i, long& partial, const bool) { partial += i; },
        total);
    status = sum == 3.0 * n && total == 4950 ? 0 : 1;
    if (status != 0) std::fprintf(stderr, "connector_app: wrong answer\n");
  }
  Kokkos::finalize();
  return status;
}
