"""Per-turn dice keys for logs the playout tests build by hand (no store): the events a game made by this
nightkeep opens with after its seed's commitment, and the dice and key of each action, as
docs/replay-format.md ("Dice") says and `domain.game.Game` records them."""

from __future__ import annotations

from collections.abc import Sequence

from domain.dice import CHAIN_LINKS, HmacDice, chain_anchor, private_key, private_salt, turn_key
from domain.events import DiceChainCommitted, DiceKeyDealt, Event


class KeyedDice:
    """The dice of a hand-built game: each action's fair dice, keyed for it, with the draw counter and the
    dice script carried on from the action before."""

    def __init__(self, seed: bytes, seats: Sequence[str] = (), private_draws: bool = False) -> None:
        self.seed = seed
        self.private = {name: private_key(seed, name) for name in seats} if private_draws else {}
        self.actions = 0
        self.dice = HmacDice(seed)

    def opening(self) -> list[Event]:
        """Returns what follows the seed's commitment: the chain's first anchor and the private keys."""
        opened: list[Event] = [DiceChainCommitted(segment=0, anchor=chain_anchor(self.seed, 0))]
        for owner, key in self.private.items():
            opened.append(DiceKeyDealt(owner=owner, key=key, salt=private_salt(self.seed, owner)))
        return opened

    def next_action(self) -> tuple[HmacDice, bytes]:
        """Returns the dice and the key of the next action."""
        self.actions += 1
        key = turn_key(self.seed, self.actions)
        previous = self.dice
        self.dice = HmacDice(
            self.seed,
            next_draw=previous.next_draw,
            script=previous._script,  # noqa: SLF001  (a scripted game's position carries on)
            script_pos=previous.script_pos,
            key=key,
            private_keys=self.private,
        )
        return self.dice, key

    def after_action(self) -> list[Event]:
        """Returns the next segment's anchor when the action just taken ended a segment."""
        if self.actions % CHAIN_LINKS:
            return []
        segment = self.actions // CHAIN_LINKS
        return [DiceChainCommitted(segment=segment, anchor=chain_anchor(self.seed, segment))]
