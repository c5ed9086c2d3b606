"""Every refusal code the lab's code can raise is in a refusal table of its docs.

The codes are read from the source itself (the first argument of every
``IngestionError`` or ``UsageError``, the codes ``require_same`` and
``require_keys`` are given, every ``error: CODE:`` line printed directly), the
tables from the docs' table rows: two independent
readings, so a new code without a row fails here.
"""

from __future__ import annotations

import ast
import re
import unittest

from lab_io.outputs import REPLACED_PROBLEMS
from tests.support import ROOT, syntax_nodes

CODE = re.compile(r"[a-z][a-z0-9_]*")
# Codes built at run time: ``duplicate_{field}`` over these two fields, ``output_is_{kind}`` over the kinds of file an
# output must not be (the keys of ``lab_io.outputs.REPLACED_PROBLEMS``).
COMPOSED_CODES = {"duplicate_source_id", "duplicate_path"} | {f"output_is_{kind}" for kind in REPLACED_PROBLEMS}


def lab_sources() -> list:
    """The lab's own Python files: everything but the tests."""
    return sorted(path for path in ROOT.rglob("*.py") if "tests" not in path.relative_to(ROOT).parts)


def constant(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def raised_codes(tree: ast.AST) -> set[str]:
    """The refusal codes a module's syntax tree names."""
    found = set()
    for node in syntax_nodes(tree):
        kind = type(node)
        if kind is ast.Call:
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            values = [constant(argument) for argument in node.args]
            if name in ("IngestionError", "UsageError") and values:
                found.add(values[0])
            elif name == "require_same" and len(values) == 4:
                found.add(values[3])
            elif name == "require_keys" and len(values) == 4 and values[3]:
                found.update({f"{values[3]}_not_object", f"{values[3]}_fields"})
        elif kind is ast.Assign and any(getattr(target, "id", "") == "code" for target in node.targets):
            # ``code = "json_trailing_data" if ... else "json_syntax"``
            choices = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value]
            found.update(constant(choice) for choice in choices)
        elif constant(node):
            found.update(re.findall(r"error: ([a-z][a-z0-9_]+): ", node.value))
    return {code for code in found if code and CODE.fullmatch(code)}


def tabled_codes() -> set[str]:
    """Every code written in backticks in a table row of the README or docs/."""
    codes = set()
    for path in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("| `"):
                codes.update(re.findall(r"`([a-z0-9_]+)`", line))
    return codes


class RefusalTables(unittest.TestCase):
    def test_every_code_the_lab_raises_is_in_a_refusal_table(self) -> None:
        raised = set(COMPOSED_CODES)
        for path in lab_sources():
            raised |= raised_codes(ast.parse(path.read_text(encoding="utf-8")))
        # The reading finds the codes it must: one of each way they are written.
        self.assertLessEqual(
            {"hash_mismatch", "index_mismatch", "document_fields", "python_too_old", "interrupted", "file_error"},
            raised,
        )
        self.assertEqual(sorted(raised - tabled_codes()), [])


if __name__ == "__main__":
    unittest.main()
