#pragma once
// The body of BerkeleyGW's Sigma-GPP kernel: one term (n1, G', G, iw) of the occupied
// (screened exchange, ssx) and unoccupied (Coulomb hole, sch) sums, as each step of the
// case study writes it. BerkeleyGW's loop (mtxel_cor, sigma_gpp) is, per term:
//
//   wtilde2 = wtilde^2          Omega2 = wtilde2 I_eps        wdiff = wx - wtilde
//   delw = wtilde / wdiff       delwr = |delw|^2              wdiffr = |wdiff|^2
//   if (wdiffr > limittwo and delwr < limitone)         (M: the usual term)
//     sch = delw I_eps,  cden = wx^2 - wtilde2,  ssx = Omega2 / cden
//   else if (delwr > TOL_Zero)                           (P: near the pole wx = wtilde)
//     sch = 0,  cden = 4 wtilde2 (delw + 1/2),  ssx = -Omega2 delw / cden
//   else                                                  (Z: both zero)
//   if (|ssx| > sexcut |I_eps| and wx < 0) ssx = 0       (the pole at wx + wtilde = 0)
//   ssx_sum += vcoul occ(n1) ssx M(n1,G,G')     sch_sum += vcoul sch M(n1,G,G') / 2
//
// with M = conj(aqsmtemp(n1, G')) aqsntemp(n1, G), occ(n1) 1 for the nvband occupied bands
// and 0 above them; asxtemp = -ssx_sum and achtemp = sch_sum. The steps:
//   plain (v1 to v5): as above, complex divisions, |ssx| through a square root;
//   v6 (simplify): wtilde2, Omega2 and the cutoff formed once per (G', G) before the band
//     loop, two branches where there were three (sch and ssx start at zero, the cutoff
//     decides whether ssx is added);
//   v7 (replace divides): each complex division becomes one reciprocal of a squared
//     magnitude and multiplies;
//   v8 (abs to squares): |ssx|^2 <= sexcut^2 |I_eps|^2, no square root.
//
// Every body is a template on its real type R: double in the kernels, and a counting type
// in the tests, which run the same code to check the closed-form FLOP counts in gpp.cpp.
// The FLOPs of each operation below are those of its source: a complex multiply 6, a
// squared magnitude 3, a complex division 11 (two of them divisions), a square root 1.

#include <Kokkos_Core.hpp>

