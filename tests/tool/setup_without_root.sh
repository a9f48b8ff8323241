#!/usr/bin/env bash
# .ci/setup run by a non-root user on a machine without the packages must stop with a message
# naming them. Fakes `id` and `dpkg-query` on PATH so the test runs anywhere, as anyone.
set -u
repo=$1
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\necho 1000\n' > "$fake/id"
printf '#!/bin/sh\nexit 1\n' > "$fake/dpkg-query"
chmod +x "$fake/id" "$fake/dpkg-query"
output=$(PATH="$fake:$PATH" bash "$repo/.ci/setup" 2>&1)
code=$?
echo "$output"
[ "$code" -ne 0 ] || { echo "FAIL: setup succeeded without packages"; exit 1; }
for package in g++ cmake libboost-dev libeigen3-dev catch2; do
  grep -q -- "$package" <<<"$output" || { echo "FAIL: message does not name $package"; exit 1; }
done
grep -q "apt-get install" <<<"$output" || { echo "FAIL: no install command in the message"; exit 1; }
echo "PASS"
