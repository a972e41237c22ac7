"""Many games at once in numpy arrays: random and simple-policy play, and a vector environment.

A :class:`BatchGame` holds ``B`` games as arrays: hands as per-face counts ``(B, n, F)``, dice
counts ``(B, n)``, the standing bid as a *rank* in the round's bid table, the seat to act, the
palifico state. Every step moves all games one decision at once. Actions are the dense ids of
:mod:`perudo.core.encoding`, so a policy, a mask or a replay moves freely between the batch,
the core and the research adapters.

Nothing about bid order is decided here: the bid tables (which bids a round may open with,
which raise which, in normal and palifico rounds, P-10…P-16, P-31…P-33, V-1…V-3) are read from
:func:`perudo.core.bidding.raises_after` once per rule set and turned into index arrays. The
rest (counting with wilds, P-15/P-31/V-11; losing dice, P-20/V-4; calza by the seat to act,
P-51/V-7; the next opener, P-22/V-5; palifico and the two-player choice, P-30/P-34/V-6;
elimination, P-23) is the same arithmetic as :mod:`perudo.core.resolve`, vectorised, and the
test suite cross-checks it against the core game by game: the same dice and the same action ids
give the same dice counts every round and the same winners.

:class:`BatchVectorEnv` (from :mod:`perudo.research.vector_env`, with the ``research`` extra)
is the batch as a Gymnasium vector environment: the agent holds one seat in every game.

Supported: the explicit list :data:`SUPPORTS` — every rule set without set-aside (V-9), passing
(V-10) or out-of-turn calza (``calza="on"``; ``to_act``, V-7, is supported); other rule sets,
and rule fields added after this module, are refused with the reason.
Reveal order (V-8) changes only what is shown, not outcomes, so both settings are supported.

>>> from perudo.core import PERUDO
>>> wins = play_random(PERUDO, 2, games=1000, seed=1)
>>> int(wins.sum())
1000
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from perudo.core import Phase, RuleSet, unsupported
from perudo.core.bidding import bid_table, raises_after
from perudo.core.encoding import ActionEncoding, encoding
from perudo.core.rules import PLAIN_PLAY

__all__ = [
    "SUPPORTS",
    "BatchGame",
    "BatchTables",
    "check_supported",
    "play_random",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

CHOOSE: Final = 0
"""Phase: the opener makes the two-player palifico choice (P-34)."""
DEAL: Final = 1
"""Phase: a round's dice are due (chance)."""
BIDDING: Final = 2
"""Phase: the seat to act bids or challenges."""
OVER: Final = 4
"""Phase: one seat has dice left (P-23)."""
PHASE_OF: Final = {
    Phase.CHOOSE_PALIFICO: CHOOSE,
    Phase.DEAL: DEAL,
    Phase.BIDDING: BIDDING,
    Phase.GAME_OVER: OVER,
}
"""The core's phases as the batch's phase codes."""


def _row_sum(a: IntArray | BoolArray) -> IntArray:
    """Sum over the last (short) axis: column by column, ~20× faster than ``a.sum(axis=-1)``
    for a handful of seats or faces."""
    out: IntArray = a[..., 0].astype(np.int64)
    for j in range(1, a.shape[-1]):
        out += a[..., j]
    return out


def _row_max(a: IntArray) -> IntArray:
    out: IntArray = a[..., 0].copy()
    for j in range(1, a.shape[-1]):
        np.maximum(out, a[..., j], out=out)
    return out


def _first_true(a: BoolArray) -> IntArray:
    """Index of the first true entry along the last axis (0 if none), column by column."""
    out = np.zeros(a.shape[:-1], np.int64)
    found = a[..., 0].copy()
    for j in range(1, a.shape[-1]):
        new = a[..., j] & ~found
        out[new] = j
        found |= new
    return out


SUPPORTS: Final[Mapping[str, object]] = {**PLAIN_PLAY, "calza": ("off", "to_act")}
"""Every :class:`~perudo.core.RuleSet` field the batch simulator plays, with the values it plays
(``...``: any). A field not listed — one added to the rule set after this module — is refused
(:func:`perudo.core.unsupported`) until someone teaches the batch simulator and lists it."""

