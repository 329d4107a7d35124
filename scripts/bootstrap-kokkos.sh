#!/usr/bin/env bash
# Build and install Kokkos 5 from Debian's own `kokkos` source package (sid), for
# machines that have no Kokkos >= 4.5 installed (Debian 12 has none usable).
#
#   scripts/bootstrap-kokkos.sh [--cuda] [--cuda-arch 70|75|80|86|89|90|100|120] [--prefix DIR]
#
# Serial+OpenMP by default; --cuda adds CUDA for one GPU arch (default 90, Hopper).
# Without --cuda and --prefix, a Kokkos 4.5 to 5.x already installed where CMake finds it
# (its default paths, Kokkos_ROOT, CMAKE_PREFIX_PATH) is used instead of building one.
# Progress goes to stderr; the install prefix is the last line of stdout:
#   KOKKOS_ROOT=$(scripts/bootstrap-kokkos.sh | tail -1)
# A prefix that already holds KokkosConfig.cmake is reused as is.
set -euo pipefail

# The upstream tarballs of Debian's kokkos source package that this script trusts,
# newest first: version and the sha256 of kokkos_<version>.orig.tar.gz (from the
# package's .dsc). Kokkos 5 needs C++20 and supports CUDA 13 without patches.
KNOWN_VERSIONS=(
  "5.2.2 491fe02cb127559dd3c996f6693686f1eab00a53fd5c184e18e663896884175e"
  "5.0.2 188817bb452ca805ee8701f1c5adbbb4fb83dc8d1c50624566a18a719ba0fa5e"
)
deps_dir=${ROOFTOP_DEPS_DIR:-$HOME/.cache/rooftop}

exec 3>&1 1>&2  # keep stdout for the prefix alone
die() { echo "bootstrap-kokkos: $*" >&2; exit 1; }
log() { echo "bootstrap-kokkos: $*" >&2; }

# Kokkos names one CUDA architecture per build.
cuda_arch_option() {
  case $1 in
    70) echo VOLTA70 ;; 75) echo TURING75 ;; 80) echo AMPERE80 ;; 86) echo AMPERE86 ;;
    89) echo ADA89 ;; 90) echo HOPPER90 ;; 100) echo BLACKWELL100 ;; 120) echo BLACKWELL120 ;;
    *) return 1 ;;
  esac
}

cuda=0 cuda_arch=90 prefix=
while [ $# -gt 0 ]; do
  case $1 in
    --cuda) cuda=1 ;;
    --cuda-arch) [ $# -ge 2 ] || die "--cuda-arch needs a compute capability (e.g. 90)"
                 cuda_arch=$2; shift ;;
    --cuda-arch=*) cuda_arch=${1#--cuda-arch=} ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    -h|--help) sed -n '2,10s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&3; exit 0 ;;
    *) die "unknown argument '$1' (usage: $0 [--cuda] [--cuda-arch CC] [--prefix DIR])" ;;
  esac
  shift
done
arch_option=$(cuda_arch_option "$cuda_arch") \
  || die "unknown --cuda-arch '$cuda_arch' (one of 70 75 80 86 89 90 100 120)"
if [ $cuda = 1 ]; then flavor="cuda-sm$cuda_arch-openmp"; else flavor="openmp"; fi

