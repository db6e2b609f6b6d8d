#!/usr/bin/env bash
# The sfcl binary's error paths (exit 2, one clear line) and JSON shapes.
set -u
fail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "FAIL - $1"; fail=1; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SFCL" make-test-model "$tmp/m.gguf" 2>/dev/null

"$SFCL" generate -m "$tmp/none.gguf" -p hi 2>"$tmp/e"; rc=$?
check "missing model exits 2" '[ $rc -eq 2 ] && grep -q "model file not found" "$tmp/e" && [ $(wc -l <"$tmp/e") -eq 1 ]'
echo "not a model" >"$tmp/bad.gguf"
"$SFCL" generate -m "$tmp/bad.gguf" -p hi 2>"$tmp/e"; rc=$?
check "not a GGUF exits 2" '[ $rc -eq 2 ] && grep -q "not a GGUF" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p "$(printf 'x%.0s' $(seq 1 400))" --ctx 64 2>"$tmp/e"; rc=$?
check "context too small exits 2" '[ $rc -eq 2 ] && grep -q "raise --ctx" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p hi --temperature abc 2>"$tmp/e"; rc=$?
check "bad flag value exits 2" '[ $rc -eq 2 ] && grep -q "error" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p hi --no-such-flag 2>"$tmp/e"; rc=$?
check "unknown flag exits 2" '[ $rc -eq 2 ]'
"$SFCL" generate -m "$tmp/m.gguf" 2>"$tmp/e"; rc=$?
check "missing prompt exits 2" '[ $rc -eq 2 ] && grep -q "prompt" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p "Pay \$5" -n 8 --temperature 0 --json >"$tmp/o" 2>/dev/null; rc=$?
check "generate --json" '[ $rc -eq 0 ] && node -e "const j=JSON.parse(require(\"fs\").readFileSync(\"$tmp/o\")); if(typeof j.text!==\"string\"||j.output_tokens>8||!j.sfcl||!j.sfcl.status) process.exit(1)"'
"$SFCL" generate -m "$tmp/m.gguf" -p "hello" -n 5 --temperature 0 >"$tmp/o" 2>"$tmp/e"; rc=$?
check "generate prints stats to stderr" '[ $rc -eq 0 ] && grep -q "tok/s" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p "$(printf 'word %.0s' $(seq 1 200))" -n 4 --temperature 0 --json >"$tmp/o" 2>/dev/null; rc=$?
check "generate --json: prompt and generation rates apart" '[ $rc -eq 0 ] && node -e "const j=JSON.parse(require(\"fs\").readFileSync(\"$tmp/o\")); if(!(j.prompt_seconds>0&&j.prompt_seconds<j.seconds&&j.prompt_tokens_per_second>0&&Math.abs(j.tokens_per_second-j.decoded_tokens/(j.seconds-j.prompt_seconds))<1e-6*j.tokens_per_second+1e-9)) process.exit(1)"'
"$SFCL" --help >"$tmp/o"; rc=$?
check "--help lists subcommands" '[ $rc -eq 0 ] && grep -q generate "$tmp/o" && grep -q anchors "$tmp/o"'
"$SFCL" generate --help >"$tmp/o"; rc=$?
check "generate --help" '[ $rc -eq 0 ] && grep -q -- "--sfcl" "$tmp/o" && grep -q -- "--fallback" "$tmp/o"'

