#!/usr/bin/env bash
# Puts Nsight Systems' command line in DIR/bin/nsys, for rooftop import of .nsys-rep and
# .qdrep reports (nsys export) on a machine without it: Debian's nsight-systems and
# nsight-systems-target (2022.4, the non-free component), downloaded and unpacked without
# installing them, the machine's apt sources left as they are
# (scripts/lib/debian-non-free.sh). Installed as packages they would bring the NVIDIA
# driver's libcuda1 (contrib) onto a machine that may have no NVIDIA GPU; nsys export needs
# none of it. Prints DIR/bin, the folder to put on PATH; exits 1 with one line when it
# cannot.
#   scripts/fetch-nsys.sh DIR
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian-non-free.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && show_help
[[ $# -eq 1 ]] || die "usage: fetch-nsys.sh DIR"
dir="$(realpath -m "$1")"
if [[ -x "$dir/bin/nsys" ]]; then echo "$dir/bin"; exit 0; fi
rm -rf "$dir/unpacked"
non_free_unpack "$dir" nsight-systems nsight-systems-target
nsys="$dir/unpacked/usr/lib/nsight-systems/bin/nsys"
[[ -x "$nsys" ]] || die "nsight-systems holds no usr/lib/nsight-systems/bin/nsys"
"$nsys" --version >/dev/null 2>&1 || die "the unpacked $nsys does not run"
mkdir -p "$dir/bin"
ln -sfn "$nsys" "$dir/bin/nsys"
echo "$dir/bin"
