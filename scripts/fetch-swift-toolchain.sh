#!/usr/bin/env bash
# Fetches a real Swift parser for verity's toolchain path: Debian trixie's `swiftlang` and the
# runtime libraries it needs, downloaded with a private apt state and unpacked into a folder —
# nothing is installed on the system. The apt source is this machine's own Debian entry with the
# suite name changed to trixie, so no address is written anywhere.
#
# usage: scripts/fetch-swift-toolchain.sh [DIR]   (default: ~/.cache/verity/swift-toolchain)
# prints the path of a `swift-frontend` wrapper that runs through the folder's own ld-linux.
set -euo pipefail
dest="${1:-${HOME}/.cache/verity/swift-toolchain}"
wrapper="$dest/bin/swift-frontend"
if [ -x "$wrapper" ] && "$wrapper" -version >/dev/null 2>&1; then
  echo "$wrapper"; exit 0
fi
state="$(mktemp -d)"
trap 'rm -rf "$state"' EXIT
mkdir -p "$state/lists/partial" "$state/archives/partial" "$state/etc/sources.list.d" "$dest"
src=""
for f in /etc/apt/sources.list.d/debian.sources; do [ -f "$f" ] && src="$f"; done
if [ -n "$src" ]; then
  # The first deb822 stanza (the main archive), with its suite switched to trixie.
  awk 'BEGIN{RS=""; ORS="\n\n"} NR==1' "$src" | sed -E 's/^Suites:.*/Suites: trixie/' > "$state/etc/sources.list.d/trixie.sources"
else
  grep -E '^deb ' /etc/apt/sources.list | head -1 | awk '{ $3="trixie"; print }' > "$state/etc/sources.list.d/trixie.list"
fi
apt_opts=(-o "Dir::Etc::sourcelist=/dev/null" -o "Dir::Etc::sourceparts=$state/etc/sources.list.d"
  -o "Dir::State::lists=$state/lists" -o "Dir::Cache::archives=$state/archives"
  -o "Dir::State::status=/dev/null" -o "Debug::NoLocking=1" -o "APT::Get::List-Cleanup=0")
apt-get "${apt_opts[@]}" update -qq >&2
cd "$state/archives"
# swiftlang plus every library it depends on, resolved by apt against trixie (no system packages
# are assumed present: /dev/null status means apt sees an empty system).
pkgs=$(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances swiftlang 2>/dev/null | grep -E '^[a-z0-9]' | sort -u)
# Only what swift-frontend needs at run time: swiftlang itself and shared libraries.
want=$(echo "$pkgs" | grep -E '^(swiftlang|lib.*|.*-libs?)$' | grep -vE '^(libc-dev-bin|libgcc-.*-dev|libstdc\+\+-.*-dev|libpython.*-dev|.*-dev)$' || true)
apt-get "${apt_opts[@]}" download $want >&2
for deb in *.deb; do dpkg-deb -x "$deb" "$dest/root"; done
fe="$(find "$dest/root" -name swift-frontend -type f -perm -u+x | head -1)"
ld="$(find "$dest/root" -name 'ld-linux-x86-64.so.2' | head -1)"
[ -n "$fe" ] && [ -n "$ld" ] || { echo "swift-frontend or ld-linux not found in the unpacked packages" >&2; exit 1; }
libdirs="$(find "$dest/root" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:)"
mkdir -p "$dest/bin"
cat > "$wrapper" <<W
#!/bin/sh
exec "$ld" --library-path "$libdirs" "$fe" "\$@"
W
chmod +x "$wrapper"
"$wrapper" -version >&2
echo "$wrapper"
