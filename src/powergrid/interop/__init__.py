"""Other engines' formats: games exported by boardgamers.space, read into records."""
