// The terminal seam and screens arrive here (issue 3).
