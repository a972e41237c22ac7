"""Perudo as an OpenSpiel Python game, registered with ``pyspiel`` as ``python_perudo``.

>>> import pyspiel
>>> import perudo.research.openspiel_game  # registers python_perudo
>>> game = pyspiel.load_game("python_perudo(preset=liars_dice_openspiel,players=2,dice=1)")
>>> game.num_players(), game.max_chance_outcomes()
(2, 6)

Parameters: ``preset`` (a rule-set name, :func:`perudo.core.find_ruleset`; default ``perudo``),
``players`` (2–10), ``dice`` (dice per player, V-12; ``0`` keeps the preset's), ``faces``
(faces per die, V-12; ``0`` keeps the preset's), ``wild`` (the wild face, V-2; ``-1`` keeps the
preset's, ``0`` means none), ``opener`` (the seat that opens the first round, default 0, as in
OpenSpiel's own games: the P-2 roll-off is replaced by this table setting). The rule set is
built by :class:`~perudo.core.RuleSet`, which refuses impossible combinations with a reason.

``python_perudo(preset=liars_dice_openspiel,dice=1)`` is OpenSpiel's ``liars_dice`` and
``python_perudo(preset=liars_dice_openspiel,dice=1,faces=4,wild=4)`` is
``liars_dice(dice_sides=4)``, tree for tree (the tests check it).

* **Chance** rolls one die per chance node, as OpenSpiel's C++ ``liars_dice`` does: the
  deal goes seat by seat (seats that are out are skipped), each die an outcome ``face − 1``
  with probability ``1/F``; a V-9 re-roll is one chance node per re-rolled die. When the last
  die of a deal or re-roll falls, the dice go to the core as one ``Deal`` (or ``Reroll``).
* **Actions** are the dense ids of :mod:`perudo.core.encoding`, plus *no calza* (one past the
  last) when calza is played out of turn; out-of-turn calza is modelled by calza windows
  (:mod:`perudo.research.table`). Every legal action comes from the core.
* **Returns**: +1 for the winner, −1/(n − 1) for every other seat (zero-sum; ±1 with two
  players, like ``liars_dice``).
* **Information state** (perfect recall): the string is ``p<player>`` followed by every event
  the player saw, in order: round starts, its own dice (sorted, as the core deals them),
  every public action, every reveal. The tensor has a header (player one-hot, calza-window
  flag, current own dice) and one block per round: present, palifico, opener, dice counts at
  the start, own dice dealt, the bid matrix (bid id × seat), set-asides and own re-rolls
  attached to the bid that followed them (V-9), passes (seat × the bid passed over, V-10), how
  it ended (kind, caller) and the revealed hands. There are ``T − 1`` round blocks (``T`` the
  most dice in play; every round without calza costs at least one die); with calza a correct
  call gains a die (P-51), so ``2T`` blocks are kept and a longer game keeps its latest ones.
* **Observation** (imperfect recall): the vector and fields of
  :class:`~perudo.research.observation.ObservationEncoder`, and a matching string.

``max_game_length`` bounds the player decisions of a game without calza exactly; with calza it
assumes at most ``2T`` rounds (a game longer than that needs more correct calzas than any
realistic game has, P-51).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from perudo.core import (
    ActionTaken,
    Bid,
    DiceDealt,
    DiceRerolled,
    Event,
    GameOver,
    PalificoChosen,
    Pass,
    Phase,
    Reroll,
    RoundResolved,
    RoundStarted,
    RuleSet,
    SetAside,
    find_ruleset,
    start_round,
)
from perudo.core.actions import Deal
from perudo.core.encoding import ActionEncoding, encoding
from perudo.core.engine import rerolling_seat

from .observation import ObservationEncoder
from .table import NO_CALZA_NAME, Table, num_ids

__all__ = ["GAME_TYPE", "PerudoGame", "PerudoObserver", "PerudoState", "load"]

_SHORT_NAME: Final = "python_perudo"
_MAX_PLAYERS: Final = 10

GAME_TYPE: Final = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="Python Perudo (perudo.core)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "preset": "perudo",
        "players": 2,
        "dice": 0,
        "faces": 0,
        "wild": -1,
        "opener": 0,
    },
)
"""The registered game type."""

_KINDS: Final = ("dudo", "calza", "pass")
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


@dataclasses.dataclass(frozen=True)
class _Setup:
    """What a game's parameters fix; shared by every state (never copied)."""

    rules: RuleSet
    num_players: int
    opener: int
    enc: ActionEncoding
    num_ids: int
    rounds: int

    def __deepcopy__(self, memo: dict[int, object]) -> _Setup:
        return self


