"""How every command's parser is built alike: its help wrapped, an example and the exit codes under it, ``--manifest``."""

from __future__ import annotations

import argparse

from commands.basics import EXIT_CODES_HELP


def wrapped(text: str) -> str:
    """``text`` with each blank-line-separated paragraph filled to 78 columns, for ``--help``."""
    import textwrap

    return "\n\n".join(textwrap.fill(" ".join(paragraph.split()), 78) for paragraph in text.strip().split("\n\n"))


MANIFEST_HELP = (
    "manifest of pinned sources and span checks (default: manifest.json beside run.py); "
    "source paths are relative to its folder; also accepted before the command"
)


def add_command(
    commands: argparse._SubParsersAction, name: str, summary: str, description: str, example: str
) -> argparse.ArgumentParser:
    """A subcommand parser with an example and the lab's exit-code table under its help."""
    import textwrap

    return commands.add_parser(
        name,
        help=summary,
        description=wrapped(description),
        epilog=f"example:\n{textwrap.indent(textwrap.dedent(example).strip(), '  ')}\n\n{EXIT_CODES_HELP}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_manifest_option(
    command: argparse.ArgumentParser, help_text: str = MANIFEST_HELP, required: bool = False
) -> None:
    """``--manifest M`` after the command, read together with one given before it (see ``merged_manifest``)."""
    suffix = " (required, here or before the command)" if required else ""
    command.add_argument("--manifest", dest="command_manifest", metavar="M", default=None, help=help_text + suffix)


def add_no_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--no-cache``: scan every page afresh, reading and writing no cache."""
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="read every page afresh and write no cache (by default what each page held is kept in "
        ".lab-cache/ beside the manifest, and a page whose pinned bytes, title, grammar and the lab's code "
        "are unchanged is not read again)",
    )


# ``--jobs`` beyond this is refused: each job is a process holding a copy of the pages.
MAX_JOBS = 64


def jobs_argument(value: str) -> int:
    """``--jobs``: a whole number from 1 to ``MAX_JOBS``."""
    if not value.isdecimal() or not 1 <= int(value) <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {MAX_JOBS}, found {value!r}")
    return int(value)


JOBS_HELP = (
    "read the pages to scan in N processes, 1 to 64 (1: in this one); by default, on Linux and the other "
    "Unixes, one per CPU and per MB of pages to read (two at least), and none under 1 MB; the findings are the same "
    "for any N"
)


def add_jobs_option(parser: argparse.ArgumentParser, help_text: str = JOBS_HELP) -> None:
    """``--jobs N``: how many processes share the command's work (``lab_io.workers``): the pages a scan reads afresh,
    or the queries ``retrieve`` ranks."""
    parser.add_argument("--jobs", type=jobs_argument, metavar="N", default=None, help=help_text)
