"""Game seeds: any integer, stored whole when it fits the documents, reduced when not.

A seed decides everything chance decides in a game (:func:`powergrid.new_game`).
Any Python ``int`` is a seed. One of magnitude below :data:`SEED_BOUND`
(``2**2048``, 617 decimal digits) is used and stored whole: the state's random
stream, a :class:`~powergrid.GameRecord` and a position text hold that very
integer, so every seed that played a game before keeps playing the same game.
A larger one is first reduced to ``sign * (abs(seed) % SEED_BOUND)``: Python
refuses to turn integers of more than a few thousand digits into text
(``sys.set_int_max_str_digits()``, at least 640 digits), and both the random
stream (``random.Random(f"{seed}:{counter}")``) and JSON need that text.

>>> from powergrid.mechanics.seeds import SEED_BOUND, game_seed
>>> game_seed(42), game_seed(-7)
(42, -7)
>>> game_seed(SEED_BOUND + 5), game_seed(-(SEED_BOUND + 5))
(5, -5)
"""

from __future__ import annotations

from powergrid.errors import RulesConfigError

__all__ = ["SEED_BITS", "SEED_BOUND", "game_seed"]

#: Seeds of fewer bits are stored whole.
SEED_BITS = 2048
#: Every seed a game plays with has a magnitude below this.
SEED_BOUND: int = 2**SEED_BITS


def game_seed(seed: object) -> int:
    """The seed a game plays with: ``seed`` itself, or reduced below :data:`SEED_BOUND`.

    ``seed`` must be an ``int`` (``bool`` is not a seed): anything else raises
    :class:`~powergrid.RulesConfigError` with ``field == "seed"``, since the seed
    is, with the config, what names the game. Reducing twice changes nothing.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesConfigError(
            f"the seed must be a whole number, not a {type(seed).__name__}", field="seed"
        )
    if -SEED_BOUND < seed < SEED_BOUND:
        return int(seed)  # an int subclass becomes a plain int, as JSON reads it back
    reduced = abs(seed) % SEED_BOUND
    return reduced if seed > 0 else -reduced
