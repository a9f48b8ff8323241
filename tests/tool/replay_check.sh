#!/usr/bin/env bash
# Runs `rpgnav replay MAP SCRIPT --json --verify` (every plan also checked against navigation data
# built afresh) and checks its output against an expectations file, one per line:
#   count N        N path lines were printed
#   N = M          the plans of path lines N and M are the same (timings aside)
#   N != M         they differ
#   N ~ REGEX      line N matches the extended regular expression
# usage: replay_check.sh EXE MAP SCRIPT EXPECTATIONS
set -euo pipefail
exe=$1 map=$2 script=$3 expectations=$4
fail() { echo "replay_check: $*" >&2; exit 1; }

out=$("$exe" replay "$map" "$script" --json --verify) || fail "rpgnav replay exited with $?"
mapfile -t lines <<< "$out"
plain=()
timing='"edit_us":[0-9.e+-]+,"prepare_us":[0-9.e+-]+,"plan_us":[0-9.e+-]+}$'
for i in "${!lines[@]}"; do
  [[ ${lines[$i]} =~ $timing ]] || fail "line $((i + 1)) lacks edit_us, prepare_us and plan_us: ${lines[$i]}"
  plain+=("$(sed -E 's/,"stages":\{[^}]*\}//; s/,"edit_us".*$//' <<< "${lines[$i]}")")
done

checks=0
while IFS= read -r expectation || [[ -n $expectation ]]; do
  [[ -z ${expectation// } || $expectation == \#* ]] && continue
  checks=$((checks + 1))
  if [[ $expectation =~ ^count\ ([0-9]+)$ ]]; then
    [[ ${#lines[@]} -eq ${BASH_REMATCH[1]} ]] || fail "expected ${BASH_REMATCH[1]} path lines, found ${#lines[@]}"
  elif [[ $expectation =~ ^([0-9]+)\ =\ ([0-9]+)$ ]]; then
    a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
    [[ ${plain[$((a - 1))]} == "${plain[$((b - 1))]}" ]] || fail "plans $a and $b differ:
  ${plain[$((a - 1))]}
  ${plain[$((b - 1))]}"
  elif [[ $expectation =~ ^([0-9]+)\ !=\ ([0-9]+)$ ]]; then
    a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
    [[ ${plain[$((a - 1))]} != "${plain[$((b - 1))]}" ]] || fail "plans $a and $b are the same: ${plain[$((a - 1))]}"
  elif [[ $expectation =~ ^([0-9]+)\ ~\ (.*)$ ]]; then
    n=${BASH_REMATCH[1]} regex=${BASH_REMATCH[2]}
    [[ ${lines[$((n - 1))]} =~ $regex ]] || fail "line $n does not match $regex:
  ${lines[$((n - 1))]}"
  else
    fail "bad expectation: $expectation"
  fi
done < "$expectations"
[[ $checks -gt 0 ]] || fail "no expectations in $expectations"
echo "replay_check: ${#lines[@]} plans, $checks expectations met"