def _setup(params: dict[str, Any]) -> _Setup:
    rules = find_ruleset(str(params.get("preset", "perudo")))
    changes: dict[str, Any] = {}
    if int(params.get("dice", 0)):
        changes["dice_per_player"] = int(params["dice"])
    if int(params.get("faces", 0)):
        changes["faces"] = int(params["faces"])
    wild = int(params.get("wild", -1))
    if wild >= 0:
        changes["wild_face"] = wild or None
    if changes:
        rules = dataclasses.replace(rules, **changes)  # RuleSet checks the combination
    n = int(params.get("players", 2))
    enc = encoding(rules, n)  # checks the player count (P-1)
    opener = int(params.get("opener", 0))
    if not 0 <= opener < n:
        raise ValueError(f"opener must be a seat 0…{n - 1}, not {opener}")
    total = enc.max_dice
    rounds = max(1, 2 * total if rules.calza != "off" else total - 1)
    return _Setup(rules, n, opener, enc, num_ids(rules, n), rounds)


def _max_game_length(s: _Setup) -> int:
    rules, n = s.rules, s.num_players
    per_bid = 1 + (1 if rules.set_aside else 0)
    if rules.calza == "on":
        per_bid *= 1 + max(0, n - 2)  # a calza window after each bid and re-roll
    per_round = s.enc.num_bids * per_bid + n + 2  # bids, passes, the challenge, P-34
    return s.rounds * per_round


class PerudoGame(pyspiel.Game):  # type: ignore[misc]
    """The game: parameters ``preset``, ``players``, ``dice``, ``opener``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.setup = _setup(params)
        s = self.setup
        n = s.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=s.num_ids,
            max_chance_outcomes=s.rules.faces,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(s),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PerudoState:
        return PerudoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PerudoObserver:
        return PerudoObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.setup, params
        )


class _Play:
    """A state's mutable part, copied cheaply when OpenSpiel clones a state (the core state
    inside is an immutable value, shared)."""

    __slots__ = ("dice", "log", "setup", "table")

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.table: Table | None = None
        self.dice: list[list[int]] = []
        """Dice rolled so far for the deal or re-roll under way, per seat (deal) or one list."""
        self.log: tuple[tuple[int | None, str], ...] = ()
        """``(audience, token)`` for every event: ``None`` = everyone."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Play:
        new = _Play(self.setup)
        new.table = None if self.table is None else self.table.copy()
        new.dice = [list(d) for d in self.dice]
        new.log = self.log
        return new


def _dice(dice: tuple[int, ...]) -> str:
    return "".join(map(str, dice)) or "-"


def _tokens(events: tuple[Event, ...] | list[Event]) -> list[tuple[int | None, str]]:
    out: list[tuple[int | None, str]] = []
    for e in events:
        if isinstance(e, RoundStarted):
            out.append((None, f"|r{e.round}{'p' if e.palifico else ''}"))
        elif isinstance(e, DiceDealt):
            out.append((e.seat, f"h{_dice(e.hand)}"))
        elif isinstance(e, DiceRerolled):
            out.append((e.seat, f"rr{_dice(e.dice)}"))
        elif isinstance(e, ActionTaken):
            out.append((None, f"{e.seat}:{e.action}"))
        elif isinstance(e, PalificoChosen):
            out.append((None, f"{e.seat}:{'palifico' if e.palifico else 'normal'}"))
        elif isinstance(e, RoundResolved):
            shown = ",".join(f"{r.seat}:{_dice(r.hand)}" for r in e.reveals)
            out.append((None, f"={e.count}[{shown}]"))
        elif isinstance(e, GameOver):
            out.append((None, f"W{e.winner}"))
    return out