printf 'Pay $12,500.00 by June 15, 2024.\n' >"$tmp/src.txt"
printf 'It is $12,600.00 on 2024-06-15 \xff.' | "$SFCL" anchors extract - >"$tmp/o"; rc=$?
check "anchors extract jsonl" '[ $rc -eq 0 ] && [ $(wc -l <"$tmp/o") -eq 2 ] && grep -q "\"norm\":\"12600 USD\"" "$tmp/o" && grep -q "\"anchor_id\":\"entity_001\"" "$tmp/o"'
printf 'It is $12,600.00 on 2024-06-15.' | "$SFCL" anchors check --fail-on-unsupported --source "$tmp/src.txt" - >"$tmp/o"; rc=$?
check "anchors check verdicts, --fail-on-unsupported exits 1 on an unsupported anchor" '[ $rc -eq 1 ] && grep -q "\"verdict\":\"unsupported\"" "$tmp/o" && grep -q "\"verdict\":\"confirmed\"" "$tmp/o" && grep -q "\"support\":{\"end\"" "$tmp/o"'
printf 'Account: Acme Ltd.\nOpened by: Chloe Turner\n' >"$tmp/rec.txt"
printf 'Opened by: Acme Ltd.' | "$SFCL" anchors check --source "$tmp/rec.txt" - >"$tmp/o"; rc=$?
check "anchors check binds a field (exit 0 by default)" '[ $rc -eq 0 ] && grep -q "\"field\":\"Opened by\"" "$tmp/o" && grep -q "\"other_field\":true" "$tmp/o" && grep -q "\"verdict\":\"unsupported\"" "$tmp/o"'
"$SFCL" anchors count "$tmp/src.txt" >"$tmp/o"; rc=$?
check "anchors count" '[ $rc -eq 0 ] && grep -q "\"decision_points\":2" "$tmp/o" && grep -q "\"bytes\":33" "$tmp/o"'
"$SFCL" anchors count "$tmp/nope.txt" 2>"$tmp/e"; rc=$?
check "unreadable file exits 2" '[ $rc -eq 2 ] && grep -q "cannot read" "$tmp/e"'
printf 'It is $12,600.00 on 2024-06-15.' >"$tmp/ans.txt"
"$SFCL" anchors check --source "$tmp/src.txt" "$tmp/ans.txt" </dev/null >"$tmp/o"; rc=$?
check "anchors check --source S FILE (README order)" '[ $rc -eq 0 ] && [ $(wc -l <"$tmp/o") -eq 2 ] && grep -q "\"verdict\":\"confirmed\"" "$tmp/o"'
"$SFCL" anchors check "$tmp/ans.txt" --source "$tmp/src.txt" --fail-on-unsupported </dev/null >"$tmp/o"; rc=$?
check "anchors check FILE --source S --fail-on-unsupported exits 1" '[ $rc -eq 1 ] && [ $(wc -l <"$tmp/o") -eq 2 ] && grep -q "\"verdict\":\"unsupported\"" "$tmp/o"'
"$SFCL" anchors check --fail-on-unsupported --source "$tmp/src.txt" --source "$tmp/rec.txt" "$tmp/ans.txt" </dev/null >"$tmp/o"; rc=$?
check "anchors check with two --source" '[ $rc -eq 1 ] && [ $(wc -l <"$tmp/o") -eq 2 ]'
printf 'It is $12,500.00 on 2024-06-15.' | "$SFCL" anchors check --fail-on-unsupported --source "$tmp/src.txt" - >"$tmp/o"; rc=$?
check "anchors check --fail-on-unsupported exits 0 when every anchor is supported" '[ $rc -eq 0 ] && [ $(wc -l <"$tmp/o") -eq 2 ] && ! grep -q "\"verdict\":\"unsupported\"" "$tmp/o"'
"$SFCL" anchors check --exit-zero --source "$tmp/src.txt" "$tmp/ans.txt" </dev/null >"$tmp/o"; rc=$?
check "anchors check --exit-zero reports and exits 0" '[ $rc -eq 0 ] && [ $(wc -l <"$tmp/o") -eq 2 ] && grep -q "\"verdict\":\"unsupported\"" "$tmp/o"'
"$SFCL" anchors check --help >"$tmp/o"; rc=$?
check "anchors check --help names the exit code and --fail-on-unsupported" '[ $rc -eq 0 ] && grep -q -- "--fail-on-unsupported" "$tmp/o" && grep -q "exit" "$tmp/o"'
# hold: a plain word goes out once the next one starts; a value being written is held whole, in
# both languages (the amount's 11 characters, 三万五千元 until 元 ends it).
printf 'The total is due today.\n\nPaid $12,500.00 now.\n合同金额为三万五千元。\n' | "$SFCL" anchors hold - >"$tmp/o"; rc=$?
check "anchors hold trails by what may still be an anchor" '[ $rc -eq 0 ] && [ $(wc -l <"$tmp/o") -eq 4 ] &&
  grep -q "^{\"chars\":23,\"first_release_after\":5,\"line\":1,\"max_held\":6," "$tmp/o" &&
  grep -q "\"line\":3,\"max_held\":11," "$tmp/o" && grep -q "\"line\":4,\"max_held\":5," "$tmp/o" &&
  tail -1 "$tmp/o" | grep -q "\"lines\":3"'
