"""The parsers of the command line: the quick one the main job's plain command line can skip, and the full one of every command.

A command is a module ``commands.<name>`` listed in ``COMMANDS``; its
``register`` adds its parser, whose ``handler`` default names the function
that runs it.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import re
import sys
from pathlib import Path

import chunk_index
from commands.basics import EXIT_CODES_HELP, EXIT_USAGE, LAB_VERSION
from commands.options import MANIFEST_HELP, wrapped
from lab_io.errors import UsageError, one_line, printable
from lab_io.outputs import emit_text, existing_kind, looks_like_manifest


class FullParserNeeded(Exception):
    """The quick parser met what only a built parser answers: a command (``command`` names it), ``--help`` or a usage error."""

    def __init__(self, command: str | None = None) -> None:
        super().__init__(command)
        self.command = command


def given_twice(option: str, first: object, second: object) -> str:
    """The refusal of an option that takes one value given twice with different ones, as every parser words it:
    ``given_twice("--output", "a.json", "b.json")`` -> ``"--output is given twice with different values (a.json
    and b.json)"``. A list (``sweep --sizes 400 800``) is shown as it was typed, its values spaced."""
    return f"{option} is given twice with different values ({shown_value(first)} and {shown_value(second)})"


def shown_value(value: object) -> str:
    """An option's value as the command line gave it, inert: ``["400", 800]`` -> ``"400 800"``."""
    if isinstance(value, list):
        return " ".join(printable(str(item)) for item in value)
    return printable(str(value))


class SingleValueAction(argparse._StoreAction):
    """argparse's ``store``, refusing a second different value where argparse lets the last one win silently.

    ``--html report.htm --html y`` would write ``y`` alone; the same value twice is one value, and accepted.
    What the parse has stored so far is its parser's ``given_values`` (``LabArgumentParser.parse_known_args``).
    """

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        given = parser.given_values
        if self.dest in given and given[self.dest] != values:
            parser.error(given_twice(option_string or self.metavar or self.dest, given[self.dest], values))
        given[self.dest] = values
        super().__call__(parser, namespace, values, option_string)


class LabArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other refusal, and whose options are strict.

    An option is spelled in full: argparse's abbreviations (``--o x`` run as
    ``--output x``, ``scan --add-check`` as ``--add-checks``) are off, so an
    option is never run as one the parser guessed; a mistyped one is refused
    with the closest option named. An option that takes one value is refused
    when given twice with different values (``SingleValueAction``).
    """

    # True while ``build_parser(quick=True)``'s parser parses (see ``parsed_arguments``).
    quick = False

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        # Every option added with argparse's default action, or "store", takes one value: SingleValueAction's.
        self.register("action", None, SingleValueAction)
        self.register("action", "store", SingleValueAction)
        self.given_values: dict[str, object] = {}

    def parse_known_args(self, args=None, namespace=None):
        # Each parse starts with no value given; a command's parser parses its own arguments, its values its own.
        self.given_values = {}
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> None:
        if self.quick:
            raise FullParserNeeded
        # argparse quotes some values and not others; one_line makes any of them one inert line.
        self.exit(
            EXIT_USAGE, f"error: usage: {self.prog}: {one_line(message)}{closest_command(message)} (see --help)\n"
        )

    def print_help(self, file=None) -> None:
        if self.quick:
            raise FullParserNeeded
        super().print_help(file)

    def _print_message(self, message: str, file=None) -> None:
        # argparse drops a failed write silently; --help and --version go through the checked stdout path instead.
        if message and file is sys.stdout:
            emit_text(message.rstrip("\n"))
        else:
            super()._print_message(message, file)


class CommandArgumentParser(LabArgumentParser):
    """A command's parser: an argument it does not know is refused in the command's name (``run.py retrieve: ...``).

    argparse hands a command's unknown arguments back to the main parser, whose
    refusal would name ``run.py`` alone; the command's parser refuses them itself,
    with the command's own option a mistyped one is closest to (``--manfest``:
    "did you mean --manifest?"). Its options are spelled in full, as every
    parser's are (``LabArgumentParser``), so a command that writes never runs
    an option it guessed (``scan --add-check`` as ``--add-checks``).
    """

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            options = [option for option in self._option_string_actions if option.startswith("--")]
            command = self.prog.split()[-1]
            hint = closest_option(extras, options, command) or misplaced_file(
                extras, options, bool(self._get_positional_actions())
            )
            self.error(f"unrecognized arguments: {' '.join(extras)}" + hint)
        return namespace, extras


def misplaced_file(arguments: list[str], options: list[str], takes_file: bool) -> str:
    """The option a file named where the command takes no word belongs to, as a hint; ``""`` when none is told.

    A manifest is named as ``--manifest``'s, a saved result as no input of a command that takes no FILE
    (``takes_file`` false), and a JSON Lines name as ``--chunks``' where the command has that option.
    """
    hint = ""
    if "--manifest" in options:
        hint = misplaced_manifest(arguments) or ("" if takes_file else misplaced_result(arguments))
    if not hint and "--chunks" in options:
        lines = [word for word in arguments if not word.startswith("-") and word.lower().endswith(".jsonl")]
        hint = f"; did you mean --chunks {lines[0]}?" if lines else ""
    return hint


def misplaced_manifest(arguments: list[str]) -> str:
    """``"; a manifest is given as --manifest m.json"`` for the first word of ``arguments`` naming a manifest, else ``""``.

    A manifest given where the command takes no word (``scan m.json``) is the commonest slip of all: said so,
    rather than the word only being refused.
    """
    for argument in arguments:
        if not argument.startswith("-") and is_manifest_path(argument):
            return f"; a manifest is given as --manifest {argument}"
    return ""


def misplaced_result(arguments: list[str]) -> str:
    """``"; r.json is a saved result: ..."`` for the first word of ``arguments`` naming one, else ``""``.

    Asked for a command that takes no file at all (``context r.json``): it builds from the manifest, and
    the commands that read a result (validate, diff, export) take it as their FILE.
    """
    for argument in arguments:
        path = Path(argument)
        if not argument.startswith("-") and path.is_file() and told_kind(path) == "result":
            return (
                f"; {argument} is a saved result: this command builds from the manifest (--manifest M), and "
                "validate, diff and export read a result"
            )
    return ""


def told_kind(path: Path) -> str | None:
    """``existing_kind`` of a file named on the command line, ``None`` when it cannot be read to tell."""
    try:
        return existing_kind(path)
    except UsageError:
        return None


def is_manifest_path(argument: str) -> bool:
    """Whether ``argument`` names an existing file that opens as a manifest (``looks_like_manifest``)."""
    path = Path(argument)
    return path.is_file() and looks_like_manifest(path)


# What a main-job option given to a command that lacks it does instead: where it belongs, not merely no close match.
FOREIGN_OPTIONS = {
    "--html": "; --html is the main job's report (run.py --manifest M --output result.json --html FILE), and scan's and "
    "judge's; this command has none",
    "--output": "; this command prints on stdout: redirect it to a file (> FILE)",
}
# The commands that write the manifest say so for --output, rather than to redirect what they print.
MANIFEST_OUTPUT_HINTS = {
    "pin": "; pin writes the manifest --manifest M names, and prints what it did",
    "scan": "; scan prints on stdout (> FILE, --json for JSON), --html FILE writes its report, and --add-checks, "
    "--accept and --reject write the manifest --manifest M names",
}


def closest_option(arguments: list[str], options, command: str | None = None) -> str:
    """``"; did you mean --manifest?"`` for the first option of ``arguments`` close to one of ``options``, else ``""``.

    A main-job option the command lacks (``FOREIGN_OPTIONS``) says where it belongs instead of a close match;
    ``--output`` to a ``command`` that writes the manifest says what it writes (``MANIFEST_OUTPUT_HINTS``).
    """
    for argument in arguments:
        if argument.startswith("--"):
            name = argument.split("=", 1)[0]
            if name == "--output" and command in MANIFEST_OUTPUT_HINTS and name not in options:
                return MANIFEST_OUTPUT_HINTS[command]
            if name in FOREIGN_OPTIONS and name not in options:
                return FOREIGN_OPTIONS[name]
            close = closest_spelling(name, options)
            if close:
                return f"; did you mean {close}?"
    return ""


def closest_spelling(name: str, options) -> str | None:
    """The option of ``options`` that ``name`` is a slip for, else ``None``: the one it begins, or the closest word.

    The words are compared without their ``--``, which every option shares: with it, difflib finds ``--check``
    close to ``--help`` and ``--list`` to ``--manifest``. ``--drop`` -> ``--drop-stale`` (the one option it
    begins), ``--manfest`` -> ``--manifest``, ``--check`` among sweep's options -> ``None``.
    """
    typed = name.removeprefix("--")
    words = {option.removeprefix("--"): option for option in options if option.startswith("--")}
    begun = [word for word in words if typed and word.startswith(typed)]
    if len(begun) == 1:
        return words[begun[0]]
    close = difflib.get_close_matches(typed, list(words), n=1)
    return words[close[0]] if close else None


INVALID_COMMAND = re.compile(r"argument COMMAND: invalid choice: '([^']*)'")


def closest_command(message: str) -> str:
    """``"; did you mean scan?"`` for argparse's refusal of a mistyped command (``scna``), else ``""``.

    A word that is a file name is never matched to a command; it says which option takes it: a manifest's ``--manifest``
    (``run.py m.json``), any other ``.json`` name the main job's ``--output`` (``run.py --manifest m.json r.json``).
    """
    refused = INVALID_COMMAND.search(message)
    if refused is None:
        return ""
    word = refused.group(1)
    if word in chunk_index.POLICY_NAMES:
        # "run.py pair-aware": a policy is built by the main job, not run as a command; pair-aware only when named.
        if word == chunk_index.PAIR_AWARE:
            return (
                f'; {word} is a policy, not a command: name it in the manifest\'s "policies" '
                f'({{"{word}": 400}}) and the main job builds it'
            )
        return f"; {word} is a policy, not a command: the main job builds it (run.py --output result.json)"
    # A word with a dot or a slash names a file, never a mistyped command ("notes.txt" is not "context").
    close = [] if "." in word or "/" in word else difflib.get_close_matches(word, COMMANDS, n=1)
    if close:
        return f"; did you mean {close[0]}?"
    if is_manifest_path(word):
        return f"; a manifest is given as --manifest {one_line(word)}"
    if word.lower().endswith(".json"):
        return f"; did you mean --output {one_line(word)}?"
    return ""


# The commands in the order --help lists them: each is a module ``commands.<name>``
# whose ``register`` adds its parser. "show" comes before "judge", which adds show's --chunks.
COMMANDS = ("validate", "show", "diff", "export", "pin", "sweep", "scan", "context", "judge", "retrieve")
# Commands whose parsers are built together: judge's ``register`` adds an option to show's.
BUILT_TOGETHER = {"show": ("show", "judge"), "judge": ("show", "judge")}


class UnbuiltCommand:
    """A command's place in a parser that has not built it: argparse reaching for its parser means it is needed."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __getattr__(self, name: str):
        raise FullParserNeeded(self.command)


