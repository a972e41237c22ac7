"""bidding.allows is bid_refusal's decision without the words, on every rule set's bids."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from perudo.core import PRESETS, Bid, RuleSet
from perudo.core.bidding import allows, bid_refusal, ordered_bids

_RULES = [
    *PRESETS.values(),
    dataclasses.replace(PRESETS["perudo"], raise_order="monotone"),
    dataclasses.replace(PRESETS["perudo"], wild_conversion="bluff"),
]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(_RULES),
    st.integers(2, 12),
    st.booleans(),
    st.booleans(),
    st.data(),
)
def test_allows_is_bid_refusal_is_none_p12_p13_p14_p32_p33_v1(
    rules: RuleSet, total: int, palifico: bool, one_die: bool, data: st.DataObject
) -> None:
    bids = ordered_bids(rules, total, palifico)
    prev = data.draw(st.sampled_from([None, *bids]))
    for bid in [*bids, Bid(total + 1, 2), Bid(1, 9)]:
        said = bid_refusal(rules, prev, bid, total, palifico=palifico, one_die=one_die)
        decided = allows(rules, prev, bid, total, palifico=palifico, one_die=one_die)
        assert decided is (said is None), (prev, bid)
