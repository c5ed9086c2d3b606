"""Start the chunk-boundary lab's command line: ``python run.py --help``.

    python run.py --output result.json     build the three indexes, compare, write the result
    python run.py validate result.json     re-derive a saved result or index; refuse any change

Every command lives in ``command_line.py``. This file only starts it: Python
compiles the script it is given from source on every run (about 15 ms for the
whole command line), but reads an imported module's cached bytecode.
"""

import sys

import command_line

if __name__ == "__main__":
    raise SystemExit(command_line.main())

# ``import run`` (the tests, docs/examples) is the command line itself, so patching ``run.X`` patches what runs.
sys.modules[__name__] = command_line
