#!/bin/bash
# make bench's run: builds the driver (Benchmarks/, its own package in .build-bench, so make test never builds it),
# then measures BINARY from outside against anchors measured in the same run (Benchmarks/Sources/bench), pinned to
# core 1; then the in-process figures (ordo-one/benchmark, Benchmarks/Benchmarks/Micro) and TRANSPORT_BENCH's joins
# and move round trips in one process. Measured, never asserted. OPTION...: the driver's (--label NAME, --no-lab,
# --quick, --scale). Results go to .build/bench/.
# usage: scripts/bench.sh BINARY TRANSPORT_BENCH [OPTION...]   (SWIFT: the swift to build with; default swift)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/bench.sh BINARY TRANSPORT_BENCH [OPTION...]" >&2; exit 2; }
bin=$1 transport=$2; shift 2
swift=${SWIFT:-swift}
package=(--package-path Benchmarks --scratch-path "$PWD/.build-bench")
"$swift" build "${package[@]}" -c release --product bench
"$swift" build "${package[@]}" -c release --product nio-pingpong
# The benchmark plugin's own tool and the Micro target, built before the clock starts (list runs nothing).
"$swift" package "${package[@]}" --disable-sandbox benchmark list >/dev/null
driver="$("$swift" build "${package[@]}" -c release --show-bin-path)/bench"
start=$(date +%s)
taskset -c 1 "$driver" --bin "$bin" --repo "$PWD" --out "$PWD/.build/bench" "$@"
# --scale measures how the cost grows and nothing else.
case " $* " in *" --scale "*) echo "make bench: $(( $(date +%s) - start )) s of runs; results in .build/bench/"; exit 0;; esac
echo ""; echo "make bench: in-process figures (ordo-one/benchmark, Benchmarks/Benchmarks/Micro)"
"$swift" package "${package[@]}" --disable-sandbox benchmark --no-progress --format markdown
echo ""; echo "make bench: joins and move round trips in one process (Sources/transport-bench)"
"$transport" --joins 100 --rounds 4
echo "make bench: $(( $(date +%s) - start )) s of runs (builds not included); results in .build/bench/"
