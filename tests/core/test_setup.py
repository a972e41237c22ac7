"""Set-up: the table (P-1, V-12), the roll-off (P-2), the deal (P-3), rule sets and presets."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from tests.core.script import deal, play

from perudo.core import (
    BLUFF,
    LIARS_DICE,
    LIARS_DICE_OPENSPIEL,
    PERUDO,
    PERUDO_CALZA,
    PRESETS,
    Bid,
    Deal,
    DiceDealt,
    GameRecord,
    IllegalActionError,
    Phase,
    RoundStarted,
    RuleSet,
    apply,
    chance_action,
    find_ruleset,
    legal_actions,
    new_game,
    preset_name,
    roll_off,
    start_game,
    view,
)

# --- P-1 and V-12: the table --------------------------------------------------------------


def test_p1_perudo_is_two_to_ten_players_with_five_six_sided_dice() -> None:
    assert (PERUDO.min_players, PERUDO.max_players) == (2, 10)
    assert (PERUDO.dice_per_player, PERUDO.faces) == (5, 6)
    for n in (2, 10):
        state = new_game(PERUDO, n, random.Random(n))
        assert state.dice_counts == (5,) * n
        assert all(len(h) == 5 and set(h) <= set(range(1, 7)) for h in state.hands)


@pytest.mark.parametrize("players", [0, 1, 11, 2.0, True])
def test_p1_a_table_outside_two_to_ten_players_is_refused(players: object) -> None:
    with pytest.raises(ValueError, match=r"P-1|integer"):
        new_game(PERUDO, players, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"P-1|integer"):
        start_game(PERUDO, players, [[1, 2]])  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", [1, 2, 3, 7, 10])
def test_v12_dice_per_player_from_one_to_ten(dice: int) -> None:
    rules = dataclasses.replace(PERUDO, dice_per_player=dice)
    state = new_game(rules, 3, random.Random(dice))
    assert state.dice_counts == (dice,) * 3
    assert [len(h) for h in state.hands] == [dice] * 3
    # P-16: the highest bid is every die on the table.
    assert legal_actions(state).bids[-1].quantity == 3 * dice


@pytest.mark.parametrize("faces", [3, 4, 8, 9])
def test_v12_faces_per_die(faces: int) -> None:
    rules = dataclasses.replace(PERUDO, faces=faces)
    state = new_game(rules, 2, random.Random(faces))
    assert all(1 <= d <= faces for h in state.hands for d in h)
    bids = legal_actions(state).bids
    assert {b.face for b in bids} == set(range(2, faces + 1))  # P-10: no opening on aces
    with pytest.raises(IllegalActionError, match="V-12"):
        apply(state, Bid(1, faces + 1))


def test_v12_two_faced_dice_only_without_a_wild_face() -> None:
    coin = RuleSet(faces=2, wild_face=None)
    state = new_game(coin, 2, random.Random(3))
    assert {b.face for b in legal_actions(state).bids} == {1, 2}
    with pytest.raises(ValueError, match=r"wild face needs at least 3 faces.*V-12"):
        RuleSet(faces=2)


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"dice_per_player": 0}, r"1 to 10 dice \(V-12\)"),
        ({"dice_per_player": 11}, r"1 to 10 dice \(V-12\)"),
        ({"dice_per_player": True}, "must be an integer"),
        ({"dice_per_player": 2.5}, "must be an integer"),
        ({"faces": 1}, r"2 to 9 faces \(V-12\)"),
        ({"faces": 10}, r"2 to 9 faces \(V-12\)"),
        ({"faces": 2}, r"at least 3 faces.*\(V-12\)"),
        ({"wild_face": 7}, r"not a face of a 6-faced die \(V-2\)"),
        ({"wild_face": 0}, r"not a face of a 6-faced die \(V-2\)"),
        ({"wild_face": "1"}, "must be a face or None"),
        ({"wild_face": True}, "must be a face or None"),
        ({"min_players": 1}, r"P-1"),
        ({"max_players": 11}, r"P-1"),
        ({"min_players": 5, "max_players": 4}, r"P-1"),
        ({"calza_min_players": 1}, r"P-50"),
        ({"raise_order": "up"}, "raise_order='up' is not one of perudo, monotone"),
        ({"wild_conversion": "double"}, "wild_conversion='double' is not one of"),
        ({"loss": "two"}, "loss='two' is not one of one, difference"),
        ({"next_opener": "bidder"}, "next_opener='bidder' is not one of loser, winner"),
        ({"palifico": True}, "palifico=True is not one of on, off, not_two_players"),
        ({"calza": "yes"}, "calza='yes' is not one of off, on, to_act"),
        ({"reveal": "none"}, "reveal='none' is not one of until_proven, all"),
        ({"set_aside": "yes"}, "set_aside must be true or false"),
        ({"passing": 1}, "passing must be true or false"),
        ({"straight_counts_nothing": None}, "straight_counts_nothing must be true or false"),
    ],
)
def test_v12_ruleset_refuses_impossible_values_saying_why(
    changes: dict[str, object], why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        RuleSet(**changes)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=why):
        dataclasses.replace(PERUDO, **changes)  # type: ignore[arg-type]


def test_v12_ruleset_from_dict_round_trips_and_refuses_unknown_fields() -> None:
    for rules in PRESETS.values():
        assert RuleSet.from_dict(rules.to_dict()) == rules
        assert hash(RuleSet.from_dict(rules.to_dict())) == hash(rules)
    assert RuleSet.from_dict({}) == PERUDO
    with pytest.raises(ValueError, match="unknown rule field"):
        RuleSet.from_dict({"jokers": 2})
    with pytest.raises(ValueError, match="unknown rule field"):
        RuleSet.from_dict({"_hash": 0})


# --- P-2: the roll-off --------------------------------------------------------------------


def test_p2_highest_roll_opens() -> None:
    state = start_game(PERUDO, 3, [[2, 6, 4]])
    assert state.opener == 1
    assert state.phase is Phase.DEAL and state.to_act is None
    state = play(state, deal([2, 3, 4, 5, 6], [1, 1, 2, 2, 3], [6, 6, 6, 6, 6]))
    assert state.to_act == 1 and state.phase is Phase.BIDDING


def test_p2_a_tie_for_highest_means_everyone_rolls_again() -> None:
    state = start_game(PERUDO, 3, [[6, 6, 1], [2, 3, 5]])
    assert state.opener == 2
    # A tie below the highest is no tie for highest.
    assert start_game(PERUDO, 3, [[1, 1, 6]]).opener == 2


@pytest.mark.parametrize(
    "throws",
    [[], [[6, 6, 1]], [[2, 6, 4], [6, 6, 1]], [[2, 6]], [[2, 6, 7]], [[2, 0, 1]], [[1, True, 2]]],
)
def test_p2_an_impossible_roll_off_is_refused(throws: list[list[int]]) -> None:
    with pytest.raises(IllegalActionError, match="P-2"):
        start_game(PERUDO, 3, throws)


def test_p2_roll_off_rolls_again_on_a_tie_and_is_part_of_the_record() -> None:
    tied = next(seed for seed in range(1000) if len(roll_off(PERUDO, 6, random.Random(seed))) > 1)
    throws = roll_off(PERUDO, 6, random.Random(tied))
    for throw in throws[:-1]:
        assert throw.count(max(throw)) > 1
    assert throws[-1].count(max(throws[-1])) == 1
    state = new_game(PERUDO, 6, random.Random(tied))
    assert state.rolloff == throws
    assert state.opener == throws[-1].index(max(throws[-1]))
    record = GameRecord.from_state(state)
    assert record.rolloff == throws
    assert record.to_json()["rolloff"] == [list(t) for t in throws]
    assert view(state, 0).rolloff == throws  # public (P-70)


# --- P-3: the deal ------------------------------------------------------------------------


def test_p3_every_seat_rolls_its_dice_in_secret_and_counts_are_public() -> None:
    state = start_game(PERUDO, 3, [[1, 2, 3]])
    state, events = apply(state, Deal(((5, 1, 3, 3, 2), (6, 6, 6, 6, 6), (2, 3, 4, 5, 1))))
    assert state.hands[0] == (1, 2, 3, 3, 5)  # kept sorted
    started, *dealt = events
    assert started == RoundStarted(1, 2, False, (5, 5, 5))
    assert started.audience is None
    assert dealt == [
        DiceDealt(0, (1, 2, 3, 3, 5)),
        DiceDealt(1, (6, 6, 6, 6, 6)),
        DiceDealt(2, (1, 2, 3, 4, 5)),
    ]
    assert [e.audience for e in dealt] == [0, 1, 2]
    for seat in range(3):
        mine = view(state, seat)
        assert mine.hand == state.hands[seat]
        assert mine.dice_counts == (5, 5, 5)


@pytest.mark.parametrize(
    "hands",
    [
        ((1, 2, 3, 4, 5), (1, 2, 3, 4)),  # too few
        ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5, 6)),  # too many
        ((1, 2, 3, 4, 7), (1, 2, 3, 4, 5)),  # no such face
        ((1, 2, 3, 4, 5),),  # a seat missing
    ],
)
def test_p3_a_deal_of_the_wrong_dice_is_refused(hands: tuple[tuple[int, ...], ...]) -> None:
    state = start_game(PERUDO, 2, [[1, 2]])
    with pytest.raises(IllegalActionError, match=r"P-3|one hand per seat"):
        apply(state, Deal(hands))


def test_p3_a_seat_that_is_out_is_dealt_nothing() -> None:
    state = new_game(PERUDO, 3, random.Random(2))
    state = state._replace(phase=Phase.DEAL, to_act=None, dice_counts=(0, 2, 1))
    assert chance_action(state, random.Random(1)).hands[0] == ()  # type: ignore[union-attr]
    after, events = apply(state, Deal(((), (3, 4), (6,))))
    assert [e.seat for e in events if isinstance(e, DiceDealt)] == [1, 2]
    with pytest.raises(IllegalActionError, match="P-3"):
        apply(state, Deal(((1,), (3, 4), (6,))))
    assert after.hands == ((), (3, 4), (6,))


# --- presets and their aliases ------------------------------------------------------------


def test_presets_are_the_rule_sets_of_rules_md() -> None:
    assert RuleSet() == PERUDO
    assert PERUDO.calza == "off" and PERUDO.palifico == "on" and PERUDO.reveal == "until_proven"
    assert dataclasses.replace(PERUDO, calza="on") == PERUDO_CALZA
    assert dataclasses.replace(PERUDO, palifico="off", reveal="all") == LIARS_DICE
    assert (LIARS_DICE.wild_face, LIARS_DICE.wild_conversion, LIARS_DICE.calza) == (
        1,
        "perudo",
        "off",
    )
    assert (
        dataclasses.replace(
            PERUDO,
            wild_face=6,
            wild_conversion="bluff",
            loss="difference",
            next_opener="winner",
            set_aside=True,
            reveal="all",
            palifico="off",
        )
        == BLUFF
    )
    assert BLUFF.calza == "off"
    assert (
        dataclasses.replace(
            PERUDO,
            wild_face=6,
            wild_conversion="none",
            reveal="all",
            palifico="off",
            max_players=2,
        )
        == LIARS_DICE_OPENSPIEL
    )
    assert set(PRESETS) == {"perudo", "perudo_calza", "liars_dice", "bluff", "liars_dice_openspiel"}
    for name, rules in PRESETS.items():
        assert preset_name(rules) == name == str(rules)
    custom = dataclasses.replace(PERUDO, faces=5)
    assert preset_name(custom) is None and str(custom) == "custom"


@pytest.mark.parametrize(
    ("alias", "preset"),
    [
        ("perudo", "perudo"),
        ("PERUDO", "perudo"),
        ("Classic", "perudo"),
        ("dudo", "perudo"),
        ("  Dudo  ", "perudo"),
        ("perudo_calza", "perudo_calza"),
        ("Perudo-Calza", "perudo_calza"),
        ("perudo calza", "perudo_calza"),
        ("CALZA", "perudo_calza"),
        ("liars_dice", "liars_dice"),
        ("Liars Dice", "liars_dice"),
        ("LIAR'S DICE", "liars_dice"),
        ("liar's-dice", "liars_dice"),
        ("LiarsDice", "liars_dice"),
        ("bluff", "bluff"),
        ("Bluff", "bluff"),
        ("liars_dice_openspiel", "liars_dice_openspiel"),
        ("Liars-Dice-OpenSpiel", "liars_dice_openspiel"),
        ("OPENSPIEL", "liars_dice_openspiel"),
    ],
)
def test_find_ruleset_knows_every_preset_by_its_case_insensitive_aliases(
    alias: str, preset: str
) -> None:
    assert find_ruleset(alias) is PRESETS[preset]


@pytest.mark.parametrize("name", ["", "poker", "perudo!", "liars", "calza_perudo"])
def test_find_ruleset_refuses_an_unknown_name_listing_the_presets(name: str) -> None:
    with pytest.raises(ValueError, match="unknown rule set.*perudo, perudo_calza"):
        find_ruleset(name)


# --- P-3: the server's dice ---------------------------------------------------------------


def test_p3_system_dice_draw_as_the_system_generator_draws_from_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``SystemDice`` reads the system's randomness ahead, and makes of each byte what
    ``random.SystemRandom`` makes of it: the same bytes give the same floats, bits, bytes and
    so the same dice. A deal of thirty dice is one read of the system's randomness."""
    from perudo.core import SystemDice
    from perudo.core import chance as chance_module

    stream = random.Random(9).randbytes(1 << 16)
    served = {"dice": 0, "system": 0}
    reads: list[int] = []

    def reader(key: str) -> Callable[[int], bytes]:
        def urandom(n: int) -> bytes:
            if key == "dice":
                reads.append(n)
            start = served[key]
            served[key] += n
            return stream[start : start + n]

        return urandom

    monkeypatch.setattr(chance_module.os, "urandom", reader("dice"))
    monkeypatch.setattr(random, "_urandom", reader("system"))
    monkeypatch.setattr(SystemDice, "_AHEAD", 1 << 15)  # nothing left unread between draws
    dice, system = SystemDice(), random.SystemRandom()
    for k in (1, 3, 8, 30, 64, 100):
        assert dice.getrandbits(k) == system.getrandbits(k)
    assert [dice.random() for _ in range(50)] == [system.random() for _ in range(50)]
    assert dice.randbytes(600) == system.randbytes(600)
    assert [dice.randrange(6) for _ in range(40)] == [system.randrange(6) for _ in range(40)]
    state = start_game(PERUDO, 6, [(6, 1, 2, 3, 4, 5)])
    assert chance_action(state, dice) == chance_action(state, system)
    assert reads == [1 << 15]
    monkeypatch.undo()

    reads.clear()
    monkeypatch.setattr(chance_module.os, "urandom", reader("dice"))
    dice = SystemDice()
    deal = chance_action(state, dice)
    assert sum(len(hand) for hand in deal.hands) == 30 and len(reads) == 1
    assert len(dice.randbytes(600)) == 600  # more than it reads ahead: read at once

    # Read after read, each value comes from fresh bytes: 7 bytes a float, from the start of
    # each 512-byte read (the tail too short for a float is left), never a byte twice.
    reads.clear()
    served["dice"] = 0
    dice = SystemDice()
    floats = [dice.random() for _ in range(300)]
    per_read = 512 // 7
    assert len(reads) == -(-300 // per_read) and set(reads) == {512}
    expected = [
        (int.from_bytes(stream[512 * r + 7 * i : 512 * r + 7 * i + 7]) >> 3) * 2.0**-53
        for r in range(len(reads))
        for i in range(per_read)
    ][:300]
    assert floats == expected
    with pytest.raises(ValueError):
        dice.getrandbits(-1)


def test_p3_system_dice_are_forgotten_by_a_child_process_so_two_never_deal_alike() -> None:
    """What one process read ahead is its own: after ``fork`` the child reads afresh, so the
    parent's next dice and the child's differ."""
    import os

    from perudo.core import SystemDice

    dice = SystemDice()
    dice.random()  # read ahead
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next bytes, to the parent
        try:
            os.write(write, dice.randbytes(64))
        finally:
            os._exit(0)
    os.close(write)
    child = b""
    while len(child) < 64:
        part = os.read(read, 64)
        if not part:
            break
        child += part
    os.close(read)
    os.waitpid(pid, 0)
    assert len(child) == 64
    assert child != dice.randbytes(64)
