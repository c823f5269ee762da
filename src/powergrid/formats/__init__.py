"""Formats: the game written down and read back.

JSON documents (:mod:`~powergrid.formats.serialize`) with their schemas and
upgrades of older formats, game records and replay, action notation, position
texts and the position builder, and the state as terminal text. Every reader
here refuses bad input with :class:`~powergrid.InvalidRecord` naming the field.
"""
