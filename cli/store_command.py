"""`nightkeep store`: what a host does to a store as a whole (today: make the key that encrypts one)."""

from __future__ import annotations

import click

from cli.common import echo_json, handle_errors, json_option
from cli.lazy_group import SuggestingGroup
from event_store.at_rest import KEY_ENV, new_key


@click.group(cls=SuggestingGroup)
def store() -> None:
    """Makes the key that encrypts a store at rest (its events, snapshots and seeds).

    \b
    Example:
        export NIGHTKEEP_CIPHER_KEY="$(nightkeep store new-key)"
        nightkeep --db club.sqlite new dungeon-short --player Ann --player Bo
    """


@store.command(name="new-key")
@json_option
@handle_errors
def store_new_key(as_json: bool) -> None:
    """Prints a new AES-256 key (base64) for NIGHTKEEP_CIPHER_KEY; set it before the store is created.

    \b
    Example:
        export NIGHTKEEP_CIPHER_KEY="$(nightkeep store new-key)"
    """
    key = new_key()
    if as_json:
        echo_json({"key": key, "env": KEY_ENV})
        return
    click.echo(key)
    click.echo(
        f"set {KEY_ENV} to this key before a store is created, and keep a copy apart from the store: "
        "without it the store cannot be read",
        err=True,
    )
