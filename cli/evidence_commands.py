"""Commands that make a game's log evidence: import, fork, audit, reveal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import click
from rich.progress import Progress
from rich.table import Table

from cli.common import (
    EVENT_NUMBER,
    echo_json,
    get_service,
    handle_errors,
    json_option,
    looks_like_path,
    stdin_is_terminal,
)
from cli.completion import complete_game, complete_game_or_file
from cli.rendering import console, plain_cells
from domain.audit import AuditReport
from domain.errors import NightkeepError, UsageError
from domain.game import STOPPED
from event_store.app.replay_file import check_import, store_import
from event_store.app.service import GameService
from event_store.log_reader import read_file
from event_store.pbem.audit_files import MAX_JOBS, AuditResult, audit_files
from event_store.pbem.replica import packet_digest, proofs_in


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
@handle_errors
def import_command(ctx: click.Context, file: str, as_json: bool) -> None:
    """Stores the game a replay file holds once it passes the whole audit (export gives the same bytes back).

    The file is audited as `nightkeep audit` would (chain, header, content, rules, dice) and refused on
    the first finding; nothing is stored unless everything is. A player's or the public copy is stored
    as what it is, under an id of its own: it holds no seed and cannot be continued. A longer copy of a
    game already stored is appended to it; a copy that disagrees with any stored copy of the same game
    is refused, naming the first event where they part. A game whose seed is still secret is imported
    with every check that is possible: its dice are verified once its host reveals the seed.

    \b
    Example:
        nightkeep import game.nkr
        nightkeep import hana.nkr    # an organiser collects every player's copy, one by one
    """
    checked = check_import(read_file(file), file)  # every check that needs no store: a refusal creates none
    imported = store_import(get_service(ctx, create=True), checked)
    if as_json:
        echo_json(
            {
                "game": str(imported.stored),
                "copy_of": str(imported.game) if imported.viewer is not None else None,
                "viewer": imported.viewer,
                "imported": imported.added,
                "events": imported.events,
                "dice_verified": imported.dice_verified,
            }
        )
        return
    secret = "; some of its dice are not verified yet (the seed is still secret)"
    dice = "" if imported.dice_verified else secret
    stored = f" as {imported.stored}" if imported.stored != imported.game else ""
    if imported.added == imported.events:
        click.echo(f"imported {imported.label}{stored} from {file} ({imported.events} events){dice}")
    elif imported.added:
        click.echo(
            f"extended {imported.label}{stored} with events {imported.events - imported.added + 1}-"
            f"{imported.events} from {file}{dice}"
        )
    else:
        click.echo(f"{imported.label} is already in the store{stored} with every event of {file}")


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--at",
    "at",
    required=True,
    type=EVENT_NUMBER,
    metavar="N",
    help="Last event to keep: one just before a player's choice.",
)
@click.option("--same-dice", is_flag=True, help="Reuse the original's seed (only once it is revealed).")
@json_option
@click.pass_context
@handle_errors
def fork(ctx: click.Context, game: str, at: int, same_dice: bool, as_json: bool) -> None:
    """Starts a new game from a game's history up to event N, where a player was about to act.

    N must be an action boundary: the last event before a player's choice, i.e. the line just above a
    "… chose: …" line of `nightkeep log GAME` (any other N is refused with the nearest boundaries).
    The fork's log opens with ForkedFrom (the original's id, N and its chain value there) followed by
    a copy of events 1..N, and it draws from a new seed. --same-dice keeps the original's dice, which
    is allowed only after the original's seed is revealed (nightkeep reveal), so a fork can never
    preview an unfinished game's rolls. Forks can be forked. Prints the new game's id on stdout
    (what happened goes to stderr).

    \b
    Example:
        nightkeep log 1b4e28ba | grep -B1 "chose:" | head -3
        nightkeep fork 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --at 17
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    fork_id, forked_from = service.fork_game(game_id, at, same_dice)
    if as_json:
        origin = {"game": forked_from.game, "version": forked_from.version, "chain": forked_from.chain.hex()}
        echo_json({"game": str(fork_id), "forked_from": origin, "same_dice": same_dice})
    else:
        dice = "the same dice" if same_dice else "a new seed"
        click.echo(str(fork_id))  # only the id on stdout, so `GAME=$(nightkeep fork …)` works
        click.echo(f"forked from {game_id} at event {at}, with {dice}", err=True)
        if service.get_game(game_id).meta.get("hosted"):
            click.echo(
                "the fork is a what-if game at this terminal, signed by no seat; the e-mail game goes on "
                "unchanged (to correct it: nightkeep host rollback)",
                err=True,
            )


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--yes", is_flag=True, help="Reveal without asking (needed when stdin is not a terminal).")
@json_option
@click.pass_context
@handle_errors
def reveal(ctx: click.Context, game: str, yes: bool, as_json: bool) -> None:
    """Reveals a game's dice seed now, so anyone can check every roll; the game then takes no actions.

    The seed is revealed by itself when a game ends; reveal early to settle a dispute or abandon a
    game: it stops the game for good (anyone could foresee its later rolls), so on a terminal it asks
    first; off a terminal it refuses unless given --yes (which never asks). Revealing twice shows the
    same seed.

    \b
    Example:
        nightkeep reveal 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --yes
    """
    service = get_service(ctx)
    game_id = service.resolve_game_id(game)
    if not service.playable_game(game_id).meta["seed"]:  # a viewer's copy is refused here
        service.seed_of(game_id)  # only the host that holds the seed reveals it: ask nobody else
        if not yes and not stdin_is_terminal():
            # Nobody is there to ask: a script must say --yes itself, never stop a game by default.
            raise UsageError(
                f"reveal stops game {game_id} for good and nobody is at a terminal to confirm: "
                "add --yes to reveal its seed"
            )
        if not yes:
            click.confirm(
                f"Reveal the dice seed of game {game_id} now? The game stops for good",
                default=False,
                abort=True,
                err=True,
            )
    seed = service.reveal_seed(game_id)
    version = service.get_game(game_id).version
    if as_json:
        echo_json({"game": str(game_id), "seed": seed.hex(), "version": version})
    else:
        click.echo(f"seed of game {game_id}: {seed.hex()} (revealed in the log by event {version})")


