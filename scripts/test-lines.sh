#!/bin/bash
# make test's tests, after the build, on three lines at once, each about a third of the time: most lab tests
# (Tests/LabTests) in one LAN lab (TICTACTOE_LAB=lab); the demo check (in the demo's lab) followed by the longest lab
# tests in a second lab (lab2; labs of different names are LANs that never meet); and every other test (the quick
# tier and the end-to-end tests, which use loopback only) followed by a few lab tests in a third lab (lab3). The lab
# tests mostly wait on the network, so the lines share the machine well. Each line's output is shown as it comes,
# prefixed with its name, and kept whole in LOGDIR; at the end the failed tests of every line are listed again, with
# their messages, so that the end of the output says what failed.
# usage: scripts/test-lines.sh LOGDIR DEMO_CHECK_COMMAND... (SWIFT in the environment: the swift to run)
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/test-lines.sh LOGDIR DEMO_CHECK_COMMAND..." >&2; exit 2; }
logs=$1
shift
demo_check=("$@")
swift=${SWIFT:-swift}
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.status

# The lines run the one build that `make test` made and none writes (--skip-build), so none waits for another's
# lock on the build directory (--ignore-lock).
swift_test() { $swift test --skip-build --ignore-lock --disable-swift-testing "$@"; }

# The lab test classes of the second and the third lab; the first lab runs every other one.
LAB2_CLASSES='^LabTests\.(DiscoveryLabTests|DeadHostLabTests)/'
LAB3_CLASSES='^LabTests\.(IPv6OnlyLabTests|LobbyLabTests|PrivacyLabTests)/'

lab_line() { TICTACTOE_LAB=lab swift_test --filter '^LabTests\.' --skip "$LAB2_CLASSES" --skip "$LAB3_CLASSES"; }

lab2_line() {
    local status=0
    "${demo_check[@]}" || status=1
    TICTACTOE_LAB=lab2 swift_test --filter "$LAB2_CLASSES" || status=1
    return $status
}

other_line() {
    local status=0
    swift_test --skip '^LabTests\.' || status=1
    TICTACTOE_LAB=lab3 swift_test --filter "$LAB3_CLASSES" || status=1
    return $status
}

run_line() {  # NAME: runs NAME_line, its output prefixed and in LOGDIR/NAME.log, its status in LOGDIR/NAME.status
    local name=$1
    { "${name}_line" 2>&1; echo $? >"$logs/$name.status"; } | tee "$logs/$name.log" | sed -u "s/^/$(printf '%-5s' "$name") │ /"
}

started=$SECONDS
lines=(lab lab2 other)
for name in "${lines[@]}"; do run_line "$name" & done
wait

failed=0
echo
echo "make test: the tests ran in $((SECONDS - started)) s on ${#lines[@]} lines (whole logs in $logs):"
for name in "${lines[@]}"; do
    status=$(cat "$logs/$name.status" 2>/dev/null || echo "?")
    # Each `swift test` of the line ends with its total, after the suite of the selected tests.
    summary=$(grep -A1 -E "^Test Suite 'Selected tests' (passed|failed)" "$logs/$name.log" |
        grep -E "^[[:space:]]*Executed [0-9]+ tests?," | sed 's/^[[:space:]]*//' | paste -sd ';' | sed 's/;/; /g')
    if [ "$status" = 0 ]; then
        echo "  $name: passed (${summary:-no test summary})"
    else
        failed=1
        echo "  $name: FAILED (exit status $status; ${summary:-no test summary})"
        grep -E "error: |Test Case '.*' failed|^demo-check: |^make [a-z-]+: |make(\[[0-9]+\])?: \*\*\*" "$logs/$name.log" |
            grep -vE "^demo-check: (scene [a-z]+ |all [0-9]+ scenes passed)" |
            sed 's/^/    /' | head -60
    fi
done
exit $failed
