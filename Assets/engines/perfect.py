#!/usr/bin/env python3
"""A tic-tac-toe engine that never loses: minimax over the whole game tree, ties broken at random.

Speaks the tictactoe engine protocol, version 1 (docs/ENGINE.md), on standard input and output. Python's standard
library only. Options: --seed N (reproducible tie-breaks), --name NAME.
"""
import random
import sys
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def other(mark):
    return "o" if mark == "x" else "x"


@lru_cache(maxsize=None)
def value(board, mover):
    """The game's value for `mover` (to move): 1 win, 0 draw, -1 loss, scaled so that quicker wins count more."""
    won = winner(board)
    if won is not None:
        return -10 if won != mover else 10
    empty = [i for i, c in enumerate(board) if c == "."]
    if not empty:
        return 0
    best = -100
    for cell in empty:
        child = board[:cell] + mover + board[cell + 1:]
        score = -value(child, other(mover))
        score -= 1 if score > 0 else (-1 if score < 0 else 0)  # prefer quick wins, slow losses
        best = max(best, score)
    return best


def best_moves(board, mover):
    empty = [i for i, c in enumerate(board) if c == "."]
    scored = []
    for cell in empty:
        child = board[:cell] + mover + board[cell + 1:]
        scored.append((-value(child, other(mover)), cell))
    top = max(score for score, _ in scored)
    return [cell for score, cell in scored if score == top]


def main(argv):
    seed = None
    name = "perfect.py"
    args = list(argv)
    while args:
        option = args.pop(0)
        if option == "--seed" and args:
            seed = int(args.pop(0))
        elif option == "--name" and args:
            name = args.pop(0)
        else:
            print("usage: perfect.py [--seed N] [--name NAME]", file=sys.stderr)
            return 2
    rng = random.Random(seed)
    board = "." * 9
    first = "x"

    def answer(ident, ok, text=""):
        sign = "=" if ok else "?"
        sys.stdout.write(sign + ident + (" " + text if text else "") + "\n\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "protocol_version":
            answer(ident, True, "1")
        elif command == "name":
            answer(ident, True, name)
        elif command == "version":
            answer(ident, True, "1.0")
        elif command == "isready":
            answer(ident, True)
        elif command == "newgame" and len(args) == 2:
            first = args[1].lower()
            board = "." * 9
            answer(ident, True)
        elif command == "position":
            board = "." * 9
            mark = first
            for cell in args:
                index = int(cell) - 1
                board = board[:index] + mark + board[index + 1:]
                mark = other(mark)
            answer(ident, True)
        elif command == "play" and len(args) == 2:
            index = int(args[1]) - 1
            board = board[:index] + args[0].lower() + board[index + 1:]
            answer(ident, True)
        elif command == "genmove" and len(args) == 2:
            mover = args[0].lower()
            choices = best_moves(board, mover)
            if not choices:
                answer(ident, False, "no move")
                continue
            cell = rng.choice(choices)
            board = board[:cell] + mover + board[cell + 1:]
            print("genmove %s: %s from %s" % (mover, cell + 1, [c + 1 for c in choices]), file=sys.stderr)
            answer(ident, True, str(cell + 1))
        elif command == "quit":
            answer(ident, True)
            return 0
        else:
            answer(ident, False, "unknown command")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
