"""The command line (``powergrid`` / ``python -m powergrid``): play, replay, import, arena.

The prompt a person plays at (:mod:`~powergrid.cli.human`) lives here too. Nothing
else in the package imports this folder, except :mod:`powergrid` itself, which
imports :mod:`~powergrid.cli.start` first to keep an early Ctrl-C quiet.
"""