def build_parser(quick: bool = False, command: str | None = None) -> argparse.ArgumentParser:
    """The main job's options and one subparser per command (see ``COMMANDS``), each with an example.

    ``quick`` builds only what the main job's own command line needs, in a
    fraction of the time: no description or epilog, and each command a name
    alone (``UnbuiltCommand``). Its parse either gives what the full parser
    would or raises ``FullParserNeeded`` (see ``parsed_arguments``). With
    ``command`` as well, that command's parser is built in full (with those
    ``BUILT_TOGETHER`` with it): what a command line naming it needs.
    """
    parser = LabArgumentParser(
        prog="run.py",
        usage="%(prog)s [--manifest M] --output FILE [--html FILE]\n       %(prog)s [--manifest M] COMMAND [options]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if not quick:
        parser.description = wrapped(
            "The chunk-boundary lab: build fixed-char, paragraph and heading-aware chunk "
            'indexes of hash-pinned sources (and pair-aware, when the manifest\'s "policies" '
            "names it) and show whether an API instruction and the "
            "qualifier that limits it, before or after it, land in the same chunk.\n\n"
            "The main job (no command): load the manifest, build its indexes, compare "
            "every span check and write the result to --output. The commands below look at, "
            "check or extend what it does; each has its own --help."
        )
        parser.epilog = "example:\n  python run.py --output result.json --html report.html\n\n" + EXIT_CODES_HELP
    parser.add_argument("--version", action="version", version=f"%(prog)s (chunk-boundary lab) {LAB_VERSION}")
    parser.add_argument("--manifest", metavar="M", default=None, help=MANIFEST_HELP)
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the result JSON here, atomically; '-' for stdout (the table then goes to stderr)",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML report here, atomically: each span check's verdict under every "
        "policy, a card per pair with its chunks' boundaries, each page that holds a pair laid out chunk by chunk, and "
        "the other pages a row each (their chunk counts)",
    )
    # The main job: run.py runs its own run_build (see the module docstring).
    parser.set_defaults(handler=None)
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", prog="run.py", parser_class=CommandArgumentParser
    )
    built = BUILT_TOGETHER.get(command, (command,))
    for name in COMMANDS:
        if quick and name not in built:
            commands.choices[name] = UnbuiltCommand(name)
        else:
            importlib.import_module(f"commands.{name}").register(commands)
    parser.quick = quick
    return parser