_WHY: Final[Mapping[str, str]] = {
    "set_aside": "set-aside and re-roll (V-9)",
    "passing": "passing (V-10)",
    "calza": (
        "out-of-turn calza (P-50); use calza='to_act' (V-7) or the research adapters, which "
        "model calza windows"
    ),
}


def check_supported(rules: RuleSet) -> None:
    """Refuse, with the reason, a rule set the batch simulator does not play (outside
    :data:`SUPPORTS`).

    :raises ValueError: for set-aside (V-9), passing (V-10), out-of-turn calza (P-50), or a
        rule field the batch simulator does not know.
    """
    missing = unsupported(rules, SUPPORTS)
    if missing:
        why = [_WHY.get(m.partition("=")[0], m) for m in missing]
        raise ValueError(f"the batch simulator does not play {'; '.join(why)}")


class BatchTables:
    """The bid tables of one rule set and table size as index arrays (built once).

    Indexed by ``[pal, one_die, total, rank + 1]`` (``rank = -1``: no bid yet): ``count``
    legal bids, ``first`` the first one's rank (a contiguous run of ranks) or, where ``flat``
    is true, its offset into :attr:`raises` (an explicit list: openings, and palifico raises
    of a seat holding more than one die, P-32). ``rank_id[pal, total, rank]`` is the dense id
    of a rank, ``rank_of[pal, total, id]`` the reverse (−1: not in that round's table).
    """

    def __init__(self, rules: RuleSet, num_players: int) -> None:
        check_supported(rules)
        enc = encoding(rules, num_players)
        self.enc: ActionEncoding = enc
        total_max = enc.max_dice
        nbmax = total_max * rules.faces
        shape = (2, 2, total_max + 1, nbmax + 1)
        self.count = np.zeros(shape, np.int64)
        self.first = np.zeros(shape, np.int64)
        self.flat = np.zeros(shape, np.bool_)
        self.rank_id = np.full((2, total_max + 1, max(nbmax, 1)), -1, np.int64)
        self.rank_of = np.full((2, total_max + 1, enc.num_actions), -1, np.int64)
        self.quantity = np.zeros((2, total_max + 1, max(nbmax, 1)), np.int64)
        self.face = np.zeros((2, total_max + 1, max(nbmax, 1)), np.int64)
        raises: list[int] = []
        for pal in (0, 1):
            for total in range(1, total_max + 1):
                table = bid_table(rules, total, bool(pal))
                for rank, bid in enumerate(table.bids):
                    i = enc.action_to_id(bid)
                    self.rank_id[pal, total, rank] = i
                    self.rank_of[pal, total, i] = rank
                    self.quantity[pal, total, rank] = bid.quantity
                    self.face[pal, total, rank] = bid.face
                for one_die in (0, 1):
                    for prev in (None, *table.bids):
                        seq, start = raises_after(
                            rules, prev, total, palifico=bool(pal), one_die=bool(one_die)
                        )
                        r1 = 0 if prev is None else table.ranks[prev] + 1
                        ranks = [table.ranks[b] for b in seq[start:]]
                        self.count[pal, one_die, total, r1] = len(ranks)
                        if ranks == list(range(ranks[0], ranks[0] + len(ranks)) if ranks else []):
                            self.first[pal, one_die, total, r1] = ranks[0] if ranks else 0
                        else:  # not a run of consecutive ranks: an explicit list
                            self.flat[pal, one_die, total, r1] = True
                            self.first[pal, one_die, total, r1] = len(raises)
                            raises.extend(ranks)
        self.raises: IntArray = np.array([*raises, 0], np.int64)
        """Explicit legal ranks, concatenated."""
        self._top = max(nbmax - 1, 0)
        self.any_flat = bool(self.flat.any())
        """Whether any list is explicit (else every legal set is a run of ranks)."""
        self.any_flat_normal = bool(self.flat[0].any())
        """Whether any list of a normal round is explicit."""
        # Flat views for the fused random step:
        # key = (pal·2·(T+1) + one_die·(T+1) + total)·R + rank + 1, R = T·F + 1.
        self.stride = (2 * (total_max + 1), nbmax + 1)
        self.one_die_stride = total_max + 1
        # key2 = (pal·(T+1) + total)·B + rank, for the bid of a rank.
        self.bid_stride = max(nbmax, 1)
        self.quantity_flat: IntArray = self.quantity.reshape(-1)
        self.face_flat: IntArray = self.face.reshape(-1)
        self.count_flat: IntArray = self.count.reshape(-1)
        # Choices of the reference random policy: the bids, plus dudo once a bid stands.
        standing = np.zeros(shape, np.int64)
        standing[..., 1:] = 1
        self.options_flat: IntArray = (self.count + standing).reshape(-1)
        self.first_flat: IntArray = self.first.reshape(-1)
        self.flat_flat: BoolArray = self.flat.reshape(-1)

    def bid_ranks(
        self, pal: IntArray, one_die: IntArray, total: IntArray, rank: IntArray, k: IntArray
    ) -> IntArray:
        """The rank of the ``k``-th legal bid of each game (``k < count``; past the end, a
        valid rank that callers discard)."""
        r1 = rank + 1
        first = self.first[pal, one_die, total, r1]
        flat = self.flat[pal, one_die, total, r1]
        pos = first + k
        explicit = self.raises[np.minimum(pos, len(self.raises) - 1)]
        out: IntArray = np.where(flat, explicit, np.minimum(pos, self._top))
        return out


