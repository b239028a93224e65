// Bonjour discovery arrives here (issue 4).
