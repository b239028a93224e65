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
#endif
