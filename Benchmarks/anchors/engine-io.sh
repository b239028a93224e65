#!/bin/sh
# The anchor of the match runner's figure (make bench): what two engines cost by themselves over GAMES games — each
# game starts both engine processes and hands each the protocol lines a `tictactoe match` game sends it (the same
# commands, all at once, answers discarded): process start and I/O, with no runner between them.
# Usage: engine-io.sh GAMES ENGINE (a script run with sh, e.g. Assets/engines/first-free.sh)
set -eu
games=$1
engine=$2
i=0
while [ "$i" -lt "$games" ]; do
    printf '%s\n' "1 protocol_version" "2 name" "3 version" "4 isready" "5 newgame x x" "6 genmove x 120.000" \
        "7 play o 2" "8 genmove x 120.000" "9 play o 4" "10 genmove x 120.000" "11 play o 6" "12 genmove x 120.000" \
        "13 quit" | sh "$engine" >/dev/null
    printf '%s\n' "1 protocol_version" "2 name" "3 version" "4 isready" "5 newgame o x" "6 play x 1" \
        "7 genmove o 120.000" "8 play x 3" "9 genmove o 120.000" "10 play x 5" "11 genmove o 120.000" "12 quit" \
        | sh "$engine" >/dev/null
    i=$((i + 1))
done
