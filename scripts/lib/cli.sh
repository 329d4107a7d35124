# What the build scripts' argument parsing shares; sourced after `set -euo pipefail`.
# Sets `root` (the source tree) and defines die, show_help and need_value.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prog="$(basename "$0" .sh)"

die() { echo "$prog: $*" >&2; exit 1; }

# The script's opening comment, without its first line (#!) and the comment marks.
show_help() { awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0; }

# need_value OPTION VALUE MESSAGE: dies with "OPTION MESSAGE" when VALUE is empty.
need_value() { [[ -n "$2" ]] || die "$1 $3"; }
