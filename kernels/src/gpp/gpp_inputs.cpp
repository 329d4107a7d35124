// The GPP ladder's inputs (hashed, branches diverging), the branch counts and the
// reference answers: the factored sum and the straightforward loop over every term.

#include "gpp_inputs.hpp"

#include <cmath>

#include "gpp_body.hpp"

namespace rooftop::kernels::gpp {
namespace {

using C = std::complex<double>;

// A reproducible uniform number in [0, 1) for (stream, i, j): splitmix64's finalizer.
double uniform(std::uint64_t stream, std::uint64_t i, std::uint64_t j = 0) {
  std::uint64_t z = stream * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull +
                    j * 0x94D049BB133111EBull + 0x2545F4914F6CDD1Dull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

enum Stream : std::uint64_t { kEnergy = 1, kModeRe, kModeIm, kModeGp, kModeG, kEps, kVcoul, kAqsm, kAqsn };

C unit_phase(std::uint64_t stream, std::uint64_t i, std::uint64_t j, double low) {
  const double r = low + (1.0 - low) * uniform(stream, i, 2 * j);
  const double phi = 6.283185307179586 * uniform(stream, i, 2 * j + 1);
  return std::polar(r, phi);
}

constexpr double kElk = 10.0, kDw = 1.0;  // the mini-apps' e_lk and dw
constexpr double kMargin = 1e-6;          // relative distance kept from each threshold

// Whether a (wx, wtilde) pair lies within kMargin of a threshold of the body.
bool near_threshold(double wx, C wtilde) {
  const auto close = [](double x, double limit) { return std::abs(x - limit) <= kMargin * limit; };
  const C wdiff = wx - wtilde;
  const double wdiffr = std::norm(wdiff);
  if (wdiffr < 1e-9) return true;  // a division by (almost) zero
  const C delw = wtilde / wdiff;
  const double delwr = std::norm(delw);
  if (close(wdiffr, kLimitTwo) || close(delwr, kLimitOne)) return true;
  if (delwr > 0.0 && close(delwr, kTolZero)) return true;
  const TermValue t = term_value(wx, wtilde);
  if (t.branch == Branch::kNearPole && std::norm(delw + 0.5) < 1e-6) return true;
  if (t.branch != Branch::kZero && wx < 0.0 && close(t.ssx_size, kSexcut)) return true;
  return std::abs(wx) < 1e-6;
}

}  // namespace

std::complex<double> Inputs::aqsmtemp(int n1, int igp) const { return unit_phase(kAqsm, n1, igp, 0.1); }
std::complex<double> Inputs::aqsntemp(int n1, int ig) const { return unit_phase(kAqsn, n1, ig, 0.1); }

Inputs make_inputs(const Size& size) {
  Inputs in;
  in.size = size;
  // wtilde's modes: real parts from 0.3 to 25 (more of them low, as plasmon energies
  // are), small imaginary parts; mode 0 is zero.
  in.wtilde_mode[0] = 0.0;
  for (int k = 1; k < kModes; ++k) {
    const double re = 0.3 * std::pow(25.0 / 0.3, uniform(kModeRe, k));
    in.wtilde_mode[k] = C(re, re * 0.05 * (uniform(kModeIm, k) - 0.5));
  }
  // Band energies: the occupied bands 3 to 8 below E_lk (the mini-apps' wx 3, 4, 5), the
  // others from 10 below to 50 above it; the first unoccupied band just below E_lk, so
  // that its middle frequency sees wx = 0.2 (the zero branch where wtilde is zero).
  in.wx.resize(static_cast<std::size_t>(size.number_bands) * size.nw);
  for (int n1 = 0; n1 < size.number_bands; ++n1) {
    double energy = n1 < size.nvband           ? kElk - 3.0 - 5.0 * uniform(kEnergy, n1)
                    : n1 == size.nvband        ? kElk - 0.2
                                               : kElk - 10.0 + 60.0 * uniform(kEnergy, n1);
    for (int attempt = 0;; ++attempt) {
      bool clear = true;
      for (int iw = 0; iw < size.nw && clear; ++iw)
        for (int k = 0; k < kModes && clear; ++k)
          clear = !near_threshold(kElk + kDw * (iw - 1) - energy, in.wtilde_mode[k]);
      if (clear || attempt > 1000) break;
      energy += 0.0137;
    }
    for (int iw = 0; iw < size.nw; ++iw)
      in.wx[static_cast<std::size_t>(n1) * size.nw + iw] = kElk + kDw * (iw - 1) - energy;
  }
  in.mode_gprime.resize(size.ngpown);
  in.eps_gprime.resize(size.ngpown);
  in.vcoul.resize(size.ngpown);
  for (int igp = 0; igp < size.ngpown; ++igp) {
    in.mode_gprime[igp] = static_cast<int>(kModes * uniform(kModeGp, igp));
    in.eps_gprime[igp] = unit_phase(kEps, igp, 0, 0.3);
    in.vcoul[igp] = 1.0 / (0.05 + uniform(kVcoul, igp));  // 8 pi / |q + G|^2 spans decades
  }
  in.mode_g.resize(size.ncouls);
  in.eps_g.resize(size.ncouls);
  for (int ig = 0; ig < size.ncouls; ++ig) {
    in.mode_g[ig] = static_cast<int>(kModes * uniform(kModeG, ig));
    in.eps_g[ig] = unit_phase(kEps, ig, 1, 0.3);
  }
  return in;
}

TermValue term_value(double wx, std::complex<double> wtilde, std::complex<double> eps) {
  TermValue t;
  const C wtilde2 = wtilde * wtilde;
  const C omega2 = wtilde2 * eps;
  const C wdiff = wx - wtilde;
  const C delw = wtilde / wdiff;
  const double delwr = std::norm(delw), wdiffr = std::norm(wdiff);
  if (wdiffr > kLimitTwo && delwr < kLimitOne) {
    t.sch = delw * eps;
    t.ssx = omega2 / (wx * wx - wtilde2);
  } else if (delwr > kTolZero) {
    t.branch = Branch::kNearPole;
    t.ssx = -omega2 * delw / (4.0 * wtilde2 * (delw + 0.5));
  } else {
    t.branch = Branch::kZero;
  }
  t.ssx_size = std::abs(t.ssx) / std::abs(eps);
  if (std::abs(t.ssx) > kSexcut * std::abs(eps) && wx < 0.0) {
    t.ssx = 0.0;
    t.cut = true;
  }
  return t;
}

namespace {

// How many (G', G) pairs take each mode: the convolution of a's and b's histograms.
std::array<double, kModes> pairs_per_mode(const Inputs& in) {
  std::array<double, kModes> a{}, b{}, out{};
  for (int m : in.mode_gprime) a[m] += 1;
  for (int m : in.mode_g) b[m] += 1;
  for (int i = 0; i < kModes; ++i)
    for (int j = 0; j < kModes; ++j) out[(i + j) % kModes] += a[i] * b[j];
  return out;
}

}  // namespace

BranchCounts branch_counts(const Inputs& in) {
  const std::array<double, kModes> pairs = pairs_per_mode(in);
  BranchCounts c;
  for (int n1 = 0; n1 < in.size.number_bands; ++n1)
    for (int iw = 0; iw < in.size.nw; ++iw)
      for (int k = 0; k < kModes; ++k) {
        const TermValue t = term_value(in.wx_at(n1, iw), in.wtilde_mode[k]);
        const double n = pairs[k];
        (t.branch == Branch::kUsual ? c.usual : t.branch == Branch::kNearPole ? c.near_pole : c.zero) += n;
        if (t.cut) c.cut += n;
      }
  return c;
}

Answer reference(const Inputs& in) {
  const Size& s = in.size;
  Answer out{std::vector<C>(s.nw), std::vector<C>(s.nw)};
  std::vector<C> ssx_of(kModes), sch_of(kModes), by_mode(kModes);
  for (int n1 = 0; n1 < s.number_bands; ++n1) {
    // by_mode[r]: the sum of aqsntemp(n1, G) f(G) over the G with b(G) = r.
    std::fill(by_mode.begin(), by_mode.end(), C());
    for (int ig = 0; ig < s.ncouls; ++ig) by_mode[in.mode_g[ig]] += in.aqsntemp(n1, ig) * in.eps_g[ig];
    for (int iw = 0; iw < s.nw; ++iw) {
      for (int k = 0; k < kModes; ++k) {
        const TermValue t = term_value(in.wx_at(n1, iw), in.wtilde_mode[k]);
        ssx_of[k] = t.ssx;
        sch_of[k] = t.sch;
      }
      C ssx_sum, sch_sum;
      for (int igp = 0; igp < s.ngpown; ++igp) {
        C ssx_g, sch_g;  // the sum over G for this G'
        const int a = in.mode_gprime[igp];
        for (int r = 0; r < kModes; ++r) {
          const int k = (a + r) % kModes;
          ssx_g += ssx_of[k] * by_mode[r];
          sch_g += sch_of[k] * by_mode[r];
        }
        const C weight = in.vcoul[igp] * std::conj(in.aqsmtemp(n1, igp)) * in.eps_gprime[igp];
        ssx_sum += weight * ssx_g;
        sch_sum += weight * sch_g;
      }
      out.asxtemp[iw] -= in.occ(n1) * ssx_sum;
      out.achtemp[iw] += 0.5 * sch_sum;
    }
  }
  return out;
}

Answer reference_by_terms(const Inputs& in) {
  const Size& s = in.size;
  Answer out{std::vector<C>(s.nw), std::vector<C>(s.nw)};
  for (int n1 = 0; n1 < s.number_bands; ++n1)
    for (int igp = 0; igp < s.ngpown; ++igp)
      for (int ig = 0; ig < s.ncouls; ++ig) {
        const C band = std::conj(in.aqsmtemp(n1, igp)) * in.aqsntemp(n1, ig);
        for (int iw = 0; iw < s.nw; ++iw) {
          const TermValue t = term_value(in.wx_at(n1, iw), in.wtilde(igp, ig), in.eps(igp, ig));
          out.asxtemp[iw] -= in.vcoul[igp] * in.occ(n1) * t.ssx * band;
          out.achtemp[iw] += in.vcoul[igp] * t.sch * band * 0.5;
        }
      }
  return out;
}

}  // namespace rooftop::kernels::gpp
