"""What a human types at the prompt: commands, menu numbers, notation and short forms.

:func:`interpret` turns one line into an action to try, a session
:class:`Command` or an :class:`Unclear` message. It never decides legality:
an action it returns may still be illegal, and the engine then says why
(:func:`powergrid.explain_illegal`). One refusal is said here instead, in the
words the player typed: an action of another phase (``buy`` in the auction),
which the engine's message names by its class. The accepted forms are listed
in :data:`HELP` and in the command line docs.

>>> import powergrid as pg
>>> state = pg.new_game(pg.GameConfig(players=2, components="classic"), seed=3)
>>> str(interpret("choose 4", state, ()))
'0:choose 4 4'
>>> interpret("save game.json", state, ())
Command(name='save', argument='game.json')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from powergrid.actions import (
    CLOSING,
    Action,
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    Kind,
    PassAuction,
    Power,
    kind_of,
)
from powergrid.cli.human_view import entries, short
from powergrid.engine.game import current_player, legal_actions
from powergrid.engine.queries import action_phase
from powergrid.engine.views import public_view
from powergrid.enums import Phase
from powergrid.errors import InvalidRecord
from powergrid.formats.notation import parse_action
from powergrid.state import GameState

#: What ``help`` prints at the prompt.
HELP = """\
Type an action, its number in the menu, or a command.
  3               the action on line 3 of the menu (a run like bid 14..50: the lowest)
  bid 17          bid 17 in the running auction; "bid" alone bids the lowest possible
  choose 13 15    open plant 13 at 15; "choose 13" opens it at its minimum bid
  pass            pass the auction phase; in a running auction, drop out (fold);
                  while buying or building, finish (endbuy, endbuild; also "end", "done")
  buy 2 coal      buy 2 coal; "buy coal" buys one
  build berlin    build in Berlin; the start of a name is enough when only one city fits
  power 13,22     power plants 13 and 22 (add the mix, coal=1 oil=2, when a hybrid
                  leaves a choice); "power none" powers nothing
  discard 13      discard plant 13 (add drop coal=1 when tokens must go)
  fund berlin     put one of the fund's starting houses in Berlin (2-player Deluxe setup;
                  the Trust's in a 2-player Recharged game)
  mark kassel     mark Kassel as your starting city (Recharged experienced start, RCH-13)
  0:bid 17        the full notation of every action works too
