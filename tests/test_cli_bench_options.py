"""The option groups the `tkg bench` commands share (tkg/cli/bench_common.py): declared once, each
command gets them after its own options, in the group's order, and receives each group built."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer
from typer.testing import CliRunner

from tkg.cli.app import app
from tkg.cli.bench_common import Fresh, Recorded, Sampled, with_options

runner = CliRunner()


def _app(seen: dict[str, Any]) -> typer.Typer:
    probe = typer.Typer()

    @probe.command()
    @with_options(pick=Sampled, fresh=Fresh, record=Recorded)
    def run(
        name: Annotated[str, typer.Argument(help="A name.")],
        loud: Annotated[bool, typer.Option("--loud", help="Shout.")] = False,
        *,
        pick: Sampled,
        fresh: Fresh,
        record: Recorded,
    ) -> None:
        """Record what arrived."""
        seen.update(name=name, loud=loud, pick=pick, fresh=fresh, record=record)

    return probe


def test_a_command_receives_each_group_built_from_its_options() -> None:
    seen: dict[str, Any] = {}
    result = runner.invoke(
        _app(seen), ["ada", "--loud", "--limit", "3", "--store", "kuzu:///tmp/x.kuzu", "--embed-cache"]
    )
    assert result.exit_code == 0, result.output
    assert seen == {
        "name": "ada",
        "loud": True,
        "pick": Sampled(limit=3, samples=None),
        "fresh": Fresh(store="kuzu:///tmp/x.kuzu", embed_cache=True),
        "record": Recorded(details=None, llm=None),
    }


def test_a_group_keeps_its_checks_and_defaults() -> None:
    seen: dict[str, Any] = {}
    result = runner.invoke(_app(seen), ["ada", "--samples", "0"])
    assert result.exit_code == 2 and "--samples" in result.output  # min=1, as declared on the group
    assert not seen
    assert runner.invoke(_app(seen), ["ada"]).exit_code == 0
    assert seen["fresh"] == Fresh() and seen["pick"] == Sampled() and seen["loud"] is False


def test_help_lists_the_groups_options_after_the_commands_own() -> None:
    result = runner.invoke(app, ["bench", "qa", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    listed = re.findall(r"^│ (--[\w-]+)", result.output, re.M)  # the options panel, in order
    assert listed[:8] == [
        "--json", "--show-fails", "--limit", "--samples", "--store", "--embed-cache", "--details", "--llm"
    ]
