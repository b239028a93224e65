import CNCurses
// The ncurses driver arrives here (issue 3).
