"""Shared helpers for the lab's tests: temporary copies of the inputs, running run.py, reforging, syntax trees.

Tests never write into the working tree: every file they make lives in a
``tempfile.TemporaryDirectory`` that ``addCleanup`` removes.
"""

from __future__ import annotations

import ast
import contextlib
import errno
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import chunk_index
from checks import span_checks
from load_documents import load_manifest

ROOT = Path(__file__).resolve().parent.parent
RUN_PY = ROOT / "run.py"
MANIFEST = ROOT / "manifest.json"
SOURCE_NAMES = ("aster-copy-v1.md", "aster-copy-v2.md")


@dataclass
class Completed:
    """What a run of ``run.py`` gave: exit code and the text of stdout and stderr (as ``CompletedProcess``)."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


class FullDisk(io.RawIOBase):
    """A stream that takes ``capacity`` bytes, writes short at the edge, then fails with ``ENOSPC`` like a full disk."""

    def __init__(self, capacity: int) -> None:
        super().__init__()
        self.capacity = capacity
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        room = self.capacity - len(self.data)
        if room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        taken = bytes(data[:room])
        self.data.extend(taken)
        return len(taken)

    def getvalue(self) -> bytes:
        return bytes(self.data)


def run_lab(
    *args: str,
    cwd: Path | None = None,
    env: dict | None = None,
    stdin: str | None = None,
    stdout_capacity: int | None = None,
) -> Completed:
    """Run ``run.main(ARGS)`` in this process as a user would run ``python run.py ARGS``, capturing text output.

    Working folder, environment and the three standard streams are swapped in
    for the call and restored after it; ``PYTHONIOENCODING`` picks the
    encoding of the captured streams, as it would for a real process. Exit
    codes from argparse (``--help``, usage errors) are caught like a process's.
    ``stdout_capacity`` puts stdout on a ``FullDisk`` of that many bytes.
    Only what a real process alone shows (signals, closed or full streams, a
    terminal) needs ``run_lab_process``.
    """
    import run

    environment = env or {}
    encoding = (environment.get("PYTHONIOENCODING") or "utf-8").split(":")[0]
    stdout_bytes = io.BytesIO() if stdout_capacity is None else FullDisk(stdout_capacity)
    stderr_bytes = io.BytesIO()
    stdout = io.TextIOWrapper(stdout_bytes, encoding=encoding, errors="strict", newline="\n", write_through=True)
    stderr = io.TextIOWrapper(
        stderr_bytes, encoding=encoding, errors="backslashreplace", newline="\n", write_through=True
    )
    previous_folder = os.getcwd()
    try:
        with mock.patch.dict(os.environ, environment), mock.patch.object(sys, "stdin", io.StringIO(stdin or "")):
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                os.chdir(cwd or ROOT)
                try:
                    code = run.main(list(args))
                except SystemExit as leaving:
                    code = leaving.code if isinstance(leaving.code, int) else 2
                stderr.flush()
    finally:
        os.chdir(previous_folder)
    return Completed(
        list(args), code, stdout_bytes.getvalue().decode("utf-8", "replace"), stderr_bytes.getvalue().decode("utf-8")
    )


def run_lab_process(
    *args: str, cwd: Path | None = None, env: dict | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess:
    """Run ``python run.py ARGS`` as a separate process, for what only a real process shows."""
    return subprocess.run(
        [sys.executable, str(RUN_PY), *args],
        cwd=cwd or ROOT,
        env={**os.environ, **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def syntax_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` that ``ast.walk`` gives, gathered in one list, without the generators that slow it."""
    nodes = [tree]
    for node in nodes:
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                nodes.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                nodes.append(value)
    return nodes


def fixture_result() -> dict:
    """The result of the lab's own manifest, built in-process."""
    manifest = load_manifest(MANIFEST)
    check = manifest.span_checks[0]
    return span_checks.build_result(
        manifest.sources, check.source_id, check.instruction.as_list(), check.qualifier.as_list()
    )


