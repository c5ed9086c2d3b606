"""Open an HTML report in a real headless browser and check it as a reader would.

    python tests/browser_check.py                      # the lesson's report, built in a scratch folder
    python tests/browser_check.py report.html --screenshot top.png

It drives Chromium (or Chrome) over its DevTools pipe with the standard
library alone, loads the report from ``file://``, and checks: every link
points at an element of the page, every pair of the table is one click from
its card, a click on any column header sorts the pairs table by it, the
split-only view shows exactly the split pairs, no line of source text runs
past its cell (over the next policy's column), nothing is
loaded from anywhere, and the page loads within ``--max-load`` seconds. It
then loads the page again with script turned off and checks the views still
work. It prints the figures (bytes, load time, nodes, links, page height)
and, with ``--screenshot``, saves what a reader sees first.

Exit 0 when every check holds, 1 when one fails, and 0 with a ``skipped:``
line when no browser is installed: the project's checks (``.ci/run``) run it
wherever a browser is present. It is a script, not a unit test, so the test
suite stays quick; ``tests/test_browser_check.py`` tests its parts.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
# How long one answer of the browser may take before the check gives up.
ANSWER_SECONDS = 60.0

# Measured in the page: what a reader can reach, and what the split-only view shows.
FIGURES_SCRIPT = """(() => {
  const ids = new Set(Array.from(document.querySelectorAll("[id]"), (element) => element.id));
  const links = Array.from(document.querySelectorAll("a[href]"), (link) => link.getAttribute("href"));
  const broken = links.filter((href) => !href.startsWith("#") || !ids.has(decodeURIComponent(href.slice(1))));
  const rows = Array.from(document.querySelectorAll("#pair-table tbody tr"));
  const reachable = rows.filter((row) => {
    const link = row.querySelector('a[href^="#pair-"]');
    const card = link && document.getElementById(link.getAttribute("href").slice(1));
    return card !== null && card.classList.contains("card");
  });
  const navigation = performance.getEntriesByType("navigation")[0];
  return {
    nodes: document.getElementsByTagName("*").length,
    links: links.length,
    broken: broken.slice(0, 5),
    broken_count: broken.length,
    pairs: rows.length,
    cards: document.querySelectorAll("section.card").length,
    reachable: reachable.length,
    split_rows: rows.filter((row) => row.classList.contains("v-split")).length,
    split_view: document.getElementById("split") !== null,
    loaded_from_elsewhere: document.querySelectorAll("[src], link[href], object, embed, iframe").length,
    height: document.documentElement.scrollHeight,
    load_ms: navigation ? navigation.loadEventEnd : -1,
  };
})()"""
# Each column header of the pairs table clicked once: the columns whose rows are then out of order (by the cell's
# data-key, else its text; numbers as numbers), as a reader sorting the table would find them.
SORT_SCRIPT = """(() => {
  const table = document.getElementById("pair-table");
  if (!table) { return []; }
  const key = (cell) => (cell.hasAttribute("data-key") ? cell.getAttribute("data-key") : cell.textContent);
  const before = (x, y) => (x === "" || y === "" || isNaN(x) || isNaN(y)) ? x.localeCompare(y) <= 0 : x - y <= 0;
  const unsorted = [];
  Array.from(table.tHead.rows[0].cells).forEach((head, column) => {
    const button = head.querySelector("button");
    if (!button) { return; }
    button.click();
    const keys = Array.from(table.tBodies[0].rows, (row) => key(row.cells[column]));
    if (!keys.every((value, index) => index === 0 || before(keys[index - 1], value))) {
      unsorted.push(head.textContent);
    }
  });
  return unsorted;
})()"""
# The cells of source text (a card's lines, a page's text) whose text runs past the cell's right edge, over the next
# column. It lays out every card, so it runs on a page of its own: after it, sorting a large report's table lays
# them all out again on every click.
OVERFLOW_SCRIPT = """(() => Array.from(document.querySelectorAll(".lines td, .text td")).filter((cell) => {
  const edge = cell.getBoundingClientRect().right + 1;
  const range = document.createRange();
  range.selectNodeContents(cell);
  return Array.from(range.getClientRects()).some((box) => box.width > 0 && box.right > edge);
}).length)()"""
# Rows and cards shown once the split-only view is the target (hidden ones have no layout box).
SPLIT_VIEW_SCRIPT = """(() => {
  location.hash = "split";
  const shown = (selector) => Array.from(document.querySelectorAll(selector)).filter((e) => e.offsetParent !== null);
  return {rows: shown("#pair-table tbody tr").length, cards: shown("section.card").length};
})()"""


def find_browser(path: str | None = None) -> str | None:
    """The first Chromium or Chrome on ``path`` (``PATH`` when ``None``), or ``None``."""
    for name in BROWSERS:
        found = shutil.which(name, path=path)
        if found:
            return found
    return None


class DevToolsPipe:
    """One headless browser, spoken to over ``--remote-debugging-pipe``: JSON messages ending in a NUL byte."""

    def __init__(self, executable: str, profile: Path) -> None:
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def child_pipes() -> None:
            # The browser reads commands on descriptor 3 and writes answers on 4. Copies first, since
            # either pipe end may itself be 3 or 4; only 3 and 4 are kept open past this point.
            read_copy = os.dup(to_browser_read)
            write_copy = os.dup(from_browser_write)
            os.dup2(read_copy, 3)
            os.dup2(write_copy, 4)

        command = [
            executable,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=child_pipes,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Send one command and wait for its answer; events that arrive meanwhile are kept."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode("utf-8") + b"\0")
        while True:
            answer = self.receive()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str, session: str) -> dict:
        """The first event ``method`` of ``session``, already kept or still to come."""
        while True:
            for position, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(position)
            self.events.append(self.receive())

    def receive(self) -> dict:
        deadline = time.monotonic() + ANSWER_SECONDS
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise ConnectionError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (OSError, RuntimeError, ConnectionError, TimeoutError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


def open_page(browser: DevToolsPipe, url: str, script: bool = True) -> tuple[str, float]:
    """A new tab showing ``url`` (script on or off), once its load event fired; the session and the seconds taken."""
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    browser.send("Page.enable", session=session)
    browser.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        session,
    )
    if not script:
        browser.send("Emulation.setScriptExecutionDisabled", {"value": True}, session)
    started = time.monotonic()
    browser.send("Page.navigate", {"url": url}, session)
    browser.wait_for("Page.loadEventFired", session)
    return session, time.monotonic() - started


def evaluated(browser: DevToolsPipe, session: str, expression: str) -> dict:
    """The value of ``expression`` in the page (DevTools evaluates it even where the page's script is off)."""
    answer = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    return answer["result"]["value"]


def problems(figures: dict, split_view: dict, unscripted_view: dict, max_load: float) -> list[str]:
    """What a reader would find wrong, from the figures measured in the page (empty when all is well)."""
    found = []
    if figures["broken_count"]:
        found.append(f"{figures['broken_count']} links point at no element of the page, e.g. {figures['broken']}")
    if figures["reachable"] != figures["pairs"] or figures["cards"] != figures["pairs"]:
        found.append(
            f"{figures['pairs']} pairs in the table, {figures['cards']} cards, {figures['reachable']} one click away"
        )
    if figures["pairs"] and not figures["split_view"]:
        found.append("no split-only view (#split)")
    for name, view in (("with script", split_view), ("without script", unscripted_view)):
        if figures["pairs"] and (view["rows"], view["cards"]) != (figures["split_rows"], figures["split_rows"]):
            found.append(
                f"the split-only view {name} shows {view['rows']} rows and {view['cards']} cards"
                f" for {figures['split_rows']} split pairs"
            )
    if figures["unsorted_columns"]:
        found.append(f"a click on {', '.join(figures['unsorted_columns'])} leaves the pairs table out of order")
    if figures["overflowing"]:
        found.append(f"{figures['overflowing']} cells of source text run past their edge, over the next column")
    if figures["loaded_from_elsewhere"]:
        found.append(f"{figures['loaded_from_elsewhere']} elements load something from elsewhere")
    if figures["load_ms"] > max_load * 1000:
        found.append(f"loads in {figures['load_ms'] / 1000:.2f} s, over {max_load:g} s")
    return found


def check_report(
    browser_path: str, report: Path, screenshot: Path | None, max_load: float, at: str | None = None
) -> tuple[dict, list[str]]:
    """Load ``report`` twice (script on, then off) and return its figures and what is wrong with it.

    ``screenshot`` saves the first screen, or with ``at`` the screen a link to ``#at`` shows.
    """
    with tempfile.TemporaryDirectory() as profile:
        browser = DevToolsPipe(browser_path, Path(profile))
        try:
            url = report.resolve().as_uri()
            session, seconds = open_page(browser, url)
            figures = evaluated(browser, session, FIGURES_SCRIPT)
            figures["load_wall_seconds"] = round(seconds, 3)
            if screenshot is not None:
                if at is not None:
                    evaluated(browser, session, f"(() => {{ location.hash = {json.dumps(at)}; return true; }})()")
                picture = browser.send("Page.captureScreenshot", {"format": "png"}, session)
                screenshot.write_bytes(base64.b64decode(picture["data"]))
            figures["unsorted_columns"] = evaluated(browser, session, SORT_SCRIPT)
            split_view = evaluated(browser, session, SPLIT_VIEW_SCRIPT)
            quiet, _ = open_page(browser, url, script=False)
            figures["overflowing"] = evaluated(browser, quiet, OVERFLOW_SCRIPT)
            unscripted = evaluated(browser, quiet, SPLIT_VIEW_SCRIPT)
        finally:
            browser.close()
    figures["bytes"] = report.stat().st_size
    return figures, problems(figures, split_view, unscripted, max_load)


def lesson_report(folder: Path) -> Path:
    """Build the lesson's result and report in ``folder`` with the lab's own command line."""
    report = folder / "report.html"
    command = [sys.executable, str(ROOT / "run.py"), "--output", str(folder / "result.json"), "--html", str(report)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="browser_check.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("report", nargs="?", help="the report to check (default: the lesson's, built afresh)")
    parser.add_argument("--screenshot", metavar="PNG", help="save the first screen as a PNG")
    parser.add_argument("--at", metavar="ID", help="with --screenshot: the screen a link to #ID shows instead")
    parser.add_argument("--max-load", type=float, default=2.0, metavar="SECONDS", help="slowest load accepted")
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print(f"skipped: no browser found ({', '.join(BROWSERS)})")
        return 0
    screenshot = None if args.screenshot is None else Path(args.screenshot)
    with tempfile.TemporaryDirectory() as folder:
        report = Path(args.report) if args.report else lesson_report(Path(folder))
        figures, found = check_report(browser, report, screenshot, args.max_load, args.at)
    print(
        f"{report.name}: {figures['bytes']:,} bytes, loaded in {figures['load_ms'] / 1000:.2f} s"
        f" ({figures['load_wall_seconds']:.2f} s with the tab's start), {figures['nodes']:,} elements,"
        f" {figures['links']:,} links, {figures['height']:,} px high; pairs: {figures['pairs']:,} in the table,"
        f" {figures['reachable']:,} one click from their cards, {figures['split_rows']:,} split"
    )
    for problem in found:
        print(f"FAIL: {problem}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