# Cache: the install lands in one mv, so a config file means a complete prefix.
installed() {
  local libdir
  for libdir in lib lib64; do
    [ -f "$1/$libdir/cmake/Kokkos/KokkosConfig.cmake" ] && return 0
  done
  return 1
}
# A Kokkos the user installed: CMake's own search, in a throwaway project.
installed_kokkos() {
  local probe
  probe=$(mktemp -d "${TMPDIR:-/tmp}/bootstrap-kokkos-probe.XXXXXX")
  cat >"$probe/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.19)
project(probe LANGUAGES CXX)
find_package(Kokkos 4.5...<6 QUIET)
if(Kokkos_FOUND)
  file(WRITE ${CMAKE_BINARY_DIR}/found "${Kokkos_DIR}")
endif()
CMAKE
  if cmake -S "$probe" -B "$probe/build" >/dev/null 2>&1 && [ -f "$probe/build/found" ]; then
    local dir
    dir=$(cat "$probe/build/found")  # <prefix>/lib*/cmake/Kokkos
    (cd "$dir/../../.." && pwd)
  fi
  rm -rf "$probe"
}
if [ -z "$prefix" ] && [ $cuda = 0 ] && command -v cmake >/dev/null; then
  found_prefix=$(installed_kokkos)
  if [ -n "$found_prefix" ]; then log "using the installed Kokkos in $found_prefix"; echo "$found_prefix" >&3; exit 0; fi
fi

if [ -z "$prefix" ]; then
  for entry in "${KNOWN_VERSIONS[@]}"; do
    candidate=$deps_dir/kokkos-${entry%% *}-$flavor
    if installed "$candidate"; then log "using cached $candidate"; echo "$candidate" >&3; exit 0; fi
  done
elif installed "$prefix"; then
  log "using cached $prefix"; echo "$prefix" >&3; exit 0
fi