Commands:
  help            this text
  show            the whole position
  city NAME       a city: who is there, its neighbours and what building there costs you
  map             write the picture of the game (SVG, beside the save) and say where
  undo            take back your last decision
  save FILE [--force]   write the game so far to FILE
                  (--force: overwrite a file that is not this game's record)
  quit            save the game and stop"""

#: Words that run a session command, and the command they name.
COMMANDS = {
    "help": "help",
    "?": "help",
    "show": "show",
    "undo": "undo",
    "save": "save",
    "city": "city",
    "map": "map",
    "quit": "quit",
    "exit": "quit",
}
#: The actions that end a player's part: what ``pass`` may mean (the registry's closing kinds).
STOPS: tuple[type, ...] = tuple(k.cls for k in CLOSING)
#: What ``end`` and ``done`` may mean: finish buying or building (the auction's are ``pass``).
FINISHES: tuple[type, ...] = tuple(k.cls for k in CLOSING if k.phase is not Phase.AUCTION)


@attrs.frozen
class Command:
    """A session command typed at the prompt instead of an action.

    ``name`` is ``help``, ``show``, ``menu`` (an empty line), ``undo``,
    ``save``, ``city``, ``map`` or ``quit``; ``argument`` is the file name of ``save``
    or the city of ``city``, as typed.
    """

    name: str
    argument: str = ""


@attrs.frozen
class Unclear:
    """A line that names no single action; ``message`` says why or lists the candidates."""

    message: str


Move = Action | Command | Unclear
Resolver = Callable[[list[str], GameState, Sequence[Action]], Move | None]


def interpret(text: str, state: GameState, picks: Sequence[Action]) -> Move:
    """What ``text`` typed by the player to act means; ``picks[n - 1]`` is menu number ``n``.

    Returns an action to try (perhaps illegal), a :class:`Command`, or
    :class:`Unclear` with a message for the player (bad syntax, an unknown
    number, an abbreviation that fits several actions, an action of another
    phase).
    """
    line = text.strip()
    if not line:
        return Command("menu")
    first, _, rest = line.partition(" ")
    command = COMMANDS.get(first.lower())
    if command is not None:
        return _command(command, rest.strip())
    if line.isascii() and line.isdigit():
        return _pick(int(line), picks)
    try:
        move = _action(line.lower(), state, picks)
    except InvalidRecord as err:
        return Unclear(f"{err} (type help for what the prompt accepts)")
    return _in_phase(move, state)


#: The phases as a player knows them, for an action typed in the wrong one.
PHASE_WORDS = {
    Phase.SETUP: "the set-up before round 1",
    Phase.AUCTION: "the auction (phase 2)",
    Phase.RESOURCES: "buying resources (phase 3)",
    Phase.BUILDING: "building (phase 4)",
    Phase.BUREAUCRACY: "the bureaucracy (phase 5)",
}


def _in_phase(move: Move, state: GameState) -> Move:
    """``move``, or what the player is told when it belongs to another phase.

    The engine refuses such an action naming its class (``BuyResource is not
    played in phase 2 (auction)``, a message other callers rely on); the
    player typed ``buy``, so the prompt says it with that word and the phases.
    """
    if isinstance(move, Command | Unclear) or state.phase not in PHASE_WORDS:
        return move
    home = action_phase(state, move)
    # an action of this phase, or of none (a chance outcome): the engine says why, if it must
    if home is None or home == state.phase:
        return move
    verb = short(move).split()[0]
    return Unclear(
        f"{verb} is not possible now: it is {PHASE_WORDS[state.phase]}; {verb} belongs to "
        f"{PHASE_WORDS[home]}. The menu lists what you can do now."
    )


def _command(name: str, argument: str) -> Command | Unclear:
    if name == "save" and not argument:
        return Unclear("save needs a file name: save FILE")
    if name == "city" and not argument:
        return Unclear("city needs a city's name: city BERLIN")
    if name not in ("save", "city") and argument:
        return Unclear(f"{name} takes nothing after it")
    return Command(name, argument)


def _pick(number: int, picks: Sequence[Action]) -> Action | Unclear:
    if 1 <= number <= len(picks):
        return picks[number - 1]
    if not picks:
        return Unclear("there is no menu now")
    return Unclear(f"there is no line {number} in the menu: choose 1 to {len(picks)}")


def _action(text: str, state: GameState, picks: Sequence[Action]) -> Move:
    if ":" in text:
        return parse_action(text, state)
    words = text.split()
    resolver = SHORT_FORMS.get(words[0]) or _module_city_form(words[0], state)
    found = None if resolver is None else resolver(words, state, picks)
    return parse_action(text, state) if found is None else found


def _module_city_form(verb: str, state: GameState) -> Resolver | None:
    """The short form of a rule module's action of this game with a ``city`` field.

    Such an action (the fund's house, a marked start city, RCH-13) reads like
    ``build``: ``mark kas`` names Kassel when only one city fits.
    """
    for kind in state.rules.actions:
        if kind.verb == verb and "city" in {a.name for a in attrs.fields(kind.cls)}:
            return _city_of(kind)
    return None


def _seat(state: GameState) -> int:
    seat = current_player(state)
    if seat is None:
        raise InvalidRecord("the game is over")
    return seat


def _label(word: str) -> str:
    """A plant label as the notation reads it (``013`` is ``13``)."""
    try:
        plant = parse_action(f"0:discard {word}")
    except InvalidRecord:
        raise InvalidRecord(f"{word!r} is not a plant (e.g. 13, 46+, 14o)") from None
    assert isinstance(plant, DiscardPlant)
    return plant.plant


def _one_of(text: str, found: Sequence[Action], picks: Sequence[Action]) -> Move | None:
    """The only action found; a list of them when several fit; None when none does."""
    if len(found) == 1:
        return found[0]
    if not found:
        return None
    lines = [f"{text!r} fits several actions; type one of them (or its number):"]
    for entry in entries(found):
        number = f"{picks.index(entry.action) + 1}. " if entry.action in picks else ""
        lines.append(f"  {number}{entry.text}")
    return Unclear("\n".join(lines))


def _verb_alone(verb: str, state: GameState, picks: Sequence[Action]) -> Move:
    found = [a for a in legal_actions(state) if short(a).split()[0] == verb]
    move = _one_of(verb, found, picks)
    return Unclear(f"no {verb} action is possible now (see the menu)") if move is None else move


def _stop(words: list[str], state: GameState, picks: Sequence[Action]) -> Move | None:
    if len(words) > 1:
        return None
    kinds = STOPS if words[0] == "pass" else FINISHES
    found = [a for a in legal_actions(state) if isinstance(a, kinds)]
    if found:
        return found[0]  # never more than one: each belongs to its own phase or moment
    if words[0] == "pass":
        return PassAuction(player=_seat(state))  # the engine says why not
    return Unclear(f"{words[0]!r} finishes buying or building; neither is possible now")


def _bid(words: list[str], state: GameState, picks: Sequence[Action]) -> Move | None:
    if len(words) > 1:
        return None
    bids = [a for a in legal_actions(state) if isinstance(a, Bid)]
    if bids:
        return min(bids, key=lambda a: a.amount)
    auction = state.auction
    return Bid(player=_seat(state), amount=0 if auction is None else auction.bid + 1)


def _choose(words: list[str], state: GameState, picks: Sequence[Action]) -> Move | None:
    if len(words) == 1:
        return _verb_alone(_verb(ChoosePlant), state, picks)
    if len(words) > 2:
        return None
    plant = _label(words[1])
    found = [a for a in legal_actions(state) if isinstance(a, ChoosePlant) and a.plant == plant]
    if found:
        return min(found, key=lambda a: a.bid)
    minimum = dict(public_view(state).min_bids).get(plant, 0)
    return ChoosePlant(player=_seat(state), plant=plant, bid=minimum)  # the engine says why not


def _buy(words: list[str], state: GameState, picks: Sequence[Action]) -> Move | None:
    if len(words) == 1:
        return _verb_alone(_verb(BuyResource), state, picks)
    if len(words) == 2 and not words[1].isdigit():
        return parse_action(f"buy 1 {words[1]}", state)
    if len(words) == 3 and words[2].isdigit() and not words[1].isdigit():
        return parse_action(f"buy {words[2]} {words[1]}", state)  # "buy coal 2"
    return None


def _kind(cls: type) -> Kind:
    """The registry's record of a base action class."""
    kind = kind_of(cls)
    assert kind is not None
    return kind


def _verb(cls: type) -> str:
    """The notation verb of a base action class (the registry's)."""
    return _kind(cls).verb


def _city_of(kind: Kind) -> Resolver:
    """The short form of an action with a city (``build``, ``fund``): a city's start is enough."""
    verb = kind.verb

    def resolve(words: list[str], state: GameState, picks: Sequence[Action]) -> Move | None:
        if len(words) == 1:
            return _verb_alone(verb, state, picks)
        city = complete_city("_".join(words[1:]), state, verb)
        if isinstance(city, Unclear):
            return city
        made: Action = kind.cls(player=_seat(state), city=city)
        return made

    return resolve


def complete_city(word: str, state: GameState, verb: str) -> str | Unclear:
    """The city id ``word`` starts (an id or a name; the legal cities first), or the candidates.

    A word that fits no city comes back unchanged, for the engine to reject.
    """
    board = state.rules.area.board
    if word in board.cities:
        return word
    names = dict(zip(board.cities, board.city_names, strict=True))
    named = (getattr(a, "city", None) for a in legal_actions(state))
    legal = [c for c in named if isinstance(c, str)]
    for pool in (legal, board.cities):
        found = [c for c in pool if c.startswith(word) or _folded(names[c]).startswith(word)]
        if len(found) == 1:
            return found[0]
        if found:
            fits = ", ".join(f"{verb} {c}" for c in found)
            return Unclear(f"{verb} {word!r} fits several cities: {fits}")
    return word


def _folded(city_name: str) -> str:
    return city_name.casefold().replace(" ", "_")


def _plants_of(kind: type[Power] | type[DiscardPlant]) -> Resolver:
    verb = _verb(kind)

    def resolve(words: list[str], state: GameState, picks: Sequence[Action]) -> Move | None:
        if len(words) == 1:
            return _verb_alone(verb, state, picks)
        if any("=" in w or w == "drop" for w in words[1:]) or words[1] == "none":
            return None  # the mix or the drop is given: the plain notation
        text = f"{verb} {','.join(words[1:])}" if kind is Power else " ".join(words)
        wanted = parse_action(text, state)
        legal = legal_actions(state)
        if wanted in legal:
            return wanted
        found = [a for a in legal if isinstance(a, kind) and _same_plants(a, wanted)]
        return _one_of(" ".join(words), found, picks) or wanted

    return resolve


def _same_plants(a: Action, b: Action) -> bool:
    if isinstance(a, Power) and isinstance(b, Power):
        return a.plants == b.plants
    return isinstance(a, DiscardPlant) and isinstance(b, DiscardPlant) and a.plant == b.plant


#: The short forms by their first word, an action's verb (the registry's) or a word for
#: finishing; a rule module's action with a city (``fund``, ``mark``) has one too
#: (:func:`_module_city_form`); the rest is read as plain notation.
SHORT_FORMS: dict[str, Resolver] = {
    _verb(PassAuction): _stop,
    "end": _stop,
    "done": _stop,
    _verb(Bid): _bid,
    _verb(ChoosePlant): _choose,
    _verb(BuyResource): _buy,
    _verb(Build): _city_of(_kind(Build)),
    _verb(Power): _plants_of(Power),
    _verb(DiscardPlant): _plants_of(DiscardPlant),
}