class PerudoState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_perudo``: chance die by die, then the core's turns."""

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        # One attribute only: OpenSpiel clones a Python state by deep-copying each attribute.
        self._p = _Play(game.setup)

    # -- what OpenSpiel asks ------------------------------------------------------------

    @property
    def table(self) -> Table | None:
        """The adapters' :class:`~perudo.research.table.Table` (``None`` before the first
        deal is complete)."""
        return self._p.table

    def current_player(self) -> int:
        table = self._p.table
        if table is None:
            return _CHANCE
        if table.asking:
            return table.asking[0]
        state = table.state
        if state.to_act is not None:
            return state.to_act
        return _TERMINAL if state.is_over else _CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        table = self._p.table
        if table is None or table.is_over:
            return []
        return table.legal_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        faces = self._p.setup.rules.faces
        return [(f, 1.0 / faces) for f in range(faces)]

    def _apply_action(self, action: int) -> None:
        p = self._p
        table = p.table
        if table is None or table.needs_chance:
            self._roll(int(action) + 1)
            return
        seat = table.actor
        assert seat is not None
        events = table.play(seat, int(action))
        if not events:  # no calza in a window: the only silent decision
            p.log = (*p.log, (None, f"{seat}:{NO_CALZA_NAME}"))
        p.log = p.log + tuple(_tokens(events))

    def _roll(self, face: int) -> None:
        """One chance die (OpenSpiel's per-die chance, as in ``liars_dice``)."""
        p = self._p
        s = p.setup
        table = p.table
        if table is not None and table.state.phase is Phase.REROLL:
            if not p.dice:
                p.dice = [[]]
            p.dice[0].append(face)
            need = len(table.state.hands[rerolling_seat(table.state)])
            if len(p.dice[0]) == need:
                dice = tuple(p.dice[0])
                p.dice = []
                p.log = p.log + tuple(_tokens(table.chance(Reroll(dice))))
            return
        counts = (
            table.state.dice_counts
            if table is not None
            else (s.rules.dice_per_player,) * s.num_players
        )
        if not p.dice:
            p.dice = [[] for _ in counts]
        for seat, count in enumerate(counts):
            if len(p.dice[seat]) < count:
                p.dice[seat].append(face)
                break
        if any(len(d) < c for d, c in zip(p.dice, counts, strict=True)):
            return
        hands = tuple(tuple(sorted(d)) for d in p.dice)
        p.dice = []
        if table is None:
            state = start_round(s.rules, hands, opener=s.opener)
            p.table = Table(state)
            events: list[Event] = [RoundStarted(1, s.opener, False, state.dice_counts)]
            events.extend(DiceDealt(seat, h) for seat, h in enumerate(hands) if h)
            p.log = p.log + tuple(_tokens(events))
        else:
            p.log = p.log + tuple(_tokens(table.chance(Deal(hands))))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll {int(action) + 1}"
        if self._p.setup.rules.calza == "on" and action == self._p.setup.enc.num_actions:
            return NO_CALZA_NAME
        return str(self._p.setup.enc.id_to_action(int(action)))

    def is_terminal(self) -> bool:
        table = self._p.table
        return table is not None and table.is_over

    def returns(self) -> list[float]:
        n = self._p.setup.num_players
        table = self._p.table
        if table is None or not table.is_over:
            return [0.0] * n
        winner = table.state.winner
        return [1.0 if seat == winner else -1.0 / (n - 1) for seat in range(n)]

    def __str__(self) -> str:
        p = self._p
        table = p.table
        if table is None:
            return f"deal {' '.join(_dice(tuple(d)) for d in p.dice)}"
        st = table.state
        hands = " ".join(_dice(h) for h in st.hands)
        text = f"r{st.round} {st.phase.value} dice {list(st.dice_counts)} hands {hands}"
        if st.actions:
            text += " " + " ".join(f"{s}:{a}" for s, a in st.actions)
        if table.asking:
            text += f" ask {list(table.asking)}"
        if p.dice:
            text += f" rolling {' '.join(_dice(tuple(d)) for d in p.dice)}"
        return text