def loaded_source(text: str, source_id: str = "page", title: str | None = None) -> dict:
    """A source as the loader hands it to the builder (the seven fields plus ``text``) holding ``text``."""
    return {
        "source_id": source_id,
        "path": f"docs/{source_id}.md",
        "title": source_id if title is None else title,
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "version": "1.0",
        "url": f"local:docs/{source_id}.md",
        "fact_status": "test text",
        "text": text,
    }


def reforge_index(index: dict) -> dict:
    """Recompute every chunk id and the index id after a tamper, as a careful forger would.

    What is left is an index whose hashes all agree with its (changed) content,
    so only re-deriving the chunks from the documents can catch the change.
    """
    config = index["config"]
    for chunk in index["chunks"]:
        chunk["text_sha256"] = chunk_index.sha(chunk["text"])
        payload = {key: value for key, value in chunk.items() if key != "chunk_id"}
        chunk["chunk_id"] = chunk_index.digest({"config": config, **payload})
    body = {key: value for key, value in index.items() if key != "index_id"}
    index["index_id"] = chunk_index.digest(body)
    return index


class LabTestCase(unittest.TestCase):
    """A test with its own temporary folder, ``self.folder``, removed afterwards."""

    def setUp(self) -> None:
        super().setUp()
        temporary = tempfile.TemporaryDirectory(prefix="chunk-lab-test-")
        self.addCleanup(temporary.cleanup)
        self.folder = Path(temporary.name)

    def copy_inputs(self, folder: Path | None = None) -> Path:
        """Copy manifest.json and the pinned sources into ``folder``; return the manifest's path."""
        folder = folder or self.folder
        (folder / "docs").mkdir(parents=True, exist_ok=True)
        for name in SOURCE_NAMES:
            shutil.copyfile(ROOT / "docs" / name, folder / "docs" / name)
        shutil.copyfile(MANIFEST, folder / "manifest.json")
        return folder / "manifest.json"

    def set_span_checks(self, manifest: Path, checks: list[dict]) -> None:
        """Make ``checks`` the span checks of the manifest at ``manifest``, the rest of it as it is."""
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"] = checks
        manifest.write_text(json.dumps(value, indent=2), encoding="utf-8")

    def write_json(self, name: str, value: object) -> Path:
        path = self.folder / name
        path.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")
        return path

    def assert_validated(
        self, completed: Completed, shown: str, saved: Path, manifest: str | None = None, recorded: tuple = ()
    ) -> None:
        """``validate`` accepted ``saved`` (named ``shown``): exit 0, nothing on stderr, and exactly its "ok" lines.

        The line lists each index of the file as the README shows it: its policy, its chunks and the first
        12 digits of its id, as the file holds them; ``--manifest`` and ``--index-id`` add one line each.
        """
        value = json.loads(saved.read_text(encoding="utf-8"))
        kind = "result" if "indexes" in value else "index"
        indexes = value["indexes"] if kind == "result" else {value["config"]["strategy"]: value}
        listed = ", ".join(
            f"{name} {len(index['chunks']):,} chunk{'' if len(index['chunks']) == 1 else 's'}"
            f" (index {index['index_id'][:12]})"
            for name, index in indexes.items()
        )
        lines = [f"ok: {shown}: {kind} re-derived exactly: {listed}"]
        if manifest is not None:
            lines.append(f"ok: {shown}: current: its documents match the pins of {manifest}")
        if recorded:
            lines.append(f"ok: {shown}: index ids match the recorded ones ({', '.join(recorded)})")
        self.assertEqual((completed.returncode, completed.stderr), (0, ""), completed.stderr)
        self.assertEqual(completed.stdout, "".join(line + "\n" for line in lines))

    def assert_one_line_refusal(
        self, completed: Completed | subprocess.CompletedProcess, code: str, exit_code: int = 1
    ) -> None:
        """The run failed with ``exit_code`` and one ``error: <code>: …`` line, no traceback."""
        self.assertEqual(completed.returncode, exit_code, completed.stderr)
        lines = completed.stderr.splitlines()
        self.assertEqual(len(lines), 1, completed.stderr)
        self.assertTrue(lines[0].startswith(f"error: {code}: "), lines[0])
        self.assertNotIn("Traceback", completed.stderr)
