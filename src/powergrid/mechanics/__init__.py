"""Mechanics: the game's machinery below the rules (market, fuel storage, networks, chance).

The plant market's moves, what plants can store and burn, connection costs over a
board, explicit chance points and game seeds. These modules know the records of
:mod:`powergrid.state` and nothing of the rule modules or the engine above them.
"""
