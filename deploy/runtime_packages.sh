#!/bin/sh
# Prints the Debian/Ubuntu packages that hold the shared libraries BINARY loads, one per
# line. The Dockerfiles' build stage writes this list and the runtime stage installs
# exactly it, so the runtime image never drifts from what the build linked.
# Usage: deploy/runtime_packages.sh BINARY
set -eu
for lib in $(ldd "$1" | awk '$3 ~ /^\// { print $3 }'); do
  # dpkg knows a file by the path its package ships; with merged /usr that may be the
  # /lib or the /usr/lib spelling of what ldd printed.
  dpkg -S "$lib" 2>/dev/null || dpkg -S "$(realpath "$lib")" 2>/dev/null \
    || dpkg -S "/usr$lib" 2>/dev/null || { echo "no package holds $lib" >&2; exit 1; }
done | cut -d: -f1 | sort -u