class PerudoObserver:
    """OpenSpiel's observer interface: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, iig_obs_type: Any, setup: _Setup, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.setup = setup
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        s = setup
        n, faces, nb = s.num_players, s.rules.faces, s.enc.num_bids
        pieces: list[tuple[str, tuple[int, ...]]]
        if self.perfect_recall:
            block: list[tuple[str, tuple[int, ...]]] = [
                ("present", (1,)),
                ("palifico", (1,)),
                ("opener", (n,)),
                ("counts", (n,)),
                ("dealt", (faces,)),
                ("bids", (nb, n)),
            ]
            if s.rules.set_aside:
                block += [("aside", (nb, faces)), ("reroll", (nb, faces))]
            if s.rules.passing:
                block += [("passes", (n, nb))]
            block += [("kind", (len(_KINDS),)), ("caller", (n,)), ("revealed", (n,))]
            block += [("hands", (n, faces))]
            self._block = block
            self._block_size = sum(int(np.prod(shape)) for _, shape in block)
            pieces = [
                ("player", (n,)),
                ("asked_calza", (1,)),
                ("hand", (faces,)),
                ("rounds", (s.rounds, self._block_size)),
            ]
        else:
            self._encoder = ObservationEncoder(s.rules, n)
            pieces = [(name, shape) for name, (_, shape) in self._encoder.slices.items()]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        offset = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + k].reshape(shape)
            offset += k

    # -- tensors --------------------------------------------------------------------------

    def set_from(self, state: PerudoState, player: int) -> None:
        self.tensor.fill(0)
        table = state.table
        if table is None:
            if self.perfect_recall:
                self.dict["player"][player] = 1
            return
        asked = bool(table.asking) and table.actor == player
        if not self.perfect_recall:
            self._encoder.encode(table.view(player), asked_calza=asked, out=self.tensor)
            if not self.private:
                self.dict["hand"].fill(0)
            return
        self._set_info_state(table, player, asked)

    def _set_info_state(self, table: Table, player: int, asked: bool) -> None:
        s = self.setup
        ids = s.enc.action_to_id
        d = self.dict
        d["player"][player] = 1
        d["asked_calza"][0] = asked
        v = table.view(player)
        if self.private:
            for die in v.hand:
                d["hand"][die - 1] += 1
        # Dice counts at the start of each round, from the end backwards.
        rounds: list[tuple[int, int, bool, tuple[tuple[int, Any], ...], Any]] = [
            (r.round, r.opener, r.palifico, r.actions, r.result) for r in v.past
        ]
        if v.phase is not Phase.GAME_OVER:
            rounds.append((v.round, v.opener, v.palifico, v.actions, None))
        counts = list(v.dice_counts)
        starts: list[list[int]] = []
        for _, _, _, _, result in reversed(rounds):
            if result is not None:
                for seat, change in result.changes:
                    counts[seat] -= change
            starts.append(list(counts))
        starts.reverse()
        private: dict[int, list[tuple[int, ...]]] = {}
        for rnd, dice in table.private[player]:
            private.setdefault(rnd, []).append(dice)
        keep = rounds[-s.rounds :]
        first = len(rounds) - len(keep)
        blocks = d["rounds"]
        for slot, (rnd, opener, pal, actions, result) in enumerate(keep):
            b = self._pieces(blocks[slot])
            b["present"][0] = 1
            b["palifico"][0] = pal
            b["opener"][opener] = 1
            b["counts"][:] = starts[first + slot]
            mine = private.get(rnd, []) if self.private else []
            if mine:
                for die in mine[0]:
                    b["dealt"][die - 1] += 1
            rerolls = iter(mine[1:])
            aside: tuple[int, ...] = ()
            reroll: tuple[int, ...] = ()
            standing: Bid | None = None
            for seat, action in actions:
                if isinstance(action, Bid):
                    i = ids(action)
                    b["bids"][i, seat] = 1
                    for die in aside:
                        b["aside"][i, die - 1] += 1
                    for die in reroll:
                        b["reroll"][i, die - 1] += 1
                    aside = reroll = ()
                    standing = action
                elif isinstance(action, SetAside):
                    aside = action.dice
                    if seat == player:
                        reroll = next(rerolls, ())
                elif isinstance(action, Pass) and standing is not None:
                    b["passes"][seat, ids(standing)] = 1
            if result is not None:
                b["kind"][_KINDS.index(result.kind)] = 1
                b["caller"][result.caller] = 1
                for reveal in result.reveals:
                    b["revealed"][reveal.seat] = 1
                    for die in reveal.hand:
                        b["hands"][reveal.seat, die - 1] += 1

    def _pieces(self, row: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        out: dict[str, npt.NDArray[np.float32]] = {}
        offset = 0
        for name, shape in self._block:
            k = int(np.prod(shape))
            out[name] = row[offset : offset + k].reshape(shape)
            offset += k
        return out

    # -- strings --------------------------------------------------------------------------

    def string_from(self, state: PerudoState, player: int) -> str:
        table = state.table
        if self.perfect_recall:
            log = state._p.log
            tokens = [
                tok
                for audience, tok in log
                if (audience is None and self.public) or (audience == player and self.private)
            ]
            return f"p{player} " + " ".join(tokens)
        if table is None:
            return f"p{player} dealing"
        v = table.view(player)
        parts = [f"p{player}", f"r{v.round}{'p' if v.palifico else ''}"]
        if self.private:
            parts.append(f"h{_dice(v.hand)}")
        parts.append("dice " + ",".join(map(str, v.dice_counts)))
        if any(v.shown):
            parts.append("shown " + ",".join(_dice(sh) for sh in v.shown))
        if v.actions:
            parts.append(" ".join(f"{s}:{a}" for s, a in v.actions))
        if table.asking and table.actor == player:
            parts.append("calza?")
        if v.past:
            res = v.past[-1].result
            shown = ",".join(f"{r.seat}:{_dice(r.hand)}" for r in res.reveals)
            parts.append(f"last {res.kind} by {res.caller} ={res.count}[{shown}]")
        return " ".join(parts)


def load(
    preset: str = "perudo",
    players: int = 2,
    dice: int = 0,
    *,
    faces: int = 0,
    wild: int = -1,
    opener: int = 0,
) -> Any:
    """``pyspiel.load_game("python_perudo", {...})`` with these parameters."""
    params = {
        "preset": preset,
        "players": players,
        "dice": dice,
        "faces": faces,
        "wild": wild,
        "opener": opener,
    }
    return pyspiel.load_game(_SHORT_NAME, params)


def export_efg(game: Any) -> tuple[str, list[int]]:
    """The whole game tree in Gambit's EFG format, and the information states per player.

    The tree is walked through the ``pyspiel`` API alone (``child``, ``legal_actions``,
    ``chance_outcomes``, ``information_state_string``, ``returns``), like OpenSpiel's own
    ``open_spiel.python.algorithms.gambit.export_gambit``, only faster on big trees. Load
    the text with ``pyspiel.load_efg_game`` to run OpenSpiel's C++ solvers (``CFRSolver``, …)
    on it at C++ speed. Only for small games: the tree of ``liars_dice_openspiel`` with one die
    each has about 300,000 nodes.
    """
    n = game.num_players()
    players = " ".join(f'"Pl{i}"' for i in range(n))
    lines = [f'EFG 2 R "{game}" {{ {players} }}']
    infosets: list[dict[str, int]] = [{} for _ in range(n)]
    counters = {"t": 0, "c": 0}

    def walk(state: Any) -> None:
        if state.is_terminal():
            counters["t"] += 1
            utils = " ".join(repr(float(u)) for u in state.returns())
            lines.append(f't "" {counters["t"]} "" {{ {utils} }}')
            return
        actions = state.legal_actions()
        if state.is_chance_node():
            counters["c"] += 1
            outcomes = " ".join(
                f'"{state.action_to_string(_CHANCE, a)}" {p:.17g}'
                for a, p in state.chance_outcomes()
            )
            lines.append(f'c "" {counters["c"]} "" {{ {outcomes} }} 0')
        else:
            player = state.current_player()
            table = infosets[player]
            key = state.information_state_string()
            idx = table.setdefault(key, len(table) + 1)
            names = " ".join(f'"{state.action_to_string(player, a)}"' for a in actions)
            lines.append(f'p "" {player + 1} {idx} "" {{ {names} }} 0')
        for action in actions:
            walk(state.child(action))

    walk(game.new_initial_state())
    return "\n".join(lines) + "\n", [len(t) for t in infosets]


pyspiel.register_game(GAME_TYPE, PerudoGame)
