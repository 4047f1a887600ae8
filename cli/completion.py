"""Shell completion: `nightkeep completion bash|zsh|fish` and the callbacks that complete values.

The callbacks run inside click's completion machinery (`_NIGHTKEEP_COMPLETE=…`), read what was typed
earlier on the line (`ctx.params`: the ruleset of `new`, the game of `act`) and never fail: a store
that is missing or unreadable completes nothing rather than printing a traceback into the shell.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import click
from click.shell_completion import BashComplete, CompletionItem, add_completion_class, get_completion_class

SHELLS = ("bash", "zsh", "fish")
COMPLETE_VAR = "_NIGHTKEEP_COMPLETE"  # what click derives from the program name `nightkeep`

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def quietly(func: Completer) -> Completer:
    """Makes a completion callback complete nothing instead of failing."""

    def wrapper(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        try:
            return func(ctx, param, incomplete)
        except Exception:  # noqa: BLE001  (whatever goes wrong, the shell must only see no completions)
            return []

    wrapper.__doc__ = func.__doc__
    return wrapper


def _matching(incomplete: str, items: Iterable[tuple[str, str]]) -> list[CompletionItem]:
    # Case-insensitive: `--as v` offers Vlad, as the error for `--as vlad` suggests him.
    start = incomplete.casefold()
    return [
        CompletionItem(value, help=about or None)
        for value, about in items
        if value.casefold().startswith(start)
    ]


def _service(ctx: click.Context) -> Any:
    """Opens the store named by --db / NIGHTKEEP_DB, or returns None when there is none."""
    from event_store.app.service import GameService
    from event_store.config import resolve_db, store_exists

    db = resolve_db(ctx.find_root().params.get("db"))
    return GameService.open(db) if store_exists(db) else None


def _typed(ctx: click.Context, name: str) -> str:
    """Returns the first argument (GAME, RULESET) typed earlier on the line, or ""."""
    # When the word being completed is an option's value, click's resilient parse stops at that
    # option and leaves the arguments before it unassigned, in ctx.args.
    value = ctx.params.get(name) or (ctx.args[0] if ctx.args else "")
    return str(value)


def _game_of(ctx: click.Context) -> tuple[Any, Any]:
    """Returns (service, game id) for the GAME typed earlier on the line, or (None, None)."""
    service = _service(ctx)
    game = _typed(ctx, "game")
    if service is None or not game:
        return None, None
    return service, service.resolve_game_id(game)


@quietly
def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completes a ruleset name."""
    from domain.rulesets.catalogue import describe_rulesets

    return _matching(incomplete, ((info.name, info.summary) for info in describe_rulesets()))


def _ruleset_info(ctx: click.Context) -> Any:
    from domain.rulesets.catalogue import describe_ruleset

    return describe_ruleset(_typed(ctx, "ruleset"))


@quietly
def complete_option(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completes `--option KEY=VALUE` of the ruleset named earlier: first the keys, then the values."""
    info = _ruleset_info(ctx)
    key, sep, _ = incomplete.partition("=")
    if not sep:
        return _matching(incomplete, ((f"{o.key}=", o.help) for o in info.options))
    values = next((o.values for o in info.options if o.key == key), ())
    return _matching(incomplete, ((f"{key}={value}", "") for value in values))


@quietly
def complete_player(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completes the CHARACTER of `--player NAME:CHARACTER` from the ruleset named earlier."""
    name, sep, _ = incomplete.partition(":")
    if not sep:
        return []  # a player's name is the player's own to choose
    return _matching(incomplete, ((f"{name}:{cid}", about) for cid, about in _ruleset_info(ctx).characters))


@quietly
def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completes a game id from the store, with its ruleset and players as help."""
    service = _service(ctx)
    if service is None:
        return []
    from projections.game_index import GameIndex

    games = GameIndex(service).games()
    return _matching(incomplete, ((g["game"], f"{g['ruleset']}: {', '.join(g['players'])}") for g in games))


@quietly
def complete_game_or_file(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Completes a game id from the store, or lets the shell complete a replay file's name."""
    return [*complete_game(ctx, param, incomplete), CompletionItem(incomplete, type="file")]


@quietly
def complete_seat(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completes a player of the game named earlier (and `host` where a viewer is asked for)."""
    from domain.actions import HOST

    service, game_id = _game_of(ctx)
    if service is None:
        return []
    players: list[str] = list(service.get_game(game_id).meta["players"])
    if param.name == "viewer":
        players.append(HOST)
    return _matching(incomplete, ((name, "") for name in players))


@quietly
def complete_action(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completes the legal action ids of the game named earlier (for --as PLAYER when given)."""
    service, game_id = _game_of(ctx)
    if service is None:
        return []
    player = ctx.params.get("as_player")
    if player is None and service.get_game(game_id).ruleset.hidden_information:
        return []  # a player's options show their secrets: only for the player named with --as
    return _matching(incomplete, ((a.id, a.label) for a in service.legal_actions(game_id, player)))


# Bash splits the word being completed at COMP_WORDBREAKS, so `--player Ann:wa` arrives as `Ann`, `:`,
# `wa` and `--option hoard=` as `hoard`, `=`; and it replaces only the part after the last break.
BREAKS = (":", "=")


def glue_words(words: list[str]) -> list[str]:
    """Returns the words bash split at `:` or `=` joined again (`Ann`, `:`, `wa` → `Ann:wa`)."""
    glued: list[str] = []
    join_next = False
    for word in words:
        if glued and (word in BREAKS or join_next):
            glued[-1] += word
            join_next = word in BREAKS
        else:
            glued.append(word)
            join_next = False
    return glued


class NightkeepBashComplete(BashComplete):
    """Bash completion that completes a whole `NAME:CHARACTER` or `KEY=VALUE` word."""

    def get_completion_args(self) -> tuple[list[str], str]:
        args, incomplete = super().get_completion_args()
        words = glue_words([*args, incomplete])
        return words[:-1], words[-1]

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        items = super().get_completions(args, incomplete)
        cut = max(incomplete.rfind(mark) for mark in BREAKS) + 1
        if cut == 0:
            return items
        prefix = incomplete[:cut]  # already on the line, before the part bash replaces
        return [
            CompletionItem(item.value[cut:], type=item.type, help=item.help)
            if isinstance(item.value, str) and item.value.startswith(prefix)
            else item
            for item in items
        ]


add_completion_class(NightkeepBashComplete, "bash")


@click.command()
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """Prints the shell completion script for bash, zsh or fish.

    It completes commands, options, ruleset names, --option KEY=VALUE, --player NAME:CHARACTER,
    game ids, player names and the legal action ids of `act GAME`.

    \b
    Example:
        eval "$(nightkeep completion bash)"     # in ~/.bashrc
        eval "$(nightkeep completion zsh)"      # in ~/.zshrc
        nightkeep completion fish > ~/.config/fish/completions/nightkeep.fish
    """
    root = ctx.find_root()
    script_class = get_completion_class(shell)
    assert script_class is not None  # every shell in SHELLS is one click knows
    script = script_class(root.command, {}, root.info_name or "nightkeep", COMPLETE_VAR)
    click.echo(script.source())