_QUICK_PARSER: list[argparse.ArgumentParser] = []


def quick_parser() -> argparse.ArgumentParser:
    """The quick parser (``build_parser(quick=True)``), built once per process as ``full_parser`` is, quick again.

    Every command line that is not the plain main job starts with it; a
    process that runs ``main`` many times (the tests do, about a thousand
    times) builds it once instead of each time. A parse leaves it quick or
    not (``parsed_arguments``, ``parsed_command_line``): it is handed out quick.
    """
    if not _QUICK_PARSER:
        _QUICK_PARSER.append(build_parser(quick=True))
    parser = _QUICK_PARSER[0]
    parser.quick = True
    return parser


_FULL_PARSER: list[argparse.ArgumentParser] = []


def full_parser() -> argparse.ArgumentParser:
    """The parser of every command, built once per process: its help texts are most of a short run's parse.

    Parsing leaves it unchanged, so a process that runs ``main`` many times
    (the tests do) reuses it; ``main`` calls each handler by its module and
    name (see ``current_handler``), so a function replaced after the build still runs.
    """
    if not _FULL_PARSER:
        _FULL_PARSER.append(build_parser())
    return _FULL_PARSER[0]


_COMMAND_PARSERS: dict[str, argparse.ArgumentParser] = {}


def command_parser(command: str) -> argparse.ArgumentParser:
    """The quick parser with ``command`` built (``build_parser``), built once per process as ``full_parser`` is."""
    if command not in _COMMAND_PARSERS:
        _COMMAND_PARSERS[command] = build_parser(quick=True, command=command)
    parser = _COMMAND_PARSERS[command]
    parser.quick = True
    return parser


def current_handler(args: argparse.Namespace):
    """The command's handler as its module holds it now, looked up by the name the parser recorded."""
    return getattr(sys.modules[args.handler.__module__], args.handler.__name__)


