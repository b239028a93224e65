// The local network privacy gate arrives here (issue 5).
