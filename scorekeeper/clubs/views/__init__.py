"""The pages of a club: its organisers' (`desk`: their clubs, a club's desk, its concours,
seasons and people) and the public ones under /club/<slug>/ with the archive and its restore
(`public`). Neither imports the other."""