namespace rooftop::kernels::gpp {

inline constexpr double kLimitTwo = 0.25;              // gamma^2: |wdiff|^2 must exceed it
inline constexpr double kLimitOne = 1.0 / (1e-6 * 4);  // 1 / (4 TOL_Small): |delw|^2 below it
inline constexpr double kTolZero = 1e-12;              // TOL_Zero
inline constexpr double kSexcut = 4.0;                 // sexcut: the ssx cutoff's factor

KOKKOS_INLINE_FUNCTION double to_double(double x) { return x; }

// A complex number of R, its operations written out so that each FLOP is one of R's.
template <class R>
struct Cx {
  R re, im;
};
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> operator+(const Cx<R>& a, const Cx<R>& b) { return {a.re + b.re, a.im + b.im}; }
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> operator*(const Cx<R>& a, const Cx<R>& b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> operator*(const R& r, const Cx<R>& z) { return {r * z.re, r * z.im}; }
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> real_minus(const R& r, const Cx<R>& z) { return {r - z.re, -z.im}; }
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> plus_real(const Cx<R>& z, const R& r) { return {z.re + r, z.im}; }
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> conj(const Cx<R>& z) { return {z.re, -z.im}; }
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> negate(const Cx<R>& z) { return {-z.re, -z.im}; }
template <class R>
KOKKOS_INLINE_FUNCTION R norm(const Cx<R>& z) { return z.re * z.re + z.im * z.im; }
template <class R>
KOKKOS_INLINE_FUNCTION R magnitude(const Cx<R>& z) {
  using Kokkos::sqrt;
  return sqrt(norm(z));
}
// a / b as the textbook writes it: the numerator a conj(b), each part divided by |b|^2.
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> divide(const Cx<R>& a, const Cx<R>& b) {
  const R d = norm(b);
  return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
template <class R>
KOKKOS_INLINE_FUNCTION Cx<R> zero() { return {R(0.0), R(0.0)}; }

// What one term adds to the two sums.
template <class R>
struct Update {
  Cx<R> ssx, sch;  // vcoul occ ssx M and vcoul sch M / 2
};

// v1 to v5: the term as BerkeleyGW's CPU loop writes it, everything formed in the term.
template <class R>
KOKKOS_INLINE_FUNCTION Update<R> term_plain(const R& wx, const Cx<R>& wtilde, const Cx<R>& eps,
                                            const Cx<R>& band, const R& vcoulx, const R& occ) {
  const Cx<R> wtilde2 = wtilde * wtilde;
  const Cx<R> omega2 = wtilde2 * eps;
  const Cx<R> wdiff = real_minus(wx, wtilde);
  const Cx<R> delw = divide(wtilde, wdiff);
  const R delwr = norm(delw);
  const R wdiffr = norm(wdiff);
  Cx<R> sch, ssx;
  if (wdiffr > kLimitTwo && delwr < kLimitOne) {
    sch = delw * eps;
    const Cx<R> cden = real_minus(wx * wx, wtilde2);
    ssx = divide(omega2, cden);
  } else if (delwr > kTolZero) {
    sch = zero<R>();
    const Cx<R> cden = (R(4.0) * wtilde2) * plus_real(delw, R(0.5));
    ssx = divide(negate(omega2) * delw, cden);
  } else {
    sch = zero<R>();
    ssx = zero<R>();
  }
  const R ssxcutoff = R(kSexcut) * magnitude(eps);
  if (magnitude(ssx) > ssxcutoff && wx < 0.0) ssx = zero<R>();
  return {((vcoulx * occ) * ssx) * band, (R(0.5) * ((vcoulx * sch) * band))};
}

// From v6: what depends on (G', G) alone, formed once before the band loop.
template <class R>
struct PairTerms {
  Cx<R> wtilde, wtilde2, omega2, eps;
  R ssxcutoff;  // sexcut |I_eps|, or its square where magnitudes are squared (v8)
};

template <class R, bool kSquared>
KOKKOS_INLINE_FUNCTION PairTerms<R> pair_terms(const Cx<R>& wtilde, const Cx<R>& eps) {
  PairTerms<R> p;
  p.wtilde = wtilde;
  p.eps = eps;
  p.wtilde2 = wtilde * wtilde;
  p.omega2 = p.wtilde2 * eps;
  if constexpr (kSquared)
    p.ssxcutoff = R(kSexcut * kSexcut) * norm(eps);
  else
    p.ssxcutoff = R(kSexcut) * magnitude(eps);
  return p;
}

// v6 to v9: two branches, whose ssx = num / cden is divided once after them;
// `kReciprocal` (v7) replaces each complex division by one reciprocal of a squared
// magnitude and multiplies; `kSquared` (v8) compares |ssx|^2 with the squared cutoff.
// `vcoulx_occ` is vcoul occ(n1), formed with the band factor.
template <class R, bool kReciprocal, bool kSquared>
KOKKOS_INLINE_FUNCTION Update<R> term_simplified(const R& wx, const PairTerms<R>& p,
                                                 const Cx<R>& band, const R& vcoulx,
                                                 const R& vcoulx_occ) {
  const Cx<R> wdiff = real_minus(wx, p.wtilde);
  const R wdiffr = norm(wdiff);
  Cx<R> delw;
  if constexpr (kReciprocal) {
    const R rden = R(1.0) / wdiffr;
    delw = rden * (p.wtilde * conj(wdiff));
  } else {
    delw = divide(p.wtilde, wdiff);
  }
  const R delwr = norm(delw);
  // Both branches end in ssx = num / cden: the division is written once, after them.
  Cx<R> sch = zero<R>(), ssx = zero<R>(), num, cden;
  const bool usual = wdiffr > kLimitTwo && delwr < kLimitOne;
  const bool near_pole = !usual && delwr > kTolZero;
  if (usual) {
    sch = delw * p.eps;
    cden = real_minus(wx * wx, p.wtilde2);
    num = p.omega2;
  } else if (near_pole) {
    cden = (R(4.0) * p.wtilde2) * plus_real(delw, R(0.5));
    num = negate(p.omega2) * delw;
  }
  if (usual || near_pole) {
    if constexpr (kReciprocal) {
      const R rden = R(1.0) / norm(cden);
      ssx = rden * (num * conj(cden));
    } else {
      ssx = divide(num, cden);
    }
  }
  Update<R> u{zero<R>(), R(0.5) * ((vcoulx * sch) * band)};
  const R size = kSquared ? norm(ssx) : magnitude(ssx);
  if (size <= p.ssxcutoff || wx >= 0.0) u.ssx = (vcoulx_occ * ssx) * band;
  return u;
}

}  // namespace rooftop::kernels::gpp