def write_proofs(ctx: click.Context, service: GameService, game_id: UUID) -> None:
    """Writes the packets a replica keeps as proof against its host into --proofs DIR, if asked."""
    folder = ctx.ensure_object(dict).get("proofs_dir")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for n, proof in enumerate(proofs_in(service, game_id), start=1):
        for which, text in (("held", proof.held), ("conflicting", proof.conflicting)):
            (Path(folder) / f"proof-{n}-event-{proof.version}-{which}.nkp").write_text(text)


def _audit_game(ctx: click.Context, target: str) -> AuditResult:
    """Audits a stored game; an unknown id or an unreadable store is an unreadable target."""
    if looks_like_path(target):
        return target, None, f"no replay file {target}"
    try:
        service = get_service(ctx, reads_only=True)
        game_id = service.resolve_game_id(target)
        report = service.audit(game_id)
        for proof in proofs_in(service, game_id):
            held, conflicting = packet_digest(proof.held), packet_digest(proof.conflicting)
            report.add(
                proof.version,
                "signature",
                f"{proof.detail}: packets {held} and {conflicting}, "
                "signed by the host and kept in this replica (nightkeep audit GAME --proofs DIR writes them)",
            )
        write_proofs(ctx, service, game_id)
        return target, report, ""
    except NightkeepError as exc:
        if exc.exit_code == 2:
            return target, None, str(exc)
        raise


# `audit diff A B` compares two copies; as the first argument, `diff` always names it (a file called
# diff is audited as ./diff, and no game id is "diff": ids are hexadecimal).
DIFF = "diff"


