"""Proofs against a host: `proofs` writes a replica's kept proofs as files, `verify` checks such files."""

from __future__ import annotations

from pathlib import Path

import click

from cli.common import echo_json, get_service, handle_errors, json_option
from cli.completion import complete_game
from domain.errors import NightkeepError, UsageError
from event_store.log_reader import read_file
from event_store.pbem.proof_files import replica_proofs
from event_store.pbem.proofs import PROOF_LIMITS, Verdict, compact_fingerprint, read_proof, verify_proof
from event_store.pbem.replica import Replica, membership_in, proofs_in


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option("-o", "--output", "folder", required=True, metavar="DIR", help="The folder to write them into.")
@json_option
@click.pass_context
@handle_errors
def proofs(ctx: click.Context, game: str, folder: str, as_json: bool) -> None:
    """Writes each proof your replica keeps against a game's host as one self-contained file.

    Each file holds the host-signed packets involved, the host's public key and the events back to
    the game's creation (other seats' secrets sealed): anyone checks it with `nightkeep verify` and
    the host key's fingerprint alone. Files are named proof-GAME8-EVENT-KIND.nkp.

    \b
    Example:
        nightkeep --db ann.sqlite proofs 1b4e28ba -o proofs/
        nightkeep verify proofs/*.nkp --host-key "40e6 f4b2 e61a ed54"
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    if membership_in(service, game_id) is None and not proofs_in(service, game_id):
        raise UsageError(f"this store is no replica of game {game_id} (nightkeep join INVITE first)")
    member = membership_in(service, game_id)
    game_id = member.game if member is not None else game_id
    written = replica_proofs(Replica(service), game_id)
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name, _, data in written:
        (Path(folder) / name).write_bytes(data)
    if as_json:
        echo_json([{"file": str(Path(folder) / name), "kind": kind} for name, kind, _ in written])
        return
    for name, kind, _ in written:
        click.echo(f"{Path(folder) / name}: {kind}")
    click.echo(f"{len(written)} proof{'s' if len(written) != 1 else ''} against the host of game {game_id}")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--host-key",
    "host_key",
    required=True,
    metavar="FINGERPRINT",
    help="The host key's fingerprint (16 hex digits, spaces optional), as the host read it out.",
)
@json_option
@click.pass_context
@handle_errors
def verify(ctx: click.Context, files: tuple[str, ...], host_key: str, as_json: bool) -> None:
    """Checks proof files against a host: exit 1 when a proof holds, 0 when none does, 2 unreadable.

    Needs nothing but the files and the host key's fingerprint: the key in each file must have that
    fingerprint, every packet must carry the host's signature, the history must chain to the
    packets, and then the lie the file names must be there. Says in one line what each proves.

    \b
    Example:
        nightkeep verify proof-1b4e28ba-109-two-histories.nkp --host-key "40e6 f4b2 e61a ed54"
    """
    expected = compact_fingerprint(host_key)
    results: list[tuple[str, Verdict | None, str]] = []
    for file in files:
        try:
            results.append(
                (file, verify_proof(read_proof(read_file(file, PROOF_LIMITS), file), expected), "")
            )
        except NightkeepError as exc:
            results.append((file, None, str(exc)))
        except Exception as exc:  # an untrusted file must never end in a traceback
            results.append((file, None, f"{file} cannot be read ({type(exc).__name__})"))
    if as_json:
        echo_json(
            [
                {"file": f, "unreadable": why, **(v.to_json() if v else {"holds": False})}
                for f, v, why in results
            ]
        )
    else:
        for file, verdict, why in results:
            if verdict is None:
                click.echo(f"{file}: unreadable: {why}", err=True)
            else:
                click.echo(f"{file}: {verdict.statement}")
    if any(v is None for _, v, _ in results):
        ctx.exit(2)
    if any(v is not None and v.holds for _, v, _ in results):
        ctx.exit(1)
