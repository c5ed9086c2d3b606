"""Source text made visible and inert, for the terminal and for HTML.

Source text is untrusted data. Every view passes each piece of it through
``visible`` first, so a control character, a bidirectional override or one of
the view's own marker characters is shown as an escape (``\\x1b``) instead of
acting on the terminal or passing for a marker; the HTML views then escape it
with ``escaped`` (``html.escape``) as well.
"""

from __future__ import annotations

import html
import re
import unicodedata

# The view's own markers. Source text holding one of them is shown escaped, so a
# marker on screen always comes from the lab, never from the text.
NEWLINE_MARK = "⏎"
CUT_MARK = "¦"
OPEN_BRACKET = "⟦"
CLOSE_BRACKET = "⟧"
_RESERVED_CHARACTERS = frozenset({NEWLINE_MARK, CUT_MARK, OPEN_BRACKET, CLOSE_BRACKET})
# Characters that are invisible or act on the terminal rather than print:
# controls (ESC starts an escape sequence), format characters (bidirectional
# overrides, zero-width joiners), line and paragraph separators, lone surrogates.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})

LEGEND_TERMS = (
    f"{NEWLINE_MARK} a newline the chunk holds",
    f"{CUT_MARK} a boundary inside a line",
    "│ text in a chunk",
    "· text outside every chunk",
    "\\xNN \\uNNNN a control or invisible character",
    "\\\\ a backslash",
)


def escape_code(character: str) -> str:
    """Python-style escape for one character: ``"\\x1b"`` -> ``"\\\\x1b"``, ``"\\u202e"`` -> ``"\\\\u202e"``."""
    code = ord(character)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible_character(character: str) -> str:
    """How the view shows one character of source text.

    ``"\\n"`` -> ``"⏎"``, ``"\\t"`` -> ``"\\\\t"``, ``"\\\\"`` -> ``"\\\\\\\\"``, ``"\\x1b"`` -> ``"\\\\x1b"``,
    ``"⟦"`` -> ``"\\\\u27e6"``; anything printable is itself.
    """
    if character == "\n":
        return NEWLINE_MARK
    if character == "\t":
        return "\\t"
    if character == "\\":
        return "\\\\"
    if character in _RESERVED_CHARACTERS or unicodedata.category(character) in _HIDDEN_CATEGORIES:
        return escape_code(character)
    return character


def visible(text: str) -> str:
    """``text`` with every newline, control, invisible or marker character made visible and inert.

    ``visible("a\\x1b[2J\\n")`` -> ``"a\\\\x1b[2J⏎"``: the escape sequence is shown, never run.
    """
    return visible_runs(text, keep_backslash=False)


# The characters shown otherwise whatever their category: between them, a run of text
# that ``str.isprintable`` accepts holds no control, format, separator or surrogate
# character (all "Other" or "Separator" to Unicode) and is shown as it is, in one step.
_REWRITTEN = "\n\t\\" + "".join(sorted(_RESERVED_CHARACTERS))
_PIECES = re.compile(f"([^{re.escape(_REWRITTEN)}]+)|(.)", re.DOTALL)


def visible_runs(text: str, keep_backslash: bool) -> str:
    """``visible`` (or, with ``keep_backslash``, ``visible_message``) a run at a time, not a character at a time.

    Only a run holding a character ``str.isprintable`` refuses (a control, but
    also a no-break space) is looked at character by character.
    """
    parts = []
    for run, single in _PIECES.findall(text):
        if single:
            parts.append(single if keep_backslash and single == "\\" else visible_character(single))
        elif run.isprintable():
            parts.append(run)
        else:
            parts.append("".join(visible_character(character) for character in run))
    return "".join(parts)


def escaped(text: str) -> str:
    """``text`` as HTML text or attribute value: ``escaped('</b>"')`` -> ``'&lt;/b&gt;&quot;'``."""
    return html.escape(text, quote=True)


def visible_message(line: str) -> str:
    """A message line with newlines, controls and marker characters made visible, its backslashes kept.

    For lines whose untrusted parts are already escaped JSON: ``visible_message('holds "a\\nb"')``
    -> ``'holds "a\\nb"'``, where ``visible`` would double the backslash.
    """
    return visible_runs(line, keep_backslash=True)


def visible_lines(text: str) -> str:
    """``text`` with each line made visible (see ``visible``) and the line breaks kept."""
    return "\n".join(visible(line) for line in text.split("\n"))