printf 'The total is due today.\r\n' | "$SFCL" anchors hold - >"$tmp/o"; rc=$?
check "anchors hold reads CRLF lines as LF ones" '[ $rc -eq 0 ] && grep -q "^{\"chars\":23,\"first_release_after\":5," "$tmp/o"'
for sub in "check --source $tmp/src.txt" extract count hold; do
  "$SFCL" anchors $sub </dev/null >"$tmp/o" 2>"$tmp/e"; rc=$?
  check "anchors ${sub%% *} on empty stdin exits 2" '[ $rc -eq 2 ] && grep -q "stdin is empty" "$tmp/e" && [ ! -s "$tmp/o" ]'
done

# llama.cpp's spellings of the model and context flags; on the CPU-only build -ngl offloads nothing.
"$SFCL" make-test-model "$tmp/h32.gguf" --embd 128 --heads 4 2>/dev/null
"$SFCL" generate -m "$tmp/h32.gguf" -p hi -n 3 --temperature 0 -ngl 99 -fa on -ctk q8_0 -ctv q8_0 -ub 64 -tb 1 \
  -sm none -ts 1 --no-mmap --mlock >/dev/null 2>"$tmp/e"; rc=$?
check "-ngl -fa -ctk -ctv -ub -tb -sm -ts --no-mmap --mlock" '[ $rc -eq 0 ]'
"$SFCL" generate -m "$tmp/m.gguf" -p hi -n 3 -ngl=0 --flash-attn=off >/dev/null 2>"$tmp/e"; rc=$?
check "-ngl=N and --flash-attn=off" '[ $rc -eq 0 ]'
"$SFCL" generate -m "$tmp/m.gguf" -p hi -ctk q9 2>"$tmp/e"; rc=$?
check "unknown KV cache type exits 2 naming the flag" '[ $rc -eq 2 ] && grep -q -- "--cache-type-k" "$tmp/e"'
"$SFCL" serve -m "$tmp/m.gguf" -sm diagonal 2>"$tmp/e"; rc=$?
check "unknown split mode exits 2" '[ $rc -eq 2 ] && grep -q -- "--split-mode" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p hi -xyz 99 2>"$tmp/e"; rc=$?
check "an unknown llama.cpp-style flag is an unknown option" '[ $rc -eq 2 ] && grep -q "unknown option -xyz" "$tmp/e"'
"$SFCL" serve -m "$tmp/m.gguf" -ngx 99 2>"$tmp/e"; rc=$?
check "an unknown single-dash flag on serve is an unknown option" '[ $rc -eq 2 ] && grep -q "unknown option -ngx" "$tmp/e"'
"$SFCL" generate -m "$tmp/m.gguf" -p hi -n 4 -t1 --temperature 0 --seed -1 >/dev/null 2>"$tmp/e"; rc=$?
check "negative number values and -t1 still parse" '[ $rc -eq 0 ]'
"$SFCL" generate -m "$tmp/m.gguf" -p hi --temperature -1 2>"$tmp/e"; rc=$?
check "a negative value reaches the range check" '[ $rc -eq 2 ] && grep -q "not in range" "$tmp/e"'

# sfcl verify on the corpus of signed responses (tests/data/signed, read by clients/js too): exit 0
# for each response as the server sent it, 1 for each tampered one, 2 for what is not signed at all.
corpus="$(dirname "$0")/../data/signed"
node -e 'for (const c of JSON.parse(require("fs").readFileSync(process.argv[1])).cases) console.log(c.name, c.file, c.request || "-", c.expect)' \
  "$corpus/manifest.json" >"$tmp/cases"
while read -r name file request expect; do
  args=(verify --public-key "$corpus/key.pub" "$corpus/$file")
  [ "$request" != "-" ] && args+=(--request "$corpus/$request")
  "$SFCL" "${args[@]}" >"$tmp/o" 2>&1; rc=$?
  if [ "$expect" = ok ]; then
    check "verify accepts $name" '[ $rc -eq 0 ] && grep -q "^signature OK" "$tmp/o"'
  else
    check "verify refuses $name" '[ $rc -eq 1 ] && grep -q "^FAILED" "$tmp/o" && grep -q "^signature INVALID" "$tmp/o"'
  fi
done <"$tmp/cases"
check "the corpus has its cases" '[ $(wc -l <"$tmp/cases") -ge 20 ]'
printf '{"id":"x","choices":[]}' >"$tmp/unsigned.json"
"$SFCL" verify --public-key "$corpus/key.pub" "$tmp/unsigned.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "verify of an unsigned response exits 2" '[ $rc -eq 2 ] && grep -q "no sfcl.signature" "$tmp/e"'

[ $fail -eq 0 ] && echo "cli tests passed" || echo "cli tests FAILED"
exit $fail