class AuditCommand(click.Command):
    """`audit GAME|FILE…`, which becomes `audit diff A B` when its first argument is `diff`."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        if args[:1] != [DIFF]:
            return super().make_context(info_name, args, parent, **extra)
        from cli.audit_diff import diff  # loaded only to compare copies

        # Named as one command, so its usage line reads `nightkeep audit diff`, not audit's arguments.
        return diff.make_context(f"{info_name} {DIFF}", args[1:], parent, **extra)


@click.command(cls=AuditCommand)
@click.argument(
    "targets", nargs=-1, required=True, metavar="GAME|FILE…", shell_complete=complete_game_or_file
)
@click.option(
    "--jobs",
    type=click.IntRange(1, MAX_JOBS),
    default=None,
    metavar="N",
    help=f"Worker processes for files, 1-{MAX_JOBS} (default: one per core when there are several files).",
)
@click.option(
    "--proofs", metavar="DIR", help="On a replica: write the packets kept as proof against the host here."
)
@json_option
@click.pass_context
@handle_errors
def audit(
    ctx: click.Context, targets: tuple[str, ...], jobs: int | None, proofs: str | None, as_json: bool
) -> None:
    """Verifies games and replay files: chain, dice, rules and content.

    Checks the hash chain link by link (naming the first broken event), recomputes every die roll and
    card pick from the revealed seed (a running game's dice cannot be checked yet: the audit says so
    and checks the rest), re-decides every action from the state before it and compares the result
    with the recorded consequences, and checks the content hash. Exit 0 clean, 1 findings, 2 when a
    target cannot be read. A target that names an existing file is a replay file, else a game id.
    `nightkeep audit diff A B` compares two copies of one game instead (see its --help).

    \b
    Example:
        nightkeep audit replays/*.nkr
        nightkeep audit 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --json
        nightkeep audit diff host.nkr hana.nkr
    """
    if DIFF in targets and not Path(DIFF).is_file():
        raise UsageError("to compare two copies, put diff right after audit: nightkeep audit diff A B")
    ctx.ensure_object(dict)["proofs_dir"] = proofs
    files = list(dict.fromkeys(t for t in targets if Path(t).is_file()))
    by_target: dict[str, AuditResult] = {}
    show_progress = len(targets) > 1 and sys.stderr.isatty() and not as_json
    with Progress(transient=True, disable=not show_progress) as progress:
        task = progress.add_task("auditing", total=len(targets))
        for result in audit_files(files, jobs):
            by_target[result[0]] = result
            progress.advance(task)
        for target in targets:
            if target not in by_target:
                by_target[target] = _audit_game(ctx, target)
                progress.advance(task)
    results = [by_target[target] for target in targets]
    if as_json:
        echo_json([_result_json(target, report, unreadable) for target, report, unreadable in results])
    elif len(results) == 1:
        _print_report(*results[0])
    else:
        _print_summary(results)
    if any(report is None for _, report, _ in results):
        ctx.exit(2)
    if any(not report.ok for _, report, _ in results if report is not None):
        ctx.exit(1)


def _result_json(target: str, report: AuditReport | None, unreadable: str) -> dict[str, Any]:
    if report is None:
        return {"source": target, "ok": False, "unreadable": unreadable, "findings": [], "notes": []}
    return {"source": target, **report.to_json()}


def _verdict(report: AuditReport | None, unreadable: str) -> str:
    if report is None:
        return "unreadable"
    if not report.ok:
        return f"{len(report.findings)} finding{'s' if len(report.findings) != 1 else ''}"
    stopped = " (stopped by an early reveal)" if report.status == STOPPED else ""
    if report.partial:
        return "clean as far as a sealed copy shows" + stopped
    if report.draws_verified < report.draws:
        return "clean, dice not yet verifiable" + stopped
    return ("clean, scripted dice" if report.scripted else "clean") + stopped


def _print_report(target: str, report: AuditReport | None, unreadable: str) -> None:
    out = console()
    if report is None:
        click.echo(f"{target}: unreadable: {unreadable}", err=True)
        return
    out.print(
        f"{target}: {report.ruleset} game {report.game}, {report.events} events, {report.actions} actions, "
        f"{report.draws_verified}/{report.draws} draws verified — {_verdict(report, unreadable)}",
        markup=False,
    )
    for finding in report.findings:
        out.print(f"  event {finding.version:>5}  {finding.kind:<9} {finding.detail}", markup=False)
    for note in report.notes:
        out.print(f"  note: {note}", markup=False)


def _print_summary(results: list[tuple[str, AuditReport | None, str]]) -> None:
    out = console()
    table = Table("source", "game", "events", "actions", "draws verified", "result")
    for target, report, _ in results:
        if report is None:
            table.add_row(*plain_cells(target, "", "", "", "", "unreadable"))
            continue
        draws = f"{report.draws_verified}/{report.draws}"
        table.add_row(
            *plain_cells(
                target, report.game, str(report.events), str(report.actions), draws, _verdict(report, "")
            )
        )
    out.print(table)
    for target, report, unreadable in results:
        if report is None:
            click.echo(f"{target}: unreadable: {unreadable}", err=True)
        elif report.findings:
            first = report.first_finding() or report.findings[0]
            more = f" (and {len(report.findings) - 1} more)" if len(report.findings) > 1 else ""
            out.print(f"{target}: event {first.version}: {first.kind}: {first.detail}{more}", markup=False)
    clean = sum(1 for _, report, _ in results if report is not None and report.ok)
    out.print(f"{clean} of {len(results)} clean", markup=False)
