#!/bin/sh
# A tic-tac-toe engine that is easy to beat: it always plays the first free cell (1, 2, 3, ... in reading order).
# Speaks the tictactoe engine protocol, version 1 (docs/ENGINE.md), on standard input and output.
# POSIX sh only: no awk, no external command.
set -f
board=".........";  # nine characters, cell 1 first; "." is empty
first=x

# cell_of N: the character of cell N (1-9) of $board.
cell_of() {
    rest=$board
    i=1
    while [ "$i" -lt "$1" ]; do
        rest=${rest#?}
        i=$((i + 1))
    done
    c=${rest%"${rest#?}"}
}

# put N MARK: $board with cell N set to MARK.
put() {
    new=""
    rest=$board
    i=1
    while [ "$i" -le 9 ]; do
        c=${rest%"${rest#?}"}
        rest=${rest#?}
        if [ "$i" -eq "$1" ]; then new="$new$2"; else new="$new$c"; fi
        i=$((i + 1))
    done
    board=$new
}

answer() {  # answer ID TEXT...
    id=$1
    shift
    if [ $# -gt 0 ]; then printf '=%s %s\n\n' "$id" "$*"; else printf '=%s\n\n' "$id"; fi
}

while IFS= read -r line; do
    set -- $line
    [ $# -gt 0 ] || continue
    id=""
    case $1 in
        *[!0-9]*) ;;
        *) id=$1; shift ;;
    esac
    [ $# -gt 0 ] || continue
    command=$1
    shift
    case $command in
        protocol_version) answer "$id" 1 ;;
        name) answer "$id" first-free.sh ;;
        version) answer "$id" 1.0 ;;
        isready) answer "$id" ;;
        newgame) board="........."; first=${2:-x}; answer "$id" ;;
        position)
            board="........."
            mark=$first
            for cell in "$@"; do
                put "$cell" "$mark"
                if [ "$mark" = x ]; then mark=o; else mark=x; fi
            done
            answer "$id" ;;
        play) put "$2" "$1"; answer "$id" ;;
        genmove)
            n=1
            while [ "$n" -le 9 ]; do
                cell_of "$n"
                [ "$c" = "." ] && break
                n=$((n + 1))
            done
            if [ "$n" -gt 9 ]; then printf '?%s no free cell\n\n' "$id"; continue; fi
            put "$n" "$1"
            answer "$id" "$n" ;;
        quit) answer "$id"; exit 0 ;;
        *) printf '?%s unknown command\n\n' "$id" ;;
    esac
done
