"""The chunk-boundary lab's entry point: ``python run.py --output result.json``, or ``python run.py COMMAND``.

    python run.py --output result.json     build the three indexes, compare, write the result
    python run.py validate result.json     re-derive a saved result or index; refuse any change
    python run.py --help                   every command, each with its own --help

The command line itself lives in ``commands/``: this file only checks the
interpreter, in syntax every Python 3 reads, before anything else is imported.
"""

import sys

if sys.version_info < (3, 10):
    sys.stderr.write(
        "error: python_too_old: run.py: the chunk-boundary lab needs Python 3.10 or newer; this is Python %d.%d\n"
        % sys.version_info[:2]
    )
    raise SystemExit(2)

try:
    from commands.main_job import main  # noqa: E402 (after the version check, which must come first)
except KeyboardInterrupt:
    # Ctrl-C while the lab is still being imported: nothing is written yet, and main's own handler is not there.
    sys.stderr.write("error: interrupted: run.py: stopped by SIGINT; every output file is whole or as it was\n")
    raise SystemExit(130)

if __name__ == "__main__":
    raise SystemExit(main())
