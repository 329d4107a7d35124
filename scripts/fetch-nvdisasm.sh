#!/usr/bin/env bash
# Puts an nvdisasm in DIR (DIR/nvdisasm) for check-sass.sh on a machine whose CUDA Toolkit
# lacks cuobjdump and nvdisasm: the one in Debian's nvidia-cuda-toolkit package (CUDA 11.8,
# the non-free component), downloaded and unpacked without installing it. The machine's
# own apt sources are left as they are: the package lists go to a private state folder
# (DIR/apt), from the first Debian mirror and release the machine's sources name, with
# non-free added. Prints the path; exits 1 with one line when it cannot.
#   scripts/fetch-nvdisasm.sh DIR
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && show_help
[[ $# -eq 1 ]] || die "usage: fetch-nvdisasm.sh DIR"
dir="$(realpath -m "$1")"
if [[ -x "$dir/nvdisasm" ]]; then echo "$dir/nvdisasm"; exit 0; fi
command -v apt-get >/dev/null || die "no apt-get: install nvidia-cuda-toolkit's nvdisasm by hand"

# The machine's Debian mirror and release, from its deb822 or one-line sources.
read -r mirror suite < <(
  { cat /etc/apt/sources.list.d/*.sources 2>/dev/null
    awk '$1 == "deb" {print "URIs: " $2; print "Suites: " $3; print ""}' \
      /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null; } |
  awk '/^URIs:/ {uri = $2} /^Suites:/ {suite = $2}
       /^$/ {if (uri ~ /debian\/?$/ && suite !~ /-/) {print uri, suite; exit} uri = suite = ""}
       END {if (uri ~ /debian\/?$/ && suite !~ /-/) print uri, suite}' | head -1) ||
  true
[[ -n "${mirror:-}" && -n "${suite:-}" ]] || die "no Debian mirror in the machine's apt sources"

apt_dir="$dir/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$dir/unpacked"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite non-free" \
  > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
          -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root" -qq)
timeout 300 apt-get "${apt_opts[@]}" update >&2 ||
  die "apt-get update of $mirror $suite non-free failed"
( cd "$apt_dir/archives" && timeout 600 apt-get "${apt_opts[@]}" download nvidia-cuda-toolkit >&2 ) ||
  die "could not download nvidia-cuda-toolkit from $mirror $suite non-free"
deb="$(ls "$apt_dir"/archives/nvidia-cuda-toolkit_*.deb 2>/dev/null | head -1)"
[[ -n "$deb" ]] || die "no nvidia-cuda-toolkit package was downloaded"
dpkg-deb -x "$deb" "$dir/unpacked"
[[ -x "$dir/unpacked/usr/bin/nvdisasm" ]] || die "$deb holds no usr/bin/nvdisasm"
mv "$dir/unpacked/usr/bin/nvdisasm" "$dir/nvdisasm"
rm -rf "$dir/unpacked" "$apt_dir/archives"
echo "$dir/nvdisasm"
