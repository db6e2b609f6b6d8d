#!/usr/bin/env bash
# sfcl eval-spans on a small span-annotated set written for this test (tests/data/eval_spans): its
# report is the one realoutput_check.py prints for the same rows (expected.txt, every line after the
# first, which names the run time), and its figures are those counted by hand below.
# When a checker change moves a verdict on these rows, regenerate expected.txt with the script:
#   (cd tests/data/eval_spans && python3 .../realoutput_check.py "$PWD/../../../build/release/src/cli/sfcl" \
#       rows.jsonl | tail -n +2 >expected.txt)
set -u
fail=0
check() { if eval "$2"; then echo "ok - $1"; else echo "FAIL - $1"; fail=1; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data="$(dirname "$0")/../data/eval_spans"

"$SFCL" eval-spans "$data/rows.jsonl" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "eval-spans exits 1 when a goal is not met" '[ $rc -eq 1 ] && [ ! -s "$tmp/e" ]'
check "eval-spans names the rows it read" 'head -1 "$tmp/o" | grep -q "^responses 8 (rows.jsonl), checked in-process"'
tail -n +2 "$tmp/o" >"$tmp/body"
check "eval-spans prints what realoutput_check.py prints" 'diff "$data/expected.txt" "$tmp/body"'
# By hand: 5 spans, one with no value ("the best in town"); of the 4 reachable, "$6.25", "1975" and
# "45亿元" are unsupported and written nowhere in their sources, "Mayor Ana Ruiz" is confirmed (a miss).
# Clean: 3 responses, 9 values, one false flag ("150" for the source's 120 loaves). Example level
# (ragtruth and faithbench rows that are clean or annotated): tp 2, fp 1, fn 1.
check "recall over reachable spans" 'grep -q "caught (an overlapping anchor unsupported) 3/4  = 75.0% recall" "$tmp/o"'
check "invented-value subset" 'grep -q "of which a value not written in the source: caught 3/3 = 100.0%" "$tmp/o"'
check "false flags per value anchor" 'grep -q "anchors unsupported (false flags)       1  = 11.11%" "$tmp/o"'
check "false flags per clean response" 'grep -q "clean responses with >=1 flag           1  = 33.3%" "$tmp/o"'
check "zh ok-span flags" 'grep -q "anchors in 合理 keywords     1, unsupported 0 = 0.0%" "$tmp/o"'
check "example-level P/R/F1" 'grep -q "precision 66.7%, recall 66.7%, F1 66.7; spans caught out of all annotated: 3/5 = 60.0%" "$tmp/o"'
check "by task" 'grep -q "^    ragtruth/QA              3      2      1      1      1   100.0" "$tmp/o"'
check "by type" 'grep -q "^    amount                    2         100.0               3          0.00" "$tmp/o"'

"$SFCL" eval-spans "$data/rows.jsonl" --min-recall 75 --max-ff 12 --max-clean-flagged 34 >"$tmp/o"; rc=$?
check "eval-spans exits 0 when the goals are met" '[ $rc -eq 0 ] && tail -1 "$tmp/o" | grep -q ": met$"'
# eval/faithful: answers whose every value is right and in its place; the flags stay within 0.75% of
# their value anchors (33 of 4,688 as docs/FIDELITY.md reports, "Counts of lists, firsts, legal forms").
faithful="$(dirname "$0")/../../eval/faithful"
"$SFCL" eval-spans "$faithful/en.jsonl" "$faithful/zh.jsonl" --min-recall 0 --max-ff 0.75 --max-clean-flagged 10 \
    >"$tmp/o"; rc=$?
check "faithful answers: false flags within 0.75%" '[ $rc -eq 0 ] && grep -q "^responses 338 " "$tmp/o"'
"$SFCL" eval-spans "$tmp/none.jsonl" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "a missing set exits 2" '[ $rc -eq 2 ] && grep -q "none.jsonl" "$tmp/e"'
printf 'not json\n' >"$tmp/bad.jsonl"
"$SFCL" eval-spans "$tmp/bad.jsonl" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "a line that is no JSON object exits 2 naming it" '[ $rc -eq 2 ] && grep -q "bad.jsonl:1" "$tmp/e"'
"$SFCL" --help >"$tmp/o"
check "--help lists eval-spans" 'grep -q "eval-spans" "$tmp/o"'

[ $fail -eq 0 ] && echo "eval-spans tests passed" || echo "eval-spans tests FAILED"
exit $fail
