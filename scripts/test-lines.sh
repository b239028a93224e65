#!/bin/bash
# make test's tests, after the build, on two lines at once: the LAN lab's line (the demo check, then the lab tests,
# one after the other: there is one lab on a machine) and every other test (the quick tier and the end-to-end tests,
# which use loopback only). The lab's line mostly waits on the network, so the two share the machine well. Each
# line's output is shown as it comes, prefixed with its name, and kept whole in LOGDIR; at the end the failed tests of
# both lines are listed again, with their messages, so that the end of the output says what failed.
# usage: scripts/test-lines.sh LOGDIR DEMO_CHECK_COMMAND... (SWIFT in the environment: the swift to run)
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/test-lines.sh LOGDIR DEMO_CHECK_COMMAND..." >&2; exit 2; }
logs=$1
shift
demo_check=("$@")
swift=${SWIFT:-swift}
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.status

# Both lines run the one build that `make test` made and neither writes (--skip-build), so neither waits for the
# other's lock on the build directory (--ignore-lock).
swift_test() { $swift test --skip-build --ignore-lock --disable-swift-testing "$@"; }

lab_line() {
    local status=0
    "${demo_check[@]}" || status=1
    swift_test --filter '^LabTests\.' || status=1
    return $status
}

other_line() { swift_test --skip '^LabTests\.'; }

run_line() {  # NAME: runs NAME_line, its output prefixed and in LOGDIR/NAME.log, its status in LOGDIR/NAME.status
    local name=$1
    { "${name}_line" 2>&1; echo $? >"$logs/$name.status"; } | tee "$logs/$name.log" | sed -u "s/^/$name │ /"
}

started=$SECONDS
run_line lab &
lab=$!
run_line other &
other=$!
wait "$lab" "$other"

failed=0
echo
echo "make test: the tests ran in $((SECONDS - started)) s on two lines (whole logs in $logs):"
for name in lab other; do
    status=$(cat "$logs/$name.status" 2>/dev/null || echo "?")
    summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?," "$logs/$name.log" | tail -1 | sed 's/^[[:space:]]*//')
    if [ "$status" = 0 ]; then
        echo "  $name: passed (${summary:-no test summary})"
    else
        failed=1
        echo "  $name: FAILED (exit status $status; ${summary:-no test summary})"
        grep -E "error: |Test Case '.*' failed|^demo-check: FAILED|make(\[[0-9]+\])?: \*\*\*" "$logs/$name.log" |
            sed 's/^/    /' | head -60
    fi
done
exit $failed
