#!/usr/bin/env bash
# Build and install Kokkos 3.4.01 (the version rooftop is pinned to) from
# Debian's trilinos source package, which bundles it under packages/kokkos.
#
#   scripts/bootstrap-kokkos.sh [--cuda] [--prefix DIR]
#
# Progress goes to stderr; the install prefix is the last line of stdout:
#   KOKKOS_ROOT=$(scripts/bootstrap-kokkos.sh | tail -1)
# A prefix that already holds KokkosConfig.cmake is reused as is.
set -euo pipefail

KOKKOS_VERSION=3.4.01
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir=${ROOFTOP_DEPS_DIR:-$HOME/.cache/rooftop}

exec 3>&1 1>&2  # keep stdout for the prefix alone
die() { echo "bootstrap-kokkos: $*" >&2; exit 1; }
log() { echo "bootstrap-kokkos: $*" >&2; }

cuda=0 prefix=
while [ $# -gt 0 ]; do
  case $1 in
    --cuda) cuda=1 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    -h|--help) sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&3; exit 0 ;;
    *) die "unknown argument '$1' (usage: $0 [--cuda] [--prefix DIR])" ;;
  esac
  shift
done
if [ -z "$prefix" ]; then
  if [ $cuda = 1 ]; then flavor="cuda-openmp"; else flavor="openmp"; fi
  prefix=$deps_dir/kokkos-$KOKKOS_VERSION-$flavor
fi
mkdir -p "$(dirname "$prefix")"
prefix=$(cd "$(dirname "$prefix")" && pwd)/$(basename "$prefix")

# Cache: the install lands in one mv, so a config file means a complete prefix.
for libdir in lib lib64; do
  if [ -f "$prefix/$libdir/cmake/Kokkos/KokkosConfig.cmake" ]; then
    log "using cached $prefix"; echo "$prefix" >&3; exit 0
  fi
done
if [ -e "$prefix" ] && [ -n "$(ls -A "$prefix")" ]; then
  die "$prefix exists but holds no Kokkos install; remove it or pick another --prefix"
fi

if [ $cuda = 1 ]; then
  patch_file=$repo_root/cmake/kokkos-$KOKKOS_VERSION-cuda13.patch
  [ -f "$patch_file" ] || die "missing $patch_file"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  [ -x "$nvcc" ] || die "--cuda needs nvcc (not on PATH nor in /usr/local/cuda/bin)"
  PATH=$(dirname "$nvcc"):$PATH; export PATH  # nvcc_wrapper looks nvcc up on PATH
fi

# --- source: the trilinos .orig tarball, downloaded once into the cache -----
sudo=
if [ "$(id -u)" != 0 ]; then sudo=$(command -v sudo || true); fi

ensure_deb_src() {
  # apt-get source needs deb-src entries, which Debian images usually lack.
  local d822=/etc/apt/sources.list.d/debian.sources list=/etc/apt/sources.list
  if [ -f "$d822" ] && grep -q '^Types:' "$d822" && grep '^Types:' "$d822" | grep -qv deb-src; then
    log "adding deb-src to $d822"
    $sudo sed -i '/^Types:/{/deb-src/!s/$/ deb-src/}' "$d822" || return 1
  fi
  if [ -f "$list" ] && grep -q '^deb ' "$list" && ! grep -q '^deb-src ' "$list"; then
    log "adding deb-src lines to $list"
    sed -n 's/^deb /deb-src /p' "$list" | $sudo tee -a "$list" >/dev/null || return 1
  fi
}

src_cache=$deps_dir/src
mkdir -p "$src_cache"
orig() {  # the cached upstream tarball, if any
  local f
  for f in "$src_cache"/trilinos_*.orig.tar.{xz,gz,bz2}; do
    if [ -f "$f" ]; then echo "$f"; return; fi
  done
}
if [ -z "$(orig)" ]; then
  ensure_deb_src || die "could not add a deb-src entry to the apt sources (needs root or sudo)"
  $sudo apt-get update -qq || die "apt-get update failed"
  if ! command -v dpkg-source >/dev/null; then
    $sudo apt-get install -y -qq dpkg-dev || die "apt-get install dpkg-dev failed"
  fi
  log "downloading the trilinos source package into $src_cache"
  # Download aside and move in afterwards: a cut download is never cached.
  rm -rf "$src_cache/download" && mkdir "$src_cache/download"
  (cd "$src_cache/download" && apt-get source --download-only trilinos) \
    || die "apt-get source trilinos failed (needs network and a deb-src entry)"
  mv "$src_cache"/download/* "$src_cache"/ && rmdir "$src_cache/download"
  [ -n "$(orig)" ] || die "no trilinos_*.orig.tar.* in $src_cache after download"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bootstrap-kokkos.XXXXXX")
staging=$prefix.staging
trap 'rm -rf "$work" "$staging"' EXIT
rm -rf "$staging"

log "extracting packages/kokkos from $(basename "$(orig)")"
# tar detects xz/gz itself; the wildcard keeps it to the ~12 MB we need.
tar -xf "$(orig)" -C "$work" --wildcards '*/packages/kokkos/*' \
  || die "could not extract packages/kokkos from $(orig)"
src=$(echo "$work"/*/packages/kokkos)
[ -f "$src/CMakeLists.txt" ] || die "no packages/kokkos in $(orig)"
version=$(sed -n 's/^set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)).*/\2/p' "$src/CMakeLists.txt" \
          | xargs printf '%s.%s.%02d')
[ "$version" = "$KOKKOS_VERSION" ] \
  || die "trilinos bundles Kokkos $version, not $KOKKOS_VERSION (Debian updated trilinos?)"

# --- configure, build, install ----------------------------------------------
opts=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_INSTALL_PREFIX="$prefix"
      -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON)
if [ $cuda = 1 ]; then
  # Kokkos 3.4 predates CUDA 13; the patch fixes what no longer compiles.
  (cd "$src" && patch -p1 --quiet <"$patch_file") || die "could not apply $patch_file"
  opts+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_AMPERE80=ON
         -DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper")
fi
command -v ninja >/dev/null && opts+=(-G Ninja)

log "building Kokkos $version ($([ $cuda = 1 ] && echo CUDA+OpenMP || echo OpenMP)) for $prefix"
cmake -S "$src" -B "$work/build" "${opts[@]}" || die "cmake configure failed"
cmake --build "$work/build" --parallel "$(nproc)" || die "build failed"
# Install under DESTDIR, then move into place in one step: an interrupted
# bootstrap never leaves a prefix that the cache check above would accept.
DESTDIR=$staging cmake --install "$work/build" >/dev/null || die "install failed"
if [ $cuda = 1 ]; then  # point at the installed wrapper, not the deleted build copy
  sed -i "s|^SET(Kokkos_CXX_COMPILER \".*\")|SET(Kokkos_CXX_COMPILER \"$prefix/bin/nvcc_wrapper\")|" \
    "$staging$prefix"/lib*/cmake/Kokkos/KokkosConfigCommon.cmake
fi
if [ -d "$prefix" ]; then rmdir "$prefix"; fi
mv "$staging$prefix" "$prefix" || die "could not move the install into $prefix"

log "installed Kokkos $version in $prefix"
echo "$prefix" >&3
