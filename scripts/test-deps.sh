#!/usr/bin/env bash
# Installs the system packages limitscope's tests use for real (tmux for the
# end-to-end TUI tests, prometheus and promtool for the fleet-mode and rules
# tests) when they are missing. As root it installs with apt-get; otherwise it
# says how.
set -euo pipefail
need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
if ! { command -v prometheus >/dev/null 2>&1 || [ -x /usr/bin/prometheus ]; } || ! command -v promtool >/dev/null 2>&1; then
  need+=(prometheus) # the Debian package ships promtool too
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "test-deps: missing ${need[*]}; install them (e.g. sudo apt-get install -y ${need[*]}) — the tests that need them will fail without" >&2
fi
