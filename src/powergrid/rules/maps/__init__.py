"""The boards' rule modules: Europe, North America, and the classic USA and Germany.

Each module holds its board's map rules (CON-02): the regions played, the
starting market and any rule of its own. The board itself is package data
(``data/maps/<id>.json``).
"""