if [ $cuda = 1 ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  [ -x "$nvcc" ] || die "--cuda needs nvcc (not on PATH nor in /usr/local/cuda/bin)"
  PATH=$(dirname "$nvcc"):$PATH; export PATH  # nvcc_wrapper looks nvcc up on PATH
fi

# --- source: Debian's kokkos orig tarball, downloaded once into the cache ------
# Debian is reached through this machine's own apt configuration: its mirror (the
# Repo-URI of its Debian archive), proxies and methods. Which version sid lists is read
# through a private apt state folder, so the system's sources are never touched. The
# tarball is fetched from the mirror's pool by apt's own downloader and must match the
# sha256 above: the index only says which version to try first.
src_cache=$deps_dir/src
mkdir -p "$src_cache"
tarball() { echo "$src_cache/kokkos_$1.orig.tar.gz"; }

sid_version() {  # the version sid's Sources index lists, without its Debian revision
  local mirror=$1 state
  state=$(mktemp -d "${TMPDIR:-/tmp}/bootstrap-kokkos-apt.XXXXXX")
  mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
  # The index is only advisory (the tarball is verified by the sha256 above).
  echo "deb-src [trusted=yes] $mirror sid main" >"$state/sources.list"
  local apt=(-o Dir::Etc::SourceList="$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache"
             -o Debug::NoLocking=1)
  if apt-get "${apt[@]}" update -qq >/dev/null 2>&1; then
    apt-cache "${apt[@]}" showsrc kokkos 2>/dev/null | sed -n 's/^Version: \(.*\)-[^-]*$/\1/p' \
      | head -1
  fi
  rm -rf "$state"
}

have_source=
for entry in "${KNOWN_VERSIONS[@]}"; do
  version=${entry%% *} sha=${entry##* }
  if [ -f "$(tarball "$version")" ] \
     && echo "$sha  $(tarball "$version")" | sha256sum --quiet -c - 2>/dev/null; then
    have_source=$version; break
  fi
done

if [ -z "$have_source" ]; then
  command -v apt-get >/dev/null || die "no Kokkos >= 4.5 found and no apt to fetch one"
  mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Origin: Debian' 'Label: Debian' \
           2>/dev/null | head -1)
  [ -n "$mirror" ] || die "this machine's apt configuration names no Debian archive to fetch Kokkos from"
  listed=$(sid_version "$mirror")
  if [ -n "$listed" ]; then log "Debian sid lists kokkos $listed"
  else log "could not read sid's Sources index; trying the known versions"; fi
  # The listed version first when this script knows its checksum, then the others.
  order=()
  for entry in "${KNOWN_VERSIONS[@]}"; do [ "${entry%% *}" = "$listed" ] && order+=("$entry"); done
  if [ -n "$listed" ] && [ ${#order[@]} = 0 ]; then
    log "kokkos $listed has no checksum in this script yet; using the newest known one"
  fi
  for entry in "${KNOWN_VERSIONS[@]}"; do [ "${entry%% *}" != "$listed" ] && order+=("$entry"); done
  for entry in "${order[@]}"; do
    version=${entry%% *} sha=${entry##* }
    url=${mirror%/}/pool/main/k/kokkos/kokkos_$version.orig.tar.gz
    log "downloading kokkos $version from Debian's pool"
    # Download aside and move in afterwards: a cut download is never cached.
    if /usr/lib/apt/apt-helper download-file "$url" "$(tarball "$version").part" "SHA256:$sha" \
         >/dev/null 2>&1; then
      mv "$(tarball "$version").part" "$(tarball "$version")"
      have_source=$version; break
    fi
    rm -f "$(tarball "$version").part"
    log "the pool does not serve kokkos $version (or its checksum differs)"
  done
  [ -n "$have_source" ] || die "Debian's pool served none of the known Kokkos versions" \
                               "(${KNOWN_VERSIONS[*]%% *}); needs network access to the Debian archive"
fi
version=$have_source

[ -n "$prefix" ] || prefix=$deps_dir/kokkos-$version-$flavor
mkdir -p "$(dirname "$prefix")"
prefix=$(cd "$(dirname "$prefix")" && pwd)/$(basename "$prefix")
if [ -e "$prefix" ] && [ -n "$(ls -A "$prefix")" ]; then
  die "$prefix exists but holds no Kokkos install; remove it or pick another --prefix"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bootstrap-kokkos.XXXXXX")
staging=$prefix.staging
trap 'rm -rf "$work" "$staging"' EXIT
rm -rf "$staging"

log "extracting $(basename "$(tarball "$version")")"
tar -xzf "$(tarball "$version")" -C "$work" || die "could not extract $(tarball "$version")"
src=$work/kokkos-$version
[ -f "$src/CMakeLists.txt" ] || die "no kokkos-$version/ in $(tarball "$version")"
found=$(sed -n 's/^set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)).*/\2/p' "$src/CMakeLists.txt" \
        | xargs printf '%s.%s.%s')
[ "$found" = "$version" ] || die "the tarball holds Kokkos $found, not $version"

# --- configure, build, install ----------------------------------------------
opts=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=20 -DCMAKE_INSTALL_PREFIX="$prefix"
      -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON)
if [ $cuda = 1 ]; then
  opts+=(-DKokkos_ENABLE_CUDA=ON "-DKokkos_ARCH_$arch_option=ON"
         -DCMAKE_CXX_COMPILER="$src/bin/nvcc_wrapper")
fi
command -v ninja >/dev/null && opts+=(-G Ninja)

log "building Kokkos $version ($([ $cuda = 1 ] && echo "CUDA sm_$cuda_arch+OpenMP" || echo OpenMP)) for $prefix"
cmake -S "$src" -B "$work/build" "${opts[@]}" || die "cmake configure failed"
cmake --build "$work/build" --parallel "$(nproc)" || die "build failed"
# Install under DESTDIR, then move into place in one step: an interrupted
# bootstrap never leaves a prefix that the cache check above would accept.
DESTDIR=$staging cmake --install "$work/build" >/dev/null || die "install failed"
if [ $cuda = 1 ]; then  # point at the installed wrapper, not the deleted build copy
  sed -i "s|^set(Kokkos_CXX_COMPILER \".*\")|set(Kokkos_CXX_COMPILER \"$prefix/bin/nvcc_wrapper\")|I" \
    "$staging$prefix"/lib*/cmake/Kokkos/KokkosConfigCommon.cmake
fi
if [ -d "$prefix" ]; then rmdir "$prefix"; fi
mv "$staging$prefix" "$prefix" || die "could not move the install into $prefix"

log "installed Kokkos $version in $prefix"
echo "$prefix" >&3
