"""Write ``checks/caveats/anchor_table.py`` again: what the rules' patterns give ``anchors``, under this Python.

Run from the repository's root after a change to a rule's pattern or to ``checks/caveats/anchors.py``, under
each Python the table should serve (``python3.10 tests/write_anchor_table.py``, ``python3.13 …``): each run
writes its own Python's section and keeps the others that were written for the same ``anchors.py``. The table
only saves time; a stale one costs a scan its import's 75 ms again, never an answer
(``tests/test_caveat_anchors.py`` says when it is stale).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checks.caveats import anchors, pairing  # noqa: E402  (the import asks what the table answers)

TABLE_PATH = ROOT / "checks" / "caveats" / "anchor_table.py"
HEADER = '''"""What ``checks.caveats.anchors`` reads off the rules' patterns, written down (its "written down" part).

Written by ``python tests/write_anchor_table.py``; never edit by hand. Each section holds the
``anchors.py`` it was written for (a SHA-256 of its bytes), the Pythons whose parser gives its answers, and the
answers, keyed by ``anchors.answer_key``.
"""

'''


# A string longer than this, quoted, is cut into pieces.
PIECE = 80


def literal(value, indent: int = 0) -> str:
    """``value`` (lists, dicts, strings, booleans, ``None``) as Python source, one item a line, and a string longer
    than ``PIECE`` characters quoted cut into pieces the parser joins again: every line stays under 120 characters."""
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        items = [f"{pad}{literal(key)}: {literal(item, indent + 4)}," for key, item in sorted(value.items())]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list):
        items = [f"{pad}{literal(item, indent + 4)}," for item in value]
        return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"
    if isinstance(value, str) and len(repr(value)) > PIECE:
        # Cut where each piece, quoted and escaped, fits the line its indent leaves.
        room = 116 - len(pad)
        pieces, start = [], 0
        while start < len(value):
            end = start + 1
            while end < len(value) and len(repr(value[start : end + 1])) <= room:
                end += 1
            pieces.append(repr(value[start:end]))
            start = end
        return "(\n" + "\n".join(pad + piece for piece in pieces) + "\n" + " " * indent + ")"
    return repr(value)


def main() -> int:
    assert pairing.CUE_ANCHORS is not None
    try:
        from checks.caveats.anchor_table import TABLE
    except ImportError:
        TABLE = []
    answers = anchors.table_answers()
    # The sections of other Pythons written for this anchors.py; this Python's own answers join the one that
    # holds the same, or make one of their own.
    sections = []
    for section in TABLE:
        pythons = [python for python in section["pythons"] if python != anchors.PYTHON]
        if section["code"] == anchors.CODE_DIGEST and (pythons or section["answers"] == answers):
            sections.append({**section, "pythons": pythons})
    same = next((section for section in sections if section["answers"] == answers), None)
    if same is None:
        sections.append({"code": anchors.CODE_DIGEST, "pythons": [anchors.PYTHON], "answers": answers})
    else:
        same["pythons"] = sorted(
            same["pythons"] + [anchors.PYTHON], key=lambda python: tuple(map(int, python.split(".")))
        )
    body = literal(sections)
    TABLE_PATH.write_text(HEADER + "TABLE = " + body + "\n", encoding="utf-8")
    served = sorted(python for section in sections for python in section["pythons"])
    print(f"wrote {TABLE_PATH.relative_to(ROOT)}: {len(sections)} section(s), for Python {', '.join(served)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