def parsed_arguments(
    parser: argparse.ArgumentParser, arguments: list[str]
) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """``arguments`` parsed by the quick ``parser`` when it can, else by the full one; and the parser that did it.

    The quick parser holds the same main-job options as the full one, so a
    command line without a command, ``--help`` or a mistake parses the same.
    A command line that reaches a command is parsed again from the start by a
    quick parser with that command built, whose options, help and errors are
    the full parser's (building every command's parser takes about 15 ms);
    anything else, and whatever that parser hands on, by the full parser,
    which gives every help text and error message as before.
    """
    try:
        args = parser.parse_args(arguments)
    except FullParserNeeded as needed:
        parser, args = reparsed(arguments, needed.command)
    parser.quick = False
    return parser, args


def reparsed(arguments: list[str], command: str | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """``arguments`` parsed again from the start, by a quick parser with ``command`` built when it can; else by the full one."""
    if command is not None:
        try:
            parser = command_parser(command)
            return parser, parser.parse_args(arguments)
        except FullParserNeeded:
            pass
    parser = full_parser()
    return parser, parser.parse_args(arguments)


def merged_manifest(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """One ``args.manifest`` from ``--manifest`` given before the command, after it, or both alike."""
    after = getattr(args, "command_manifest", None)
    if after is not None and args.manifest is not None and after != args.manifest:
        parser.error(given_twice("--manifest", args.manifest, after))
    if after is not None:
        args.manifest = after


def parsed_command_line(arguments: list[str]) -> argparse.Namespace | None:
    """``arguments`` parsed and checked (see ``parsed_arguments``); ``None`` after the one-line refusal when there are
    none."""
    parser = quick_parser()
    if not arguments:
        # One line, as every refusal is: the two forms the command line takes, and where each is explained.
        print(
            "error: usage: run.py: no command or --output given (run.py [--manifest M] --output FILE, or run.py "
            "COMMAND [options]); run.py --help explains each",
            file=sys.stderr,
        )
        return None
    unknown = unknown_leading_option(arguments)
    if unknown is not None:
        parser.quick = False
        parser.error(f"unrecognized arguments: {unknown}" + closest_option([unknown], MAIN_OPTIONS))
    parser, args = parsed_arguments(parser, arguments)
    merged_manifest(parser, args)
    if args.handler is None and args.output is None:
        parser.error("the main job needs --output FILE (or --output - for stdout)")
    misplaced = misplaced_options(args)
    if misplaced:
        parser.error(
            f"{' and '.join(misplaced)} before the command would be ignored by it; give the command's own options after its name"
        )
    return args


# The options before a command (or of the main job), and those of them that take a value.
MAIN_OPTIONS = ("--help", "--version", "--manifest", "--output", "--html")
VALUE_OPTIONS = frozenset({"--manifest", "--output", "--html"})


def unknown_leading_option(arguments: list[str]) -> str | None:
    """The first option before any command that the main parser does not know (``--manfest``), else ``None``.

    argparse would take the value after it for the command's name and refuse that instead ("invalid choice:
    'm.json'"), naming the wrong word. An option is known when it is one of ``MAIN_OPTIONS`` or ``-h``, spelled in
    full: an abbreviation (``--out``) is unknown, and its refusal names the option it begins (``closest_option``);
    a value after one that takes it is skipped.
    """
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        if argument in COMMANDS or argument == "--" or not argument.startswith("-") or argument == "-":
            return None
        name, has_value = argument.split("=", 1)[0], "=" in argument
        if name != "-h" and name not in MAIN_OPTIONS:
            return argument
        position += 1 if has_value or name not in VALUE_OPTIONS else 2
    return None


def misplaced_options(args: argparse.Namespace) -> list[str]:
    """Main-job options given with a command that does not read them, which would drop them silently.

    The main job reads all three; a command reads ``--manifest`` when it has
    one of its own (``add_manifest_option``), and none of the others.
    """
    if args.handler is None:
        used = {"output", "html", "manifest"}
    else:
        used = {"manifest"} if hasattr(args, "command_manifest") else set()
    return [
        f"--{name}"
        for name in ("output", "html", "manifest")
        if getattr(args, name, None) is not None and name not in used
    ]
