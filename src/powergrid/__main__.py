"""``python -m powergrid``: the command line (:mod:`powergrid.cli.main`)."""

from powergrid.cli.main import console

if __name__ == "__main__":
    raise SystemExit(console())
