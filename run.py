"""The chunk-boundary lab's entry point: ``python run.py --output result.json``, or ``python run.py COMMAND``.

    python run.py --output result.json     build the three indexes, compare, write the result
    python run.py validate result.json     re-derive a saved result or index; refuse any change
    python run.py --help                   every command, each with its own --help

The command line itself lives in ``commands/``. Python compiles the script it
runs on every start and caches only what it imports, so this file stays a few lines.
"""

from commands.main_job import main

if __name__ == "__main__":
    raise SystemExit(main())
