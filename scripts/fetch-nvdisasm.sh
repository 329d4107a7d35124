#!/usr/bin/env bash
# Puts an nvdisasm in DIR (DIR/nvdisasm) for check-sass.sh on a machine whose CUDA Toolkit
# lacks cuobjdump and nvdisasm: the one in Debian's nvidia-cuda-toolkit package (CUDA 11.8,
# the non-free component), downloaded and unpacked without installing it, the machine's
# apt sources left as they are (scripts/lib/debian-non-free.sh). Prints the path; exits 1
# with one line when it cannot.
#   scripts/fetch-nvdisasm.sh DIR
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian-non-free.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && show_help
[[ $# -eq 1 ]] || die "usage: fetch-nvdisasm.sh DIR"
dir="$(realpath -m "$1")"
if [[ -x "$dir/nvdisasm" ]]; then echo "$dir/nvdisasm"; exit 0; fi
non_free_unpack "$dir" nvidia-cuda-toolkit
[[ -x "$dir/unpacked/usr/bin/nvdisasm" ]] || die "nvidia-cuda-toolkit holds no usr/bin/nvdisasm"
mv "$dir/unpacked/usr/bin/nvdisasm" "$dir/nvdisasm"
rm -rf "$dir/unpacked"
echo "$dir/nvdisasm"
