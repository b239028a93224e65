#!/bin/bash
# Fuzzes the wire codec with libFuzzer for SECONDS from the committed seed corpus (Fuzz/corpus: read, never written;
# new inputs go to .build-fuzz/corpus, a crashing input to .build-fuzz/artifacts/), then prints executions per second
# and totals. Fuzz/ is its own package, built in .build-fuzz: -sanitize=fuzzer brings libFuzzer's main, which clashes
# with the app's @main and the test runner. libFuzzer comes with the Swift toolchain (its clang runtime). Both
# -sanitize flags go in one -Xswiftc (swift-driver passes only the last -sanitize= to the compiler, which would drop
# the coverage libFuzzer needs); SwiftPM's own --sanitize=fuzzer makes it link libFuzzer's main instead of the
# executable's.
# usage: scripts/fuzz.sh SECONDS   (SWIFT: the swift to build with; default swift)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/fuzz.sh SECONDS" >&2; exit 2; }
seconds=$1
case "$seconds" in
  ''|*[!0-9]*|0) echo "make fuzz: SECONDS must be a whole number above 0, not '$seconds'"; exit 2;;
esac
build=("${SWIFT:-swift}" build --package-path Fuzz --scratch-path "$PWD/.build-fuzz" -c release --sanitize=fuzzer
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
"${build[@]}"
mkdir -p .build-fuzz/corpus .build-fuzz/artifacts
bin="$("${build[@]}" --show-bin-path)/FrameFuzzer" log=.build-fuzz/fuzz.log
echo "make fuzz: FrameFuzzer for $seconds s from $(ls Fuzz/corpus | wc -l) seeds (Fuzz/corpus)" \
  "and $(ls .build-fuzz/corpus | wc -l) inputs found before (.build-fuzz/corpus)"
status=0
"$bin" -max_total_time="$seconds" -print_final_stats=1 -max_len=1100 -timeout=10 \
  -artifact_prefix=.build-fuzz/artifacts/ .build-fuzz/corpus Fuzz/corpus >"$log" 2>&1 || status=$?
if [ $status -ne 0 ]; then
  tail -n 60 "$log"
  echo "make fuzz: FAILED (exit $status): the input is in .build-fuzz/artifacts/, the log in $log"; exit 1
fi
grep '^stat::' "$log"
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
found=$(sed -n 's/^stat::new_units_added: *//p' "$log")
echo "make fuzz: $runs executions in $seconds s ($rate per second), $found new inputs, 0 crashes, every invariant held"
