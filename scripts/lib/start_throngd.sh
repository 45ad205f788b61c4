# Sourced by the install checks (tests/install/, scripts/check_packages):
#   start_throngd LOG COMMAND...   runs COMMAND (a throngd with --listen 127.0.0.1:0) in the
#                                  background; sets server_pid and port, the one it bound.
# Fails with the log when throngd prints no port within 10 s.
start_throngd() {
  local log=$1
  shift
  "$@" > "$log" 2>&1 &
  server_pid=$!
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's/^throngd listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$log")
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "throngd did not start:"
  cat "$log"
  return 1
}
