#!/bin/sh
# Makes the two secrets docker-compose.yml reads, once: deploy/secrets/throngd_token
# (the bearer token every throng.v1.Simulation call must send) and
# deploy/secrets/grafana_admin_password (Grafana's `admin` login). Never overwrites: to
# change one, edit or delete the file and run this again (then see docs/OPERATIONS.md,
# "Secrets", for Grafana).
#
# Permissions: the folder is 0700, so no other user of this host can read the files; the
# files themselves are 0644 because compose bind-mounts each one into its container, where
# a non-root user (throng, grafana) must read it, and that user is not this host's owner.
# Usage: deploy/make_secrets.sh [FOLDER]   (default: deploy/secrets beside this script)
set -eu
dir=${1:-$(dirname "$0")/secrets}
mkdir -p "$dir"
chmod 0700 "$dir"
random() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }  # 48 hex digits
for name in throngd_token grafana_admin_password; do
  file=$dir/$name
  if [ -s "$file" ]; then
    echo "make_secrets: $file exists, kept"
  else
    # No newline after it: throngd trims one, but not every reader of a secret does.
    (umask 022; random > "$file")
    echo "make_secrets: wrote $file"
  fi
  chmod 0644 "$file"
done
