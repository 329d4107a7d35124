# Debian's non-free component without touching the machine's apt configuration: packages
# downloaded through a private apt state (package lists, archives) from the first Debian
# mirror and release the machine's sources name, with non-free added, and unpacked, not
# installed. Sourced after scripts/lib/cli.sh (it uses die).

# non_free_unpack DIR PACKAGE...: unpacks the packages into DIR/unpacked (their usr/ tree);
# the lists stay in DIR/apt for the next call, the archives are removed.
non_free_unpack() {
  local dir=$1 mirror suite apt_dir deb
  shift
  command -v apt-get >/dev/null || die "no apt-get: install $* by hand"
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
  local apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
                  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
                  -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root" -qq)
  timeout 300 apt-get "${apt_opts[@]}" update >&2 ||
    die "apt-get update of $mirror $suite non-free failed"
  ( cd "$apt_dir/archives" && timeout 600 apt-get "${apt_opts[@]}" download "$@" >&2 ) ||
    die "could not download $* from $mirror $suite non-free"
  for package in "$@"; do
    deb="$(ls "$apt_dir/archives/${package}"_*.deb 2>/dev/null | head -1)"
    [[ -n "$deb" ]] || die "no $package package was downloaded"
    dpkg-deb -x "$deb" "$dir/unpacked"
  done
  rm -rf "$apt_dir/archives"
}