class BatchGame:
    """``batch_size`` games of ``num_players`` seats, stepped together (see the module
    docstring). Arrays are public and named after the core's fields."""

    def __init__(
        self,
        rules: RuleSet,
        num_players: int,
        batch_size: int,
        *,
        seed: int | None = None,
        tables: BatchTables | None = None,
    ) -> None:
        self.rules = rules
        self.tables = tables if tables is not None else BatchTables(rules, num_players)
        self.enc = self.tables.enc
        self.num_players = n = num_players
        self.batch_size = b = batch_size
        self.rng = np.random.default_rng(seed)
        faces = rules.faces
        self._faces = np.arange(faces)
        self._dice = np.arange(rules.dice_per_player)
        self._rows = np.arange(b)
        self._step = np.arange(1, n + 1)
        self._base = self._rows * n
        self._seat_cells = np.arange(n) * faces
        self._key_base = np.zeros(b, np.int64)
        self.counts: IntArray = np.full((b, n), rules.dice_per_player, np.int64)
        """Dice per seat (P-23: 0 = out)."""
        self.hands: IntArray = np.zeros((b, n, faces), np.int64)
        """Each seat's dice as face counts: ``hands[g, s, f - 1]`` dice showing ``f``."""
        self.phase: IntArray = np.full(b, DEAL, np.int64)
        self.to_act: IntArray = np.zeros(b, np.int64)
        self.opener: IntArray = np.zeros(b, np.int64)
        self.rank: IntArray = np.full(b, -1, np.int64)
        """The standing bid's rank in the round's table (−1: none yet)."""
        self.bidder: IntArray = np.full(b, -1, np.int64)
        self.total: IntArray = np.zeros(b, np.int64)
        """Dice in play this round (P-16)."""
        self.palifico: IntArray = np.zeros(b, np.int64)
        self.used: BoolArray = np.zeros((b, n), np.bool_)
        """Seats that have had their palifico round or P-34 choice."""
        self.winner: IntArray = np.full(b, -1, np.int64)
        self.rounds: IntArray = np.zeros(b, np.int64)
        """Finished rounds."""
        self.decisions: IntArray = np.zeros(b, np.int64)
        wild = rules.wild_face
        self._wild = -1 if wild is None else wild - 1
        self._loss_one = rules.loss == "one"
        self._loser_opens = rules.next_opener == "loser"
        self._calza = rules.calza == "to_act"
        self._pal_rule = rules.palifico
        self._straight = rules.straight_counts_nothing
        self._may_palifico = rules.palifico != "off" and rules.dice_per_player > 1
        self._may_choose = self._may_palifico and rules.palifico == "on"
        tab = self.tables
        self._any_flat = tab.any_flat if self._may_palifico else tab.any_flat_normal
        self.reset()

    # -- setting up ------------------------------------------------------------------------

    def reset(self, games: IntArray | None = None, *, openers: IntArray | None = None) -> None:
        """Start new games in ``games`` (default: all): the P-2 roll-off's opener (or the
        given ``openers``), full dice, waiting for the deal."""
        idx = self._rows if games is None else np.asarray(games, np.int64)
        m = len(idx)
        if openers is None:
            # P-2: everyone rolls, ties for highest roll again. By symmetry the seat with the
            # single highest die is uniform over the seats, so the batch draws it directly
            # (the roll-off's dice are not kept: a batch keeps no game records).
            opener = self.rng.integers(0, self.num_players, m)
        else:
            opener = np.asarray(openers, np.int64)
        self.counts[idx] = self.rules.dice_per_player
        self.phase[idx] = DEAL
        self.opener[idx] = opener
        self.to_act[idx] = opener  # the opener bids once dealt (deal sets it again)
        self.palifico[idx] = 0
        self.used[idx] = False
        self.winner[idx] = -1
        self.rounds[idx] = 0
        self.decisions[idx] = 0

    def deal(self, games: IntArray | None = None, *, hands: IntArray | None = None) -> None:
        """Deal a round to ``games`` (default: every game waiting for a deal, P-3): random
        dice, or the given ``hands`` (face counts ``(len(games), n, F)``)."""
        idx = np.flatnonzero(self.phase == DEAL) if games is None else np.asarray(games)
        if not len(idx):
            return
        counts = self.counts[idx]
        m, n, faces = len(idx), self.num_players, self.rules.faces
        if hands is None:
            dice = self.rng.integers(0, faces, (m, n, len(self._dice)))
            # Face counts by one bincount over (game, seat, face) cells of the rolled dice.
            cell = (np.arange(m * n).reshape(m, n, 1) * faces + dice)[
                self._dice < counts[:, :, None]
            ]
            dealt = np.bincount(cell, minlength=m * n * faces).reshape(m, n, faces)
        else:
            dealt = np.asarray(hands, np.int64)
            if not np.array_equal(_row_sum(dealt), counts):
                raise ValueError("each seat is dealt exactly its dice count (P-3)")
        self.hands[idx] = dealt
        total = _row_sum(counts)
        self.total[idx] = total
        # The fused random step's table key, but for the rank and the P-33 one-die offset.
        t = self.tables
        self._key_base[idx] = (self.palifico[idx] * t.stride[0] + total) * t.stride[1] + 1
        self.phase[idx] = BIDDING
        self.to_act[idx] = self.opener[idx]
        self.rank[idx] = -1
        self.bidder[idx] = -1

    # -- what may be done ------------------------------------------------------------------

    def _context(self, idx: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        pal = self.palifico[idx]
        seat = self.to_act[idx]
        one_die = (self.counts[idx, seat] == 1).astype(np.int64)
        return pal, one_die, self.total[idx], self.rank[idx]

    def _calza_ok(self, idx: IntArray) -> BoolArray:
        if not self._calza:
            return np.zeros(len(idx), np.bool_)
        n_in = _row_sum(self.counts[idx] > 0)
        ok: BoolArray = (self.rank[idx] >= 0) & (n_in >= self.rules.calza_min_players)
        return ok

    def legal_mask(self, games: IntArray | None = None) -> BoolArray:
        """``(len(games), num_actions)``: the ids the seat to act may take (all false for a
        game waiting for a deal or over). The same sets as :func:`perudo.core.legal_actions`."""
        idx = self._rows if games is None else np.asarray(games, np.int64)
        enc = self.enc
        mask = np.zeros((len(idx), enc.num_actions), np.bool_)
        phase = self.phase[idx]
        bidding = np.flatnonzero(phase == BIDDING)
        if len(bidding):
            g = idx[bidding]
            pal, one_die, total, rank = self._context(g)
            count = self.tables.count[pal, one_die, total, rank + 1]
            most = int(count.max(initial=0))
            if most:
                k = np.arange(most)
                ok = k < count[:, None]
                kk = np.where(ok, k, 0)
                b2 = np.broadcast_to
                ranks = self.tables.bid_ranks(
                    b2(pal[:, None], ok.shape),
                    b2(one_die[:, None], ok.shape),
                    b2(total[:, None], ok.shape),
                    b2(rank[:, None], ok.shape),
                    kk,
                )
                ids = self.tables.rank_id[pal[:, None], total[:, None], ranks]
                rows = np.broadcast_to(bidding[:, None], ok.shape)
                mask[rows[ok], ids[ok]] = True
            standing = rank >= 0
            mask[bidding[standing], enc.dudo] = True
            mask[bidding[self._calza_ok(g)], enc.calza] = True
        choosing = np.flatnonzero(phase == CHOOSE)
        mask[choosing, enc.palifico] = True
        mask[choosing, enc.normal] = True
        return mask

    def random_actions(self) -> IntArray:
        """The reference random policy for every game: uniform over its legal actions, in
        :func:`~perudo.core.legal_actions` order (−1 for a game not waiting for a seat)."""
        enc = self.enc
        out = np.full(self.batch_size, -1, np.int64)
        u = self.rng.random(self.batch_size)
        bidding = np.flatnonzero(self.phase == BIDDING)
        if len(bidding):
            pal, one_die, total, rank = self._context(bidding)
            count = self.tables.count[pal, one_die, total, rank + 1]
            standing = rank >= 0
            calza = self._calza_ok(bidding)
            options = count + standing + calza
            k = (u[bidding] * options).astype(np.int64)
            is_bid = k < count
            ranks = self.tables.bid_ranks(pal, one_die, total, rank, np.where(is_bid, k, 0))
            ids = np.where(
                is_bid,
                self.tables.rank_id[pal, total, ranks],
                np.where(k == count, enc.dudo, enc.calza),
            )
            out[bidding] = ids
        choosing = np.flatnonzero(self.phase == CHOOSE)
        out[choosing] = np.where(u[choosing] < 0.5, enc.palifico, enc.normal)
        return out

    def threshold_actions(self, margin: float = 0.0) -> IntArray:
        """A simple policy: call dudo when the standing bid claims more than the seat expects
        (its own matching dice plus the others' dice times the chance of a match, plus
        ``margin``), else make the lowest legal bid; palifico whenever offered (P-34)."""
        enc = self.enc
        out = np.full(self.batch_size, -1, np.int64)
        bidding = np.flatnonzero(self.phase == BIDDING)
        if len(bidding):
            pal, one_die, total, rank = self._context(bidding)
            count = self.tables.count[pal, one_die, total, rank + 1]
            r = np.maximum(rank, 0)
            q = self.tables.quantity[pal, total, r]
            f = self.tables.face[pal, total, r] - 1
            seat = self.to_act[bidding]
            own = self.hands[bidding, seat]
            wild_on = (self._wild >= 0) & (pal == 0) & (f != self._wild)
            mine = own[np.arange(len(bidding)), f] + np.where(
                wild_on, own[:, max(self._wild, 0)], 0
            )
            p = np.where(wild_on, 2.0, 1.0) / self.rules.faces
            others = total - self.counts[bidding, seat]
            expect = mine + others * p
            doubt = (rank >= 0) & ((q > expect + margin) | (count == 0))
            lowest = self.tables.bid_ranks(pal, one_die, total, rank, np.zeros_like(rank))
            out[bidding] = np.where(doubt, enc.dudo, self.tables.rank_id[pal, total, lowest])
        out[self.phase == CHOOSE] = enc.palifico
        return out

    # -- stepping --------------------------------------------------------------------------

    def random_step(self) -> None:
        """``step(random_actions(), check=False)``, fused: the same random numbers, the same
        games, without building action ids (the fast path of :func:`play_random`; the tests
        check the two paths agree)."""
        t = self.tables
        n = self.num_players
        u = self.rng.random(self.batch_size)
        phase = self.phase
        bidding = phase == BIDDING
        seat = self.to_act
        rank = self.rank
        flat_counts = self.counts.reshape(-1)
        key = self._key_base + rank
        if self._may_palifico:  # one_die only matters in palifico rounds (P-33)
            one_die = flat_counts[self._base + seat] == 1
            key += (one_die & (self.palifico == 1)) * (t.one_die_stride * t.stride[1])
        count = t.count_flat[key]
        options = t.options_flat[key]
        calza = None
        if self._calza:
            calza = self._calza_ok(self._rows)
            options = options + calza
        k = (u * options).astype(np.int64)
        raising = k < count
        is_bid = bidding & raising
        pos = t.first_flat[key]
        pos += k
        if self._any_flat:
            explicit = t.raises[np.minimum(pos, len(t.raises) - 1)]
            pos = np.where(t.flat_flat[key], explicit, pos)
        self.decisions += bidding
        self.rank = np.where(is_bid, pos, rank)
        self.bidder = np.where(is_bid, seat, self.bidder)
        if n == 2:  # both seats are in while a round is played
            nxt = 1 - seat
        else:
            nxt = (seat + 1) % n
            for _ in range(n - 1):
                dead = is_bid & (flat_counts[self._base + nxt] == 0)
                if not dead.any():
                    break
                nxt = np.where(dead, (nxt + 1) % n, nxt)
        self.to_act = np.where(is_bid, nxt, seat)
        # Games choosing now, found before this step's challenges move others into CHOOSE.
        choose = np.flatnonzero(phase == CHOOSE) if self._may_choose else None
        challenge = bidding & ~raising
        if calza is None:
            dudo = np.flatnonzero(challenge)
        else:
            dudo = np.flatnonzero(challenge & (k == count))
        if len(dudo):
            self._resolve_dudo(dudo)
        if calza is not None:
            called = np.flatnonzero(challenge & (k > count))
            if len(called):
                self._resolve_calza(called)
        if choose is not None and len(choose):
            self.decisions[choose] += 1
            self.used[choose, self.opener[choose]] = True  # P-34
            self.palifico[choose] = u[choose] < 0.5
            self.phase[choose] = DEAL

    def step(self, actions: IntArray, *, check: bool = True) -> None:
        """Apply one action id per game (−1, or any id for a game not waiting for a seat,
        is ignored). With ``check`` an illegal id raises :class:`ValueError` naming the game
        and the action, and nothing changes."""
        actions = np.asarray(actions, np.int64)
        enc = self.enc
        acting = np.flatnonzero(((self.phase == BIDDING) | (self.phase == CHOOSE)) & (actions >= 0))
        if check and len(acting):
            a = actions[acting]
            inside = a < enc.num_actions
            ok = np.zeros(len(acting), np.bool_)
            legal = self.legal_mask(acting[inside])
            ok[inside] = legal[np.arange(len(legal)), a[inside]]
            if not ok.all():
                bad = int(np.flatnonzero(~ok)[0])
                g, action = int(acting[bad]), int(a[bad])
                name = str(enc.id_to_action(action)) if action < enc.num_actions else "?"
                raise ValueError(
                    f"game {g}: action id {action} ({name}) is not legal for seat "
                    f"{int(self.to_act[g])} now"
                )
        self.decisions[acting] += 1
        a = actions[acting]
        choose = acting[self.phase[acting] == CHOOSE]
        if len(choose):  # P-34: either choice uses up the palifico
            self.used[choose, self.opener[choose]] = True
            self.palifico[choose] = actions[choose] == enc.palifico
            self.phase[choose] = DEAL
        bidding = self.phase[acting] == BIDDING
        bids = acting[bidding & (a < enc.num_bids)]
        if len(bids):
            pal, total = self.palifico[bids], self.total[bids]
            self.rank[bids] = self.tables.rank_of[pal, total, actions[bids]]
            self.bidder[bids] = self.to_act[bids]
            self.to_act[bids] = self._next_seat(bids, self.to_act[bids])
        dudo = acting[bidding & (a == enc.dudo)]
        calza = acting[bidding & (a == enc.calza)]
        if len(dudo):
            self._resolve_dudo(dudo)
        if len(calza):
            self._resolve_calza(calza)

    def _next_seat(self, games: IntArray, seat: IntArray) -> IntArray:
        """The next seat clockwise after ``seat`` with dice (P-11, P-22)."""
        cand = (seat[:, None] + self._step) % self.num_players
        alive = np.take_along_axis(self.counts[games], cand, axis=1) > 0
        seats: IntArray = cand[np.arange(len(games)), _first_true(alive)]
        return seats

    def _count(self, games: IntArray) -> tuple[IntArray, IntArray]:
        """The standing bid's quantity and the dice matching it (P-15, P-31, V-11)."""
        t = self.tables
        pal = self.palifico[games]
        key = (pal * t.one_die_stride + self.total[games]) * t.bid_stride + self.rank[games]
        q = t.quantity_flat[key]
        f = t.face_flat[key] - 1
        faces, n = self.rules.faces, self.num_players
        flat = self.hands.reshape(-1)
        cell = (games * n)[:, None] * faces + self._seat_cells  # (m, n): each seat's face 0
        per_seat = flat[cell + f[:, None]]
        if self._wild >= 0:
            wild_on = (pal == 0) & (f != self._wild)
            per_seat = per_seat + np.where(wild_on[:, None], flat[cell + self._wild], 0)
        if self._straight:
            hands = self.hands[games]
            straight = (self.counts[games] == 5) & (_row_max(hands) <= 1)
            per_seat = np.where(straight, 0, per_seat)
        count = _row_sum(per_seat)
        return q, count

    def _resolve_dudo(self, games: IntArray) -> None:
        q, count = self._count(games)
        caller, bidder = self.to_act[games], self.bidder[games]
        counts = self.counts
        if self._loss_one:  # P-20
            holds = count >= q
            loser = np.where(holds, caller, bidder)
            winner = np.where(holds, bidder, caller)
            counts.reshape(-1)[games * self.num_players + loser] -= 1
        else:  # V-4: by the difference; exact: everyone but the bidder loses one
            low, high = count < q, count > q
            loser = np.where(low, bidder, caller)
            winner = np.where(low, caller, bidder)
            g = games[low]
            counts[g, bidder[low]] = np.maximum(0, counts[g, bidder[low]] - (q - count)[low])
            g = games[high]
            counts[g, caller[high]] = np.maximum(0, counts[g, caller[high]] - (count - q)[high])
            exact = ~(low | high)
            g = games[exact]
            if len(g):
                hit = counts[g] > 0
                hit[np.arange(len(g)), bidder[exact]] = False
                counts[g] -= hit
        opener = loser if self._loser_opens else winner
        self._end_round(games, opener)

    def _resolve_calza(self, games: IntArray) -> None:
        q, count = self._count(games)  # P-51
        caller = self.to_act[games]
        exact = count == q
        dice = self.counts[games, caller]
        self.counts[games, caller] = np.where(
            exact, np.minimum(dice + 1, self.rules.dice_per_player), dice - 1
        )
        self._end_round(games, caller)  # P-52

    def _end_round(self, games: IntArray, opener: IntArray) -> None:
        counts = self.counts[games]
        self.rounds[games] += 1  # the bid and bidder are cleared by the next deal
        self.palifico[games] = 0
        alive = counts > 0
        n_in = _row_sum(alive)
        over = n_in == 1
        g = games[over]
        self.phase[g] = OVER
        self.winner[g] = _first_true(alive[over])
        self.opener[g] = self.winner[g]
        go = ~over
        g, opener, n_in = games[go], opener[go], n_in[go]
        if not len(g):
            return
        out = self.counts[g, opener] == 0  # P-22: if out, the next seat in order
        if out.any():
            opener = opener.copy()
            opener[out] = self._next_seat(g[out], opener[out])
        self.opener[g] = opener
        self.to_act[g] = opener
        self.phase[g] = DEAL
        if self._pal_rule == "off" or self.rules.dice_per_player == 1:
            return
        eligible = (self.counts[g, opener] == 1) & ~self.used[g, opener]  # P-30
        two = eligible & (n_in == 2)
        if self._pal_rule == "on":  # P-34
            self.phase[g[two]] = CHOOSE
        many = eligible & (n_in > 2)
        self.used[g[many], opener[many]] = True
        self.palifico[g[many]] = 1


def play_random(
    rules: RuleSet,
    num_players: int,
    games: int,
    *,
    batch_size: int = 8192,
    seed: int | None = None,
    policy: Literal["random", "threshold"] = "random",
) -> IntArray:
    """Play ``games`` whole games with every seat on ``policy``; the wins per seat.

    Finished slots restart at once, so the batch stays full until the last games.
    """
    sim = BatchGame(rules, num_players, min(batch_size, games), seed=seed)
    wins = np.zeros(num_players, np.int64)
    started = sim.batch_size
    done = 0
    active = np.ones(sim.batch_size, np.bool_)
    while done < games:
        sim.deal()
        if policy == "random":
            sim.random_step()
        else:
            sim.step(sim.threshold_actions(), check=False)
        over = np.flatnonzero((sim.phase == OVER) & active)
        if len(over):
            wins += np.bincount(sim.winner[over], minlength=num_players)
            done += len(over)
            again = over[: max(0, games - started)]
            stop = over[len(again) :]
            active[stop] = False
            sim.phase[stop] = -1  # parked: neither dealt nor stepped again
            if len(again):
                sim.reset(again)
                started += len(again)
    return wins
