#!/usr/bin/env bash
# cmake --install into a temporary prefix, then the installed sfcl from another directory: it finds
# its llama.cpp libraries and ggml backends inside the prefix (never in the source tree's .deps/),
# serves the installed demo model without --model, and still works after the prefix is moved.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build_dir=$1
source_dir=$2
unset SFCL_BACKEND_DIR

work=$(mktemp -d)
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

deps_dir="$source_dir/.deps"
deps_real=$(realpath -m "$deps_dir")

# Runs the installed binary under PREFIX from / and checks what it loads.
check_prefix() {
  local prefix=$1 sfcl=$1/bin/sfcl
  cd / || return

  local version
  version=$("$sfcl" --version 2>&1) || fail "$prefix: sfcl --version exited $?"
  [[ $version == sfcl\ * ]] || fail "$prefix: sfcl --version printed '$version'"

  local libs
  libs=$(ldd "$sfcl") || fail "$prefix: ldd exited $?"
  if grep -q "not found" <<<"$libs"; then fail "$prefix: unresolved libraries: $(grep 'not found' <<<"$libs")"; fi
  if grep -qF -e "$deps_dir" -e "$deps_real" <<<"$libs"; then
    fail "$prefix: libraries from the source tree: $(grep -F -e "$deps_dir" -e "$deps_real" <<<"$libs")"
  fi
  local bundled=false
  compgen -G "$prefix/lib/sfcl/libggml-cpu-*.so" >/dev/null && bundled=true
  if $bundled; then
    for lib in libllama libggml-base; do
      grep -E "^\s*$lib[^ ]* => $prefix/(bin/\.\./)?lib/sfcl/" <<<"$libs" >/dev/null ||
        fail "$prefix: $lib does not resolve inside the prefix: $(grep "$lib" <<<"$libs")"
    done
  fi

  local model=$work/tiny.gguf
  [ -f "$model" ] || "$sfcl" make-test-model "$model" >/dev/null 2>"$work/make-test-model.err" || fail "$prefix: make-test-model exited $?"
  [ -s "$model" ] || fail "$prefix: make-test-model wrote no file"

  local out err
  out=$(LD_DEBUG=libs "$sfcl" generate -m "$model" -p hi -n 4 --temperature 0 2>"$work/generate.err") ||
    fail "$prefix: generate exited $?: $(grep -v '^ *[0-9]*:' "$work/generate.err")"
  err=$(grep -v '^ *[0-9]*:' "$work/generate.err")
  [ -n "$out" ] || fail "$prefix: generate printed no text"
  grep -q "output tokens: 4" <<<"$err" || fail "$prefix: generate stats: $err"
  if $bundled; then
    grep -qE "calling init: $prefix/lib/sfcl/libggml-cpu-[a-z0-9]+\.so" "$work/generate.err" ||
      fail "$prefix: no ggml CPU backend loaded from $prefix/lib/sfcl"
    if grep -E "calling init: .*libggml-cpu-" "$work/generate.err" | grep -qvF "$prefix/lib/sfcl/"; then
      fail "$prefix: a ggml CPU backend loaded from outside the prefix"
    fi
  fi
}

prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install exited non-zero"; exit 1; }
for f in bin/sfcl share/sfcl/sfcl-demo.gguf share/doc/sfcl/README.md share/doc/sfcl/docs; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
readelf -d "$prefix/bin/sfcl" | grep -qF '[$ORIGIN/../lib/sfcl]' ||
  fail "RUNPATH of the installed sfcl: $(readelf -d "$prefix/bin/sfcl" | grep -E 'R(UN)?PATH')"

check_prefix "$prefix"

# sfcl serve without --model serves the installed demo model.
"$prefix/bin/sfcl" serve --port 0 >"$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 300); do
  grep -q "ready:" "$work/serve.log" && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
grep -q "ready: sfcl-demo" "$work/serve.log" || fail "serve without --model: $(cat "$work/serve.log")"
kill "$serve_pid" && wait "$serve_pid" 2>/dev/null
serve_pid=""

# Relocatable: the same tree, moved.
mv "$prefix" "$work/moved"
check_prefix "$work/moved"

[ "$failures" -eq 0 ] || exit 1
echo "install test passed"
