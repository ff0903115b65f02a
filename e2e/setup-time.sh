#!/usr/bin/env bash
# How long a fresh clone takes to serve (a tool, not a test; #25): clones this
# repository at REV into /tmp/setup-NAME (its own target directory), hides the
# wasm-bindgen CLI from the PATH as on a bare machine, runs `cargo xtask serve`
# and prints the seconds until the server answers (the pages, rendered first)
# and until its first build of the modules ends (the page live). crates.io's and
# npm's caches stay warm, and the wasm32 target stays installed. Puts the CLI
# back if the run did not install its own.
#
#   e2e/setup-time.sh [REV] [NAME] [PORT]      (PATCH=file.patch applies a diff)
set -u
REV=${1:-HEAD}; NAME=${2:-fresh}; PORT=${3:-8097}
DIR=/tmp/setup-$NAME
REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CARGO_HOME:-$HOME/.cargo}/bin
HIDDEN=$(mktemp -d)
for f in wasm-bindgen wasm-bindgen-test-runner wasm2es6js; do
  [ -e "$BIN/$f" ] && mv "$BIN/$f" "$HIDDEN/"
done
rm -rf "$DIR" && git clone -q "$REPO" "$DIR" && cd "$DIR" && git checkout -q "$REV"
[ -n "${PATCH:-}" ] && git apply "$PATCH"
start=$(date +%s)
CARGO_TERM_COLOR=never cargo xtask serve --port "$PORT" > "$DIR.log" 2>&1 &
pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/"; do
  sleep 1
  kill -0 $pid 2>/dev/null || { echo "serve stopped: see $DIR.log"; break; }
done
echo "fresh clone of $REV -> serving: $(( $(date +%s) - start )) s (log: $DIR.log)"
until grep -qE "^watch: (done|that failed)" "$DIR.log"; do
  sleep 1
  kill -0 $pid 2>/dev/null || break
  grep -q "^watching the sources" "$DIR.log" || { grep -q "^serving dist" "$DIR.log" && break; }
done
echo "fresh clone of $REV -> modules built: $(( $(date +%s) - start )) s ($(grep -E "^watch: (done|that failed)" "$DIR.log" | head -1))"
kill $pid 2>/dev/null; pkill -f "xtask serve --port $PORT"
for f in wasm-bindgen wasm-bindgen-test-runner wasm2es6js; do
  [ -e "$BIN/$f" ] || { [ -e "$HIDDEN/$f" ] && mv "$HIDDEN/$f" "$BIN/"; }
done
rm -rf "$HIDDEN"
