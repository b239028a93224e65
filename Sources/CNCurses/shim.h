#ifndef TICTACTOE_CNCURSES_SHIM_H
#define TICTACTOE_CNCURSES_SHIM_H
// Wide-character ncurses (ncursesw): needed for box-drawing characters in UTF-8 locales.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>
#include <stdio.h>

// C globals as functions: Swift 6 refuses to read C global variables (shared mutable state), not function results.
// Only the UI thread calls curses (see CursesTerminal).
static inline WINDOW *cncurses_stdscr(void) { return stdscr; }
static inline WINDOW *cncurses_curscr(void) { return curscr; }
static inline FILE *cncurses_stdin(void) { return stdin; }
static inline FILE *cncurses_stdout(void) { return stdout; }
#endif
