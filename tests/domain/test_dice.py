"""Provably fair dice: HMAC draws are reproducible, unbiased in range, and scripted dice obey their script."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.dice import (
    EMPTY_POOL,
    HmacDice,
    ScriptedDice,
    commit_to_seed,
    draw_prefix,
    draw_value,
    draw_value_after,
    draw_value_keyed,
    hmac_key,
    mix_entropy,
    shuffle,
)
from domain.errors import DiceScriptExhausted

SEED = bytes(range(32))


def test_draw_matches_the_documented_hmac_construction():
    nonce = b"\x01\x02"
    msg = EMPTY_POOL + (2).to_bytes(4, "big") + nonce + (7).to_bytes(8, "big") + (0).to_bytes(4, "big")
    x = int.from_bytes(hmac.new(SEED, msg, hashlib.sha256).digest(), "big")
    assert draw_value(SEED, EMPTY_POOL, nonce, 7, 6) == x % 6


def test_draws_are_reproducible_and_depend_on_number_nonce_and_entropy():
    first = [draw_value(SEED, EMPTY_POOL, b"", n, 1000) for n in range(20)]
    assert first == [draw_value(SEED, EMPTY_POOL, b"", n, 1000) for n in range(20)]
    assert first != [draw_value(SEED, EMPTY_POOL, b"x", n, 1000) for n in range(20)]
    pool = mix_entropy(EMPTY_POOL, b"ann's entropy")
    assert first != [draw_value(SEED, pool, b"", n, 1000) for n in range(20)]
    assert len(set(first)) > 15


@given(st.integers(min_value=1, max_value=10**9), st.integers(min_value=0, max_value=2**40))
def test_draw_is_always_in_range(bound, n):
    assert 0 <= draw_value(SEED, EMPTY_POOL, b"", n, bound) < bound


def test_six_sided_rolls_are_roughly_uniform():
    dice = HmacDice(SEED)
    faces, draws = dice.roll(6, 6000)
    counts = Counter(faces)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values())
    assert draws == list(range(6000))


def test_scripted_game_takes_faces_from_script_then_falls_back_to_fair_draws():
    dice = HmacDice(SEED, script=[3, 5], script_pos=0)
    faces, draws = dice.roll(6, 3)
    fair = HmacDice(SEED)
    fair_faces, fair_draws = fair.roll(6, 3)
    assert faces[:2] == [3, 5] and faces[2] == fair_faces[2]
    assert draws == fair_draws == [0, 1, 2]


def test_scripted_dice_run_out_loudly():
    dice = ScriptedDice([4])
    assert dice.roll(6) == ([4], [0])
    with pytest.raises(DiceScriptExhausted):
        dice.roll(6)
    with pytest.raises(DiceScriptExhausted):
        ScriptedDice([7]).roll(6)


def test_scripted_card_must_be_available():
    dice = ScriptedDice(cards=["b"])
    with pytest.raises(DiceScriptExhausted):
        dice.pick(["a", "c"])
    assert dice.pick(["a", "b"]) == ("b", 1)


def test_shuffle_is_a_permutation_reproducible_from_its_draws():
    items = [f"card-{i}" for i in range(10)]
    order, draws = shuffle(HmacDice(SEED), items)
    assert sorted(order) == sorted(items)
    assert draws == list(range(9))
    assert shuffle(HmacDice(SEED), items)[0] == order


def test_commitment_is_sha256_of_seed():
    assert commit_to_seed(SEED) == hashlib.sha256(SEED).digest()


@pytest.mark.parametrize("seed", [SEED, b"", b"k" * 64, b"long key " * 12])
def test_the_audit_keyed_draw_is_the_hmac_draw_tail_redraws_included(seed):
    # A bound just above 2**255 rejects about half of all HMAC values, so the redraw path runs often.
    prefix = draw_prefix(mix_entropy(EMPTY_POOL, b"e"), b"nonce")
    key = hmac_key(seed)
    for bound in (6, 52, 2**255 + 1):
        expected = [draw_value_after(seed, prefix, n, bound) for n in range(40)]
        assert [draw_value_keyed(key, prefix, n, bound) for n in range(40)] == expected


def test_a_draw_in_the_biased_tail_is_redrawn_with_the_next_counter(monkeypatch):
    import domain.dice as dice_module

    real_digest = hmac.digest
    calls = []

    def fake_digest(key, msg, digest):
        calls.append(int.from_bytes(msg[-4:], "big"))
        if msg[-4:] == (0).to_bytes(4, "big"):
            return b"\xff" * 32  # 2**256 - 1 lies in the rejected tail for a d6
        return real_digest(key, msg, digest)

    monkeypatch.setattr(dice_module.hmac, "digest", fake_digest)
    value = draw_value(SEED, EMPTY_POOL, b"", 3, 6)
    assert calls == [0, 1]
    prefix = EMPTY_POOL + (0).to_bytes(4, "big") + (3).to_bytes(8, "big")
    digest = hmac.new(SEED, prefix + (1).to_bytes(4, "big"), hashlib.sha256).digest()
    expected = int.from_bytes(digest, "big") % 6
    assert value == expected


def test_the_package_version_is_the_one_recorded_in_games():
    import tomllib
    from pathlib import Path

    from domain.game import NIGHTKEEP_VERSION

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert pyproject["project"]["version"] == NIGHTKEEP_VERSION
