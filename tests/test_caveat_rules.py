"""The caveat rules of ``scan_version`` 4 to 6, each on a short text written for the test.

Expected caveats, instructions and pairs are derived from the rules as
``docs/caveats.md`` states them ("How scan finds a caveat"), never read back
from the scan: the cue table is parsed from the document itself, and the
other cases quote the rule they check.
"""

from __future__ import annotations

import random
import re
import unittest

import grammars
from checks.caveats import findings, masking, pairing, rules, sentences
from grammars import Block, Section
from tests.support import ROOT, LabTestCase

INSTRUCTION = "Call open_widget(name) to open it."


def lesson(body: str) -> str:
    """A one-section text: ``# T`` and ``## S`` headings, then ``body``."""
    return "# T\n\n## S\n\n" + body


def scan(text: str, grammar: str = "lesson") -> tuple[list, list]:
    return pairing.scan_text("doc", text, grammar)


def reading(sentence: str) -> str:
    """A sentence as the rules read it: code masked, markup blanked."""
    return rules.prose_view(masking.masked_code(sentence, [])[0])


def cues_of(sentence: str) -> list[tuple[str, str]]:
    """``(rule, cue)`` of every cue the rules find in one sentence, before weighing."""
    return [(cue.rule, cue.cue) for cue in rules.sentence_cues(reading(sentence))]


def caveat_of(sentence: str, before_fence: bool = False, reference: bool = False, note: bool = False):
    """The sentence's caveat cue and instruction form, as ``classified`` weighs them."""
    return pairing.classified(reading(sentence), before_fence, reference, note)


def assert_no_caveat_below_tier_3(test: unittest.TestCase, sentences) -> None:
    """Each sentence, as ``classified`` weighs it, holds no caveat or one of tier 3 only."""
    for sentence in sentences:
        with test.subTest(sentence=sentence):
            cue, _ = caveat_of(sentence)
            test.assertTrue(cue is None or cue.tier == 3, (sentence, cue))


def form_of(sentence: str, before_fence: bool = False):
    return rules.instruction_form(reading(sentence), before_fence, False)


def documented_cues() -> list[tuple[str, int, str]]:
    """Every ``(rule, tier, cue)`` of the cue table in docs/caveats.md, cues as written there in backticks."""
    lines = (ROOT / "docs" / "caveats.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| rule | tier | cues (as written) |")
    found = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rule, tier, cues = (cell.strip() for cell in line.strip("|").split("|"))
        found.extend((rule, int(tier), cue) for cue in re.findall(r"`([^`]+)`", cues))
    return found


class CueTableTest(LabTestCase):
    """Every cue the documentation lists is found, with its rule; so dropping one from the code fails here."""

    def test_the_table_is_read(self) -> None:
        listed = documented_cues()
        self.assertGreater(len(listed), 150)
        self.assertEqual(
            {rule for rule, _, _ in listed},
            {
                "prohibition",
                "requirement",
                "condition",
                "limitation",
                "error",
                "deprecation",
                "version",
                "risk",
                "label",
            },
        )

    def test_every_documented_cue_is_found_as_written(self) -> None:
        for rule, _, cue in documented_cues():
            with self.subTest(rule=rule, cue=cue):
                sentence = f"{cue[0].upper()}{cue[1:]} keep the handle."
                self.assertIn((rule, cue.lower()), cues_of(sentence))

    def test_one_sentence_per_family(self) -> None:
        # Written for the test, one per rule of the table, the cue typed here rather than taken from any list.
        cases = {
            "You must not close the handle twice.": ("prohibition", "must not"),
            "The handle can't be shared.": ("prohibition", "can't"),
            "Avoid sharing the handle.": ("prohibition", "avoid"),
            "The token must be a string.": ("requirement", "must"),
            "SSH authentication requires the username git.": ("requirement", "requires"),
            "It retries only if the request is idempotent.": ("condition", "only if"),
            "Every field is copied, except the id.": ("condition", "except"),
            "DER-encoded files are not supported.": ("limitation", "are not supported"),
            "The widget does not sync extras by default.": ("limitation", "does not"),
            "Files that fail the check are silently ignored.": ("limitation", "are silently ignored"),
            "It throws KeyError on a closed widget.": ("error", "throws"),
            "A second open raises ValueError.": ("error", "raises"),
            "A batch over 100 parcels is refused.": ("error", "is refused"),
            "The list_route decorator is deprecated.": ("deprecation", "deprecated"),
            "Before 0.108.0, the name was the first parameter.": ("version", "before 0.108.0"),
            "Widgets require version 3.8 or later.": ("version", "3.8 or later"),
            "Use the flag with caution.": ("risk", "with caution"),
            "Warning: the handle is shared.": ("label", "warning:"),
        }
        for sentence, expected in cases.items():
            with self.subTest(sentence=sentence):
                self.assertIn(expected, cues_of(sentence))

    def test_matching(self) -> None:
        # Any case, any whitespace between the words, either apostrophe, whole words only.
        self.assertIn(("prohibition", "never"), cues_of("NEVER reuse the handle."))
        self.assertIn(("prohibition", "must not"), cues_of("The handle Must\nNot be reused."))
        self.assertIn(("prohibition", "don't"), cues_of("Don’t reuse the handle."))
        # After its subject, "don't" says what something does: a limitation.
        self.assertIn(("limitation", "don't"), cues_of("Clients don't send a body."))
        for sentence in (
            "Nevertheless, the widget opens.",
            "A refusal is logged.",
            "The failsafe engages.",
            "Unlessly is not a word we use.",
            "Pass `never` as the mode.",
            "The literal ``must not`` is a keyword.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn("never", [cue for _, cue in cues_of(sentence)])
                self.assertFalse(any(rule in ("error", "condition") for rule, _ in cues_of(sentence)))

    def test_markup_is_blanked(self) -> None:
        # "**not**" reads as "not"; a "deprecated" in a link target is no cue.
        self.assertIn(("limitation", "will not"), cues_of("HTTPX will **not** follow redirects."))
        self.assertEqual(cues_of("Read the [guide](../deprecated/guide.md) first."), [])

    def test_the_strongest_cue_names_the_caveat(self) -> None:
        # Tier 1 "never" beats tier 2 "does not", though it comes later.
        cue, _ = caveat_of("It does not retry, and never waits.")
        self.assertEqual((cue.rule, cue.cue, cue.tier), ("prohibition", "never", 1))


class TurnOfPhraseTest(LabTestCase):
    """The turns of phrase of the docs' table warn of nothing; the true warnings beside them stay caveats."""

    def test_no_caveat(self) -> None:
        assert_no_caveat_below_tier_3(
            self,
            (
                # obligation removed
                "You don't have to close the widget.",
                "You DON'T\nreally need to close the widget.",
                "It never needs to be closed.",
                "A restart is not required.",
                "The project does not need to be installed.",
                "We no longer need to set the queryset.",
                # reassurance and idiom
                "It won't affect performance.",
                "It is not only fast but small.",
                # what a tool spares the reader (scan_version 13)
                "The library doesn't force you to use type annotations.",
                "They won't conflict with the packages you already have.",
                "Your users won't notice a difference.",
                "Its dependencies do not conflict with yours.",
                # purpose
                "Open it on port 9999 so that you don't have to run it as root.",
                "Pin the version to avoid conflicts.",
                "Close the pool to ensure that connections end.",
                # a promise, not a requirement
                "The framework will make sure it runs in a thread.",
                "The editor won't complain about it.",
                # narration
                "In the example above, we don't use it directly.",
                # expected outcome
                "After installing it, it should be available.",
                "The server should reload automatically.",
                # not a limit
                "This is the only way to open it.",
                "You almost never use them directly.",
                "Responses may or may not have a body.",
                # figurative
                "This raises the question of ordering.",
            ),
        )

    def test_still_a_caveat(self) -> None:
        cases = {
            "You don't have a second chance.": "don't",
            "We don't support shared widgets.": "don't",
            "It is locked, so you cannot open it twice.": "cannot",
            "It raises ValueError on a second open.": "raises",
            "You don't have to close it, but it fails on reuse.": "fails",
            "It won't work on Windows.": "won't",
            "It only works on Linux.": "only works",
            # A rule about conflicts, and a prohibition, are no reassurance (scan_version 13).
            "The name cannot conflict with a built-in command.": "cannot",
            "Don't force the install.": "don't",
            # "must" and "need to" before what is expected still ask for it (scan_version 13).
            "Before a plugin can be used, it must be installed on the system.": "must",
            "The template needs to be available on the path.": "needs to",
        }
        for sentence, expected in cases.items():
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertEqual(cue.cue, expected)


class FalseAlarmTest(LabTestCase):
    """Each false alarm family that real docs showed: no caveat, no instruction, or no pair where none is."""

    def test_idioms_and_reassurance(self) -> None:
        for sentence in (
            "If you just don't know, use normal `def`.",
            "Don't worry if some of these items don't make sense yet.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIsNone(caveat_of(sentence)[0])

    def test_error_words_used_descriptively(self) -> None:
        self.assertIsNone(caveat_of("The error identifies the argument and value that were rejected.")[0])

    def test_narration_in_a_section_without_code(self) -> None:
        # The section holds no fence, no code span and no call: its cues are tier 3, left out at --tier 2.
        story = "While you wait for the burgers, you cannot pay attention to your crush."
        pairs, unpaired = scan(lesson(f"Keep the line moving.\n\n{story}\n"))
        self.assertEqual([pair.tier for pair in pairs] + [item.tier for item in unpaired], [3])
        self.assertEqual(findings.kept_to_tier((pairs, unpaired), 2), ([], []))

    def test_a_stated_fact_in_a_section_without_code(self) -> None:
        # scan_version 21: there an outright requirement, limitation or condition (tier 1 elsewhere) is of tier 2,
        # a prohibition or an error of tier 3, as a weaker cue of any rule is; from scan_version 34 a requirement or
        # a limitation of tier 2 stays of tier 2 ("needs to", "does not"), a condition of tier 2 ("except") is of tier 3.
        cases = {
            "Every plugin must be written in Python.": 2,
            "Suspension is not supported on the web.": 2,
            "Input checks run only for the first agent.": 2,
            "You cannot pay attention to your crush.": 3,
            "The run fails before it connects.": 3,
            "Every plugin needs to be written in Python.": 2,
            "The server does not parse the log lines.": 2,
            "Every field is copied, except the id.": 3,
        }
        for sentence, tier in cases.items():
            with self.subTest(sentence=sentence):
                pairs, unpaired = scan(lesson(f"Keep the line moving.\n\n{sentence}\n"))
                self.assertEqual([(pair.qualifier.quote, pair.tier) for pair in pairs], [(sentence, tier)])
                self.assertEqual(unpaired, [])

    def test_a_caveat_before_its_instruction_keeps_its_role(self) -> None:
        text = lesson("Never reuse the handle of `open_widget`.\n\nCall open_widget(name) to open one.\n")
        pairs, _ = scan(text)
        self.assertEqual(
            [(pair.qualifier.quote, pair.instruction.quote) for pair in pairs],
            [("Never reuse the handle of `open_widget`.", "Call open_widget(name) to open one.")],
        )

    def test_a_sentence_that_only_holds_code_is_no_instruction(self) -> None:
        text = lesson("- **Uvicorn** with `--workers`\n\nIt never restarts a worker.\n")
        pairs, unpaired = scan(text, "blocks-2")
        self.assertEqual((pairs, [item.span.quote for item in unpaired]), ([], ["It never restarts a worker."]))

    def test_an_option_list_is_not_paired_line_with_line(self) -> None:
        text = lesson(
            "- `--help`: Display help information.\n- `--quiet`: Do not output any message.\n"
            "- `--verbose` - Never suppress a warning.\n"
        )
        self.assertEqual(scan(text, "blocks-2"), ([], []))

    def test_a_warning_block_that_says_skip_this(self) -> None:
        text = lesson("Call open_widget(name).\n\n!!! warning\n    You can probably skip this.\n")
        self.assertEqual(scan(text, "blocks-2"), ([], []))

    def test_one_sentence_is_never_a_caveat_and_the_next_instruction(self) -> None:
        text = lesson("Call open_widget(name) first. Never call close_widget(name) twice. It fails on reuse.\n")
        pairs, _ = scan(text)
        self.assertEqual([pair.instruction.quote for pair in pairs], ["Call open_widget(name) first."] * 2)


class SentenceRulesTest(LabTestCase):
    """The rules that read a sentence as a whole."""

    def test_questions_reasons_recommendations(self) -> None:
        for sentence in (
            "Can't you just reuse the handle?",
            "This is because proxying requires a connection.",
            "We recommend a credential helper instead.",
            "It is recommended to never share it.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))

    def test_a_condition_before_an_instruction_is_the_instructions_own(self) -> None:
        self.assertEqual(caveat_of("If you need to support Windows, use the `--compat` flag."), (None, "imperative"))
        cue, form = caveat_of("If you don't pass a name, a default is used.")
        self.assertEqual((cue.cue, cue.tier, form), ("don't", 3, None))
        cue, _ = caveat_of("If the project does not define a build system, it will not be installed.")
        self.assertEqual((cue.rule, cue.tier), ("limitation", 2))

    def test_before_code_only_prohibitions_and_requirements_count(self) -> None:
        self.assertEqual(caveat_of("For example, the following command will fail:", before_fence=True), (None, None))
        cue, _ = caveat_of("Do not run this on a live queue:", before_fence=True)
        self.assertEqual(cue.cue, "do not")

    def test_a_reference_entry(self) -> None:
        self.assertTrue(rules.is_reference_entry(reading("`--quiet`: Do not print.")))
        self.assertEqual(caveat_of("Do not print anything.", reference=True), (None, None))
        cue, _ = caveat_of("Deprecated since 2.0.", reference=True)
        self.assertEqual(cue.rule, "deprecation")

    def test_a_reference_entry_s_term_ends_where_it_ended_before_the_pattern_was_made_linear(self) -> None:
        # The pattern as scan_version 66 first wrote it, whose runs of masked code cost the cube of their length.
        cubic = re.compile(r"[\s\x00]*(?:\x00+|[A-Za-z][\w.-]*)[\s\x00]*(?::|\s[-–—]\s)|[\s\x00]*\x00+[\s\x00]*$")
        # Masked code then a colon, a spaced dash, or nothing; a word and a colon: where each match ends, by hand.
        for text, end in (
            ("\x00\x00 : x", 4),
            (" \x00 - the x", 5),
            ("\x00 \x00\n", 4),
            ("key.sub: x", 8),
            ("\x00x", None),
        ):
            with self.subTest(text=text):
                match = rules.REFERENCE_ENTRY.match(text)
                self.assertEqual(None if match is None else match.end(), end)
        chosen = random.Random(66)
        for _ in range(20_000):
            text = "".join(chosen.choice(" \x00\x00a-:–\n.") for _ in range(chosen.randrange(9)))
            new, old = rules.REFERENCE_ENTRY.match(text), cubic.match(text)
            self.assertEqual(None if new is None else new.end(), None if old is None else old.end(), repr(text))

    def test_release_notes_are_not_read(self) -> None:
        for title in ("1.8.0", "[2.0] - 2024-01-31", "Unreleased", "v3.1.4"):
            with self.subTest(title=title):
                text = f"# T\n\n## {title}\n\nAdd the `--quiet` flag.\n\nThe `--loud` flag no longer exists.\n"
                self.assertEqual(scan(text), ([], []))

    def test_weaker_and_stronger(self) -> None:
        # A relative clause, a concessive clause, an example: tier 3; a note: one tier stronger.
        assert_no_caveat_below_tier_3(
            self,
            (
                "Use streaming responses that do not load the body.",
                "Even if the dependencies are not added, it works.",
                "For example, an upgrade will not go beyond that bound.",
            ),
        )
        cue, _ = caveat_of("Your API almost always has to send a body.")
        self.assertEqual((cue.cue, cue.tier), ("has to", 3))
        cue, _ = caveat_of("It requires a Rust toolchain.", note=True)
        self.assertEqual((cue.rule, cue.tier), ("requirement", 1))
        # A description stays one in a note: tier 3.
        cue, _ = caveat_of("Even if the dependencies are not added, it works.", note=True)
        self.assertEqual(cue.tier, 3)
        self.assertIsNone(caveat_of("We'll also need a migration for the model.")[0])
        # A sentence opening on "However" states an exception: tier 2; elsewhere "however" is tier 3.
        cue, _ = caveat_of("However, the `--only-group` option also excludes default groups.")
        self.assertEqual((cue.cue, cue.tier), ("however", 2))
        cue, _ = caveat_of("The default, however, is kept.")
        self.assertEqual((cue.cue, cue.tier), ("however", 3))

    def test_a_section_without_code(self) -> None:
        # Narration's cues are tier 3 there; a version cue keeps its tier.
        pairs, unpaired = scan(lesson("Keep the line moving.\n\nThese features came with uv version 0.5.3 or later.\n"))
        self.assertEqual([(item.rule, item.caveat_tier) for item in pairs], [("version", 2)])


class BlockRulesTest(LabTestCase):
    """Cautionary blocks and version notes read as a whole, by label; other blocks sentence by sentence."""

    def scan_blocks(self, text: str, blocks: list[tuple[str, str, str]]) -> tuple[list, list]:
        """``blocks``: (kind, label, the block's text as it appears in ``text``)."""
        built = []
        for kind, label, piece in blocks:
            start = text.index(piece)
            built.append(Block(kind, start, start + len(piece), label))
        body_start = text.index("\n", text.index("## ")) + 1
        section = Section(text.index("## "), "S", body_start, len(text), tuple(built))
        return pairing.scan_sections("doc", text, [section])

    def test_a_cautionary_block_is_its_body(self) -> None:
        body = "The handle is shared across threads.\n    Close it once."
        admonition = f'!!! warning "Careful"\n    {body}'
        text = lesson(f"Call open_widget(name).\n\n{admonition}\n")
        pairs, _ = self.scan_blocks(
            text, [("paragraph", "", "Call open_widget(name).\n"), ("admonition", "warning", admonition + "\n")]
        )
        self.assertEqual(
            [(pair.rule, pair.cue, pair.qualifier.quote) for pair in pairs],
            [("cautionary block", "warning admonition", body)],
        )

    def test_every_cautionary_label_and_any_kind(self) -> None:
        for label in ("attention", "caution", "danger", "error", "failure", "warning", "bug"):
            for kind, marker, word in (
                ("admonition", f"!!! {label}", "admonition"),
                ("quote", f"> [!{label.upper()}]", "alert"),
                # A block kind a later grammar adds, carrying a label, is read alike.
                ("shortcode", f"{{{{< {label} >}}}}", "shortcode"),
            ):
                with self.subTest(label=label, kind=kind):
                    body = "> Keep one handle." if kind == "quote" else "    Keep one handle."
                    block = f"{marker}\n{body}"
                    text = lesson(f"Call open_widget(name).\n\n{block}\n")
                    pairs, _ = self.scan_blocks(
                        text, [("paragraph", "", "Call open_widget(name).\n"), (kind, label, block + "\n")]
                    )
                    self.assertEqual(
                        [(pair.cue, pair.qualifier.quote) for pair in pairs], [(f"{label} {word}", "Keep one handle.")]
                    )

    def test_important_is_a_note(self) -> None:
        block = "!!! important\n    The widget is blue."
        text = lesson(f"Call open_widget(name).\n\n{block}\n")
        self.assertEqual(
            self.scan_blocks(
                text, [("paragraph", "", "Call open_widget(name).\n"), ("admonition", "important", block + "\n")]
            ),
            ([], []),
        )

    def test_a_version_note_with_only_its_marker(self) -> None:
        marker = "/// version-added | 0.108.0"
        text = lesson(f"Pass `name` first.\n\n{marker}\n///\n")
        pairs, _ = self.scan_blocks(
            text, [("paragraph", "", "Pass `name` first.\n"), ("admonition", "version-added", f"{marker}\n///\n")]
        )
        self.assertEqual([(pair.rule, pair.qualifier.quote) for pair in pairs], [("version", marker)])

    def test_a_note_is_read_sentence_by_sentence_one_tier_stronger(self) -> None:
        note = "!!! note\n    The handle is blue. It requires a Rust toolchain."
        text = lesson(f"Call open_widget(name).\n\n{note}\n")
        pairs, _ = self.scan_blocks(
            text, [("paragraph", "", "Call open_widget(name).\n"), ("admonition", "note", note + "\n")]
        )
        self.assertEqual(
            [(pair.qualifier.quote, pair.caveat_tier) for pair in pairs], [("It requires a Rust toolchain.", 1)]
        )


class InstructionFormTest(LabTestCase):
    """Each instruction form of the docs' table, and what gives none."""

    def test_forms(self) -> None:
        cases = {
            "Then, run the sync.": "imperative",
            "For a single invocation, pass the cert flag.": "imperative",
            "For example, to route both, respectively at `a` and `b`, pass a `dict`.": "imperative",
            "Acknowledge each parcel with `queue.ack(parcel_id)`.": "imperative",
            "To install `ruff`:": "to-clause",
            "To enable it, set the flag.": "to-clause",
            "You can check the lockfile by passing `--check`.": "second person",
            "In some cases, you may want to use CPU-only builds.": "second person",
            "Now we return the scopes.": "tutorial step",
            "Let's add a route.": "tutorial step",
            "Strict mode can be enabled in various ways:": "api usage",
            "uv is available via crates.io.": "api usage",
            "The simplest way to set it up is to install the CLI.": "api usage",
        }
        for sentence, form in cases.items():
            with self.subTest(sentence=sentence):
                self.assertEqual(form_of(sentence), form)
        step = "And then instantiating a client with HTTP/2 support enabled:"
        self.assertEqual(form_of(step, True), "step before code")
        self.assertIsNone(form_of(step))

    def test_no_instruction(self) -> None:
        for sentence in (
            "Can you open it?",
            "See the reference for details.",
            "Notice the use of `Any` as a type hint.",
            "**Uvicorn** with `--workers`",
            "Set of rules for the widget.",
            "100% type annotated codebase.",
            "These are the ones you would use the most.",
            "A token is a string that we can use later.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIsNone(form_of(sentence))


class OneRoleTest(LabTestCase):
    """A sentence is a caveat or an instruction, never both, as "One sentence, one role" says."""

    def test_a_direct_instruction_keeps_its_own_caveat(self) -> None:
        for sentence in (
            "Call f() only if the queue is empty.",
            "You can disable verification and allow insecure requests.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIsNone(caveat_of(sentence)[0])

    def test_a_cue_that_restricts_the_instruction(self) -> None:
        cases = {
            "Do not call f() twice.": "do not",
            "You cannot use `await` outside `async def`.": "cannot",
            "You can only use `await` inside `async def`.": "can only",
            "Use `allow-insecure-host` with caution.": "with caution",
            "Before you reuse it, make sure to call `close()`.": "make sure",
            "You must make sure the queue is empty.": "must",
            "You have to await it.": "have to",
        }
        for sentence, expected in cases.items():
            with self.subTest(sentence=sentence):
                cue, form = caveat_of(sentence)
                self.assertEqual((cue.cue, form), (expected, None))
        # After a purpose, "be sure" is the step the reader takes; opening the sentence, from scan_version 25, a
        # requirement (ScanVersionTwentyFiveTest).
        self.assertEqual(caveat_of("To report it, be sure to include the version."), (None, "to-clause"))
        self.assertEqual(caveat_of("To use it, you have to await it."), (None, "to-clause"))
        self.assertEqual(caveat_of("If it is distroless, you have to set the entrypoint.")[1], "second person")
        self.assertEqual(caveat_of("If it is distroless, you have to set the entrypoint.", note=True)[0].cue, "have to")

    def test_an_indirect_instruction_with_a_cue_is_a_caveat(self) -> None:
        cue, form = caveat_of("A lease can be extended at most five times; the sixth call is refused.")
        self.assertEqual((cue.cue, form), ("is refused", None))


class PairingTest(LabTestCase):
    """The links in the order of the docs, within reach, never across a heading."""

    def pair(self, body: str) -> tuple[str, str, int]:
        pairs, unpaired = scan(lesson(body))
        self.assertEqual((len(pairs), unpaired), (1, []))
        return pairs[0].instruction.quote, pairs[0].link, pairs[0].tier

    def test_a_shared_identifier_beats_nearness_up_to_six_blocks_back(self) -> None:
        fillers = "".join(f"Run step_{number}(x).\n\n" for number in range(4))
        body = f"Call open_widget(name) first.\n\n{fillers}The open_widget call never retries.\n"
        self.assertEqual(self.pair(body), ("Call open_widget(name) first.", "identifier open_widget", 1))

    def test_the_caveats_own_block_comes_first(self) -> None:
        # A farther instruction shares the identifier `bundle`; the one in the caveat's block shares the word.
        body = (
            "Set `SSL_CERT_FILE` to a `ca-bundle` path.\n\n"
            "For one run, pass the cert with a bundle path. The bundle replaces the default source.\n"
        )
        self.assertEqual(self.pair(body), ("For one run, pass the cert with a bundle path.", "term bundle", 2))

    def test_an_anaphor_points_back(self) -> None:
        body = "Call open_widget(name) now.\n\nThe widget is blue.\n\nIt never closes.\n"
        self.assertEqual(self.pair(body)[:2], ("Call open_widget(name) now.", "anaphor It"))

    def test_a_shared_identifier_after_the_caveat(self) -> None:
        # Nothing shared ("Extras" is not the option `--extra`): the nearest later one, tier 2 (no link is tier 3).
        body = "Extras are never synced by default.\n\nRun `uv sync --extra cli` to include them.\n"
        self.assertEqual(self.pair(body), ("Run `uv sync --extra cli` to include them.", "nearest after", 2))
        body = "The `--extra` option is never implied.\n\nPass `--extra` to sync the extras.\n"
        self.assertEqual(self.pair(body), ("Pass `--extra` to sync the extras.", "identifier --extra, after", 2))

    def test_a_shared_term_then_nearness(self) -> None:
        body = "Call paint_widget(colour) to paint.\n\nCall open_widget(name) to open.\n\nA colour is never mixed.\n"
        self.assertEqual(self.pair(body)[:2], ("Call paint_widget(colour) to paint.", "term colour"))
        body = "Call paint_widget(colour) first.\n\nCall open_widget(name) next.\n\nNever mix them.\n"
        self.assertEqual(self.pair(body), ("Call open_widget(name) next.", "nearest", 2))

    def test_across_code_blocks(self) -> None:
        fences = "".join(f"```\nstep({number})\n```\n\n" for number in range(5))
        body = f"Run the migration.\n\n{fences}It never rolls back.\n"
        pairs, _ = scan(lesson(body), "blocks-2")
        self.assertEqual(
            [(pair.instruction.quote, pair.link) for pair in pairs], [("Run the migration.", "anaphor It")]
        )

    def test_reach_is_three_prose_blocks_back(self) -> None:
        filler = "".join(f"Filler paragraph {number}.\n\n" for number in range(findings.LOOK_BACK_BLOCKS - 1))
        pairs, unpaired = scan(lesson(f"Run the migration.\n\n{filler}It never rolls back.\n"))
        self.assertEqual((len(pairs), len(unpaired)), (1, 0))
        pairs, unpaired = scan(lesson(f"Run the migration.\n\nOne more.\n\n{filler}It never rolls back.\n"))
        self.assertEqual((len(pairs), len(unpaired)), (0, 1))

    def test_an_aside_is_weighed_last(self) -> None:
        body = (
            "Run the sync to install the widgets.\n\n!!! note\n    Pass the cert to override the store.\n\n"
            "Broken widgets are ignored.\n"
        )
        pairs, _ = scan(lesson(body), "blocks-2")
        self.assertEqual([pair.instruction.quote for pair in pairs], ["Run the sync to install the widgets."])

    def test_never_across_a_heading_nor_with_itself(self) -> None:
        self.assertEqual(len(scan("# T\n\n## A\n\nRun the sync.\n\n## B\n\nIt never closes.\n")[1]), 1)
        caveat = "Never call open_widget(name) twice."
        pairs, unpaired = scan(lesson(f"{caveat}\n\nNever call  open_widget(name)\ntwice.\n"))
        self.assertEqual((pairs, len(unpaired)), ([], 2))

    def test_names_are_unique_per_line(self) -> None:
        pairs, _ = scan(lesson("Call open_widget(name). It never closes. It fails on reuse.\n"))
        self.assertEqual([pair.name for pair in pairs], ["scan:doc:5", "scan:doc:5#2"])


class TierTest(LabTestCase):
    """A pair's tier is the weakest of its cue's, link's and instruction's; --tier keeps the stronger ones."""

    def test_the_weakest_part_names_the_tier(self) -> None:
        # "never" (1), identifier (1), imperative (1): tier 1. "does not" (2) makes it 2; so does an API usage
        # sentence; the author's narrated step makes it 3 (scan_version 19).
        cases = {
            "Call open_widget(name) now. The open_widget call never retries.\n": 1,
            "Call open_widget(name) now. The open_widget call does not retry.\n": 2,
            "Aster provides an `open_widget(name)` function to open a widget. The open_widget call never retries.\n": 2,
            "Now we call open_widget(name). The open_widget call never retries.\n": 3,
        }
        for body, tier in cases.items():
            with self.subTest(body=body):
                pairs, _ = scan(lesson(body))
                self.assertEqual([pair.tier for pair in pairs], [tier])

    def test_a_weaker_pair_leaves_its_caveat_unpaired(self) -> None:
        for body, tier, reason in (
            (
                "Aster provides an `open_widget(name)` function to open a widget.",
                1,
                "its pair is tier 2, weaker than tier 1",
            ),
            ("Now we call open_widget(name).", 2, "its pair is tier 3, weaker than tier 2"),
        ):
            with self.subTest(body=body):
                pairs, unpaired = scan(lesson(body + " The open_widget call never retries.\n"))
                kept, left = findings.kept_to_tier((pairs, unpaired), tier)
                self.assertEqual(kept, [])
                self.assertEqual(
                    [(item.span.quote, item.tier, item.reason) for item in left],
                    [("The open_widget call never retries.", 1, reason)],
                )


class TableCellTest(LabTestCase):
    """A table's cells are read as prose, and a caveat in a cell qualifies the table's lead sentence."""

    LEAD = "You can set these fields on the widget:"
    TABLE = (
        "| Field | Type | Description |\n"
        "|---|---|---|\n"
        "| `name` | `str` | The widget's name. |\n"
        "| `home` | `str` | Its home page. MUST be a URL. |\n"
    )

    def test_each_cell_gives_its_sentences(self) -> None:
        text = "| `a` | Opens it. Never twice. |\n|---|---|\n| b | <small>Since 1.2.</small> |\n"
        spans = sentences.table_cell_spans(masking.masked_code(text, [])[0], 0, len(text))
        # Worked out by hand: the cell holding only code gives none; the <small> tags cut the last cell.
        expected = [(8, 17), (18, 30), (45, 46), (56, 66)]
        self.assertEqual(spans, expected)
        self.assertEqual([text[start:end] for start, end in spans], ["Opens it.", "Never twice.", "b", "Since 1.2."])

    def test_a_cell_caveat_is_paired_with_the_lead(self) -> None:
        pairs, unpaired = scan(lesson(f"{self.LEAD}\n\n{self.TABLE}"), "blocks-2")
        self.assertEqual(unpaired, [])
        self.assertEqual(
            [(pair.qualifier.quote, pair.instruction.quote, pair.link, pair.tier) for pair in pairs],
            [("MUST be a URL.", self.LEAD, "table lead", 2)],
        )

    def test_a_cell_instructs_nothing(self) -> None:
        # "Use it once." in a cell is no instruction, so the caveat after the table has none in reach.
        table = "| Field | Description |\n|---|---|\n| `x` | Use it once. |\n"
        pairs, unpaired = scan(
            lesson(f"The fields are these.\n\n{table}\nThe `x` field is never copied.\n"), "blocks-2"
        )
        self.assertEqual((pairs, [item.span.quote for item in unpaired]), ([], ["The `x` field is never copied."]))

    def test_no_lead_without_an_instruction_before_the_table(self) -> None:
        pairs, unpaired = scan(lesson(f"The fields are these.\n\n{self.TABLE}"), "blocks-2")
        self.assertEqual((pairs, [item.span.quote for item in unpaired]), ([], ["MUST be a URL."]))


class ScanVersionThreeCueTest(LabTestCase):
    """The cues and turns of phrase ``scan_version`` 3 adds, each on a sentence written for the test."""

    def test_version_notes_that_name_the_product(self) -> None:
        cases = {
            "Added in Widgets 2.4.": "added in widgets 2.4",
            "Available since Widget API 3.1.0, Widgets 0.9.0.": "available since widget api 3.1.0",
            "This is supported since Widgets version `2.4.0`.": "supported since widgets version `…`",
            "If you have Python 3.10+ installed, it works.": "3.10+",
        }
        for sentence, cue in cases.items():
            with self.subTest(sentence=sentence):
                self.assertIn(("version", cue), cues_of(sentence))
        # A code span after "from" without "version" before it is no version.
        self.assertNotIn("version", [rule for rule, _ in cues_of("The path starts from the first `/`.")])

    def test_switched_off(self) -> None:
        self.assertIn(("limitation", "is disabled"), cues_of("Auto-retry is disabled when a proxy is set."))
        self.assertIn(("limitation", "are automatically disabled"), cues_of("Self-updates are automatically disabled."))
        # "can be disabled" tells how: an instruction, no limitation.
        self.assertEqual(caveat_of("Auto-retry can be disabled with `retry=False`."), (None, "api usage"))

    def test_a_field_marked_as_required(self) -> None:
        item = "- `name` (**required**): the widget's name.\n"
        pairs, unpaired = scan(lesson(f"Call make_widget(fields) with a dict:\n\n{item}"), "blocks-2")
        self.assertEqual(
            [(pair.qualifier.quote, pair.cue) for pair in pairs] + [item.span.quote for item in unpaired],
            [("`name` (**required**): the widget's name.", "( required )")],
        )
        self.assertEqual(
            scan(lesson("Call make_widget(fields).\n\n- `size`: the widget's size.\n"), "blocks-2"), ([], [])
        )

    def test_other_directives(self) -> None:
        self.assertIn(
            ("prohibition", "mutually exclusive"), cues_of("The `home` field is mutually exclusive with `url`.")
        )
        self.assertIn(("risk", "take into account"), cues_of("Take into account that a mirror may lag behind."))
        self.assertIn(("risk", "bear in mind"), cues_of("Bear in mind that the cache is shared."))
        self.assertIn(("prohibition", "do not"), cues_of("Do not forget to call `close()` before reuse."))
        self.assertIn(
            ("requirement", "be necessary"), cues_of("In some cases it may be necessary to pass an empty token.")
        )
        self.assertEqual(cues_of("You might need to restart the widget."), [])

    def test_an_exception_named_as_raised_is_tier_three(self) -> None:
        cue, _ = caveat_of("On a timeout, a `WidgetTimeout` exception is raised.")
        self.assertEqual((cue.rule, cue.cue, cue.tier), ("error", "is raised", 3))
        cue, _ = caveat_of("Opening the widget twice fails.")
        self.assertEqual((cue.cue, cue.tier), ("fails", 1))

    def test_false_alarm_families(self) -> None:
        for sentence in (
            "Notice that we only open one widget here.",
            "As you can see, the widget does not close.",
            "However, we recommend a widget pool.",
            "The widget is careful to close every handle.",
            "We open it once, thus avoiding a second lease.",
            "Empty names are discouraged.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIsNone(caveat_of(sentence)[0])
        self.assertIn(("prohibition", "avoid"), cues_of("Avoid opening it twice."))
        self.assertIn(("risk", "be careful"), cues_of("Be careful with `purge()`."))

    def test_availability_under_a_condition(self) -> None:
        cue, form = caveat_of("If `zlib` is installed, then the `deflate` encoding will also be supported.")
        self.assertEqual((cue.rule, cue.cue, cue.tier, form), ("condition", "if … will also be supported", 2, None))
        # A plain consequence stays no caveat, and so does what a step of the reader makes available.
        self.assertEqual(caveat_of("When a widget opens, its lid will be shown."), (None, None))
        self.assertEqual(caveat_of("Once you have opened it, the lid will be available."), (None, None))

    def test_the_clause_before_a_recommendation(self) -> None:
        cue, form = caveat_of("Other tools might not find the widget, so it is recommended to set `name`.")
        self.assertEqual((cue.rule, cue.cue, form), ("limitation", "might not", None))


class ReleaseNotesTest(LabTestCase):
    """Release notes are history, their subsections too, up to the next heading of their level or higher."""

    def test_the_sections_under_a_release_heading(self) -> None:
        text = (
            "# Release notes\n\n## 0.2.0 (May 1, 2025)\n\n#### Fixed\n\n"
            "* Call open_widget(name) again. Never close it twice.\n\n"
            "# Guide\n\n## Use\n\nCall open_widget(name) once. Never close it twice.\n"
        )
        pairs, unpaired = scan(text, "blocks-2")
        # Only the guide's pair: the "Fixed" section lies under the release heading.
        self.assertEqual(
            [(pair.instruction.quote, pair.qualifier.quote) for pair in pairs] + unpaired,
            [("Call open_widget(name) once.", "Never close it twice.")],
        )

    def test_a_heading_of_its_own_level_ends_them(self) -> None:
        text = "## 1.0.0\n\nNever mind.\n\n## Security\n\nCall open_widget(name). Never share it.\n"
        pairs, _ = scan(text, "blocks-2")
        self.assertEqual([pair.qualifier.quote for pair in pairs], ["Never share it."])


class ScanVersionThreeInstructionTest(LabTestCase):
    """The instruction forms ``scan_version`` 3 adds, and the sentences it no longer takes for instructions."""

    def test_forms(self) -> None:
        cases = {
            "Widgets are configured using the `widget` command.": "api usage",
            "Pools may be managed using the `pool` command.": "api usage",
            "To report a bug, please be sure to include the version.": "to-clause",
        }
        for sentence, form in cases.items():
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, form))
        # From scan_version 25 a sentence that opens on "be sure" is a requirement, no step (ScanVersionTwentyFive).
        self.assertEqual(caveat_of("Please be sure that the widget is closed.")[1], None)
        self.assertEqual(form_of("Installation is as simple as:", before_fence=True), "api usage")
        # A shortcode tag is markup, so the step opens with its verb.
        self.assertEqual(form_of("{{< step >}} **Add the widget**"), "imperative")

    def test_a_noun_before_its_own_verb_is_no_imperative(self) -> None:
        cue, form = caveat_of("Widget `name` keys are not inherited by child widgets.")
        self.assertEqual((cue.rule, cue.cue, form), ("limitation", "are not inherited", None))

    def test_a_trailing_condition_is_the_instructions_own(self) -> None:
        sentence = "The `strict` flag can be set to `false` if validation is required to be skipped."
        self.assertEqual(caveat_of(sentence), (None, "api usage"))
        # Before the condition, a cue still makes the sentence a caveat.
        self.assertEqual(caveat_of("A lease can be extended at most five times; the sixth call is refused.")[1], None)


class BackReferenceTest(LabTestCase):
    """A caveat that refers back anywhere in it ("the above configuration") qualifies the instruction just before."""

    def test_the_above(self) -> None:
        body = (
            "Call open_widget(name) to open a widget.\n\n"
            "Call paint_widget(colour) to paint it.\n\n"
            "A round widget still opens with `open_widget`, but the above configuration will fail on it.\n"
        )
        pairs, _ = scan(lesson(body))
        # The shared identifier `open_widget` would link the first sentence; the back-reference links the nearest.
        self.assertEqual(
            [(pair.instruction.quote, pair.link, pair.tier) for pair in pairs],
            [("Call paint_widget(colour) to paint it.", "back-reference the above configuration", 1)],
        )


class LinkTierTest(LabTestCase):
    """No link is of tier 3: a pair linked by nearness alone, near or far, before or after, is tier 2."""

    def test_nearness_alone(self) -> None:
        cases = {
            # Two prose blocks between: the nearest earlier one, tier 2.
            "Call open_widget(name) now.\n\nThe colour is blue.\n\nThe shade is green.\n\nA lid never fits.\n": (
                "nearest",
                "Call open_widget(name) now.",
            ),
            # No earlier one: the nearest later one, tier 2.
            "A lid never fits.\n\nCall open_widget(name) now.\n": ("nearest after", "Call open_widget(name) now."),
        }
        for body, (link, instruction) in cases.items():
            with self.subTest(body=body):
                pairs, _ = scan(lesson(body))
                self.assertEqual(
                    [(pair.link, pair.instruction.quote, pair.tier) for pair in pairs], [(link, instruction, 2)]
                )


class ScanVersionFourFalseAlarmTest(LabTestCase):
    """The false-alarm families ``scan_version`` 4 reads by their grammar, each on sentences written for the test."""

    def assert_tier(self, sentence: str, rule: str, cue: str, tier: int) -> None:
        found, form = caveat_of(sentence)
        self.assertEqual((found.rule, found.cue, found.tier, form), (rule, cue, tier, None))

    def test_what_a_check_exists_to_do_is_tier_three(self) -> None:
        # A failed check after (or opening) the sentence, or the application's user or request as the one the
        # rule applies to.
        self.assert_tier("Custom guards will raise `Denied` if the test fails.", "error", "will raise", 3)
        self.assert_tier("If any guard check fails, the widget will not open.", "error", "fails", 3)
        self.assert_tier("Access will only be granted if the user is signed in.", "limitation", "will only", 3)
        self.assert_tier("`DELETE` calls require the user to have the `owner` role.", "requirement", "require", 3)
        # An error on an input the reader gives keeps its tier.
        self.assert_tier("It raises `ValueError` if the name is empty.", "error", "raises", 1)

    def test_a_reason_explains(self) -> None:
        self.assert_tier("The lid is closed first, since widgets expect an empty tray.", "requirement", "expect", 3)
        # An opening "Because …," is blanked; the main clause still states its limitation.
        self.assert_tier(
            "Because `open()` is not called, the lid is not applied to a copy.", "limitation", "is not applied", 2
        )

    def test_reported_content_and_hypotheses(self) -> None:
        self.assert_tier("The pool will know that it has to close the lid first.", "requirement", "has to", 3)
        self.assert_tier("Maintainers decide if backports are required.", "requirement", "are required", 3)
        # "you'd need to" is hedged (would): tier 3, so the sentence stays an instruction.
        self.assertEqual(caveat_of("In that case you'd need to pass a name."), (None, "second person"))

    def test_a_comparison_tells_a_difference(self) -> None:
        self.assert_tier(
            "This field has the same type as `url`, except that it points to the lid.", "condition", "except that", 3
        )

    def test_turns_that_warn_of_nothing(self) -> None:
        for sentence in (
            "Unless two widgets clash you may be better off not naming them.",
            "In general you probably want to keep the default unless you need speed.",
            "This pool is suitable if you want widgets to only be shared by admins.",
            "The following example will only open the lid.",
            "I have to my surprise found a second lid.",
            "**Deprecation notice:**",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))
        # An obligation removed: "does not require" is no limitation.
        self.assertEqual(
            cues_of("Note that `WidgetPool` does not require the `lids` package."), [("label", "note that")]
        )
        # "(mutually exclusive)" tells how the options relate: the sentence stays the instruction.
        self.assertEqual(caveat_of("Pick one of `red` or `blue` (mutually exclusive)."), (None, "imperative"))

    def test_a_lead_into_code(self) -> None:
        self.assertEqual(caveat_of("You must write:", before_fence=True), (None, None))
        step = "Besides tests, you will need to make sure the widget builds:"
        self.assertEqual(caveat_of(step, before_fence=True), (None, "second person"))
        # In a note the author set the requirement apart: a caveat, of tier 1 (tier 2 raised by the note).
        found, _ = caveat_of(step, before_fence=True, note=True)
        self.assertEqual((found.cue, found.tier), ("will need", 1))

    def test_a_notice_marker_gives_its_cue_to_the_paragraph_after(self) -> None:
        text = lesson(
            "Call open_widget(name) to open it.\n\n**Deprecation notice:**\n\n"
            "The widget pool will be moved to a plugin and retired later.\n"
        )
        pairs, unpaired = scan(text)
        self.assertEqual(
            [(pair.qualifier.quote, pair.rule, pair.instruction.quote) for pair in pairs] + unpaired,
            [("The widget pool will be moved to a plugin and retired later.", "deprecation", INSTRUCTION)],
        )

    def test_a_dated_post_is_history(self) -> None:
        text = "---\ndate: 2024-01-02\n---\n\n# News\n\nCall open_widget(name). It will not close the lid.\n"
        pairs, _ = scan(text, "blocks-2")
        self.assertEqual(
            [(pair.qualifier.quote, pair.caveat_tier, pair.tier) for pair in pairs],
            [("It will not close the lid.", 3, 3)],
        )
        # Without the date the same page is a guide: "will not" is of tier 2.
        pairs, _ = scan(text.replace("date: 2024-01-02", "title: News"), "blocks-2")
        self.assertEqual([pair.caveat_tier for pair in pairs], [2])


class ScanVersionFourRuleTest(LabTestCase):
    """The cues and instruction forms ``scan_version`` 4 adds, each on a sentence written for the test."""

    def test_cues(self) -> None:
        cases = {
            "You should only call `close()` once the lid is down.": ("requirement", "should only"),
            "For now, only the `tar` format is supported.": ("limitation", "only the `…` format is supported"),
            "Widgets are sent as text from version 2.1 onwards.": ("version", "from version 2.1 onwards"),
            "Not all widgets expose a lid.": ("limitation", "not all"),
            "Valid values are `red` and `blue`.": ("requirement", "valid values are"),
            "You may see warnings if two widgets share a name.": ("error", "see warnings"),
        }
        for sentence, (rule, cue) in cases.items():
            with self.subTest(sentence=sentence):
                found, form = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue, found.tier, form), (rule, cue, 2, None))

    def test_a_framed_must_is_the_step(self) -> None:
        self.assertEqual(caveat_of("To read a secret, you must cast it to `str`."), (None, "to-clause"))
        self.assertEqual(caveat_of("If you wish to share widgets, you must subclass `Pool`."), (None, "second person"))
        found, _ = caveat_of("If you wish to share widgets, you must subclass `Pool`.", note=True)
        self.assertEqual((found.cue, found.tier), ("must", 1))
        # Unframed, "must" restricts the instruction.
        self.assertEqual(caveat_of("You must subclass `Pool`.")[0].cue, "must")

    def test_instruction_forms(self) -> None:
        cases = {
            "In your `widgets.toml` add:": "imperative",
            "You pass the name when opening the widget.": "second person",
            "Aster provides an `open_widget` function to open a widget.": "api usage",
            # scan_version 6: the API named with what it does ("… function that returns …").
            "Aster now provides a `get_lid()` convenience function that returns the lid.": "api usage",
            "Widget members are configured in the root project's `widgets.toml`:": "api usage",
            "Aster allows you to open a widget twice.": "api usage",
        }
        for sentence, form in cases.items():
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, form))


def pairs_of(text: str, grammar: str = "blocks-3") -> list[tuple[str, str, str, str]]:
    """``(caveat, instruction, link, instruction form)`` of every pair the scan finds in ``text``, as quotes."""
    return [
        (pair.qualifier.quote, pair.instruction.quote, pair.link, pair.instruction_form)
        for pair in scan(text, grammar)[0]
    ]


class ScanVersionSixTest(LabTestCase):
    """The rules ``scan_version`` 6 adds (docs/caveats.md, "Version 6")."""

    def test_a_later_sentence_of_a_list_item_qualifies_the_items_own_instruction(self) -> None:
        # The caveat names `lid`, as the other item does: the shared word used to win; the item's head wins now.
        text = lesson(
            "- Open the `lid` with `open_lid()`.\n" "- Close the widget with `close()`. The `lid` must be down first.\n"
        )
        self.assertEqual(
            pairs_of(text),
            [("The `lid` must be down first.", "Close the widget with `close()`.", "same item", "imperative")],
        )

    def test_an_option_entry_instructs_its_own_item(self) -> None:
        # An entry whose description is an imperative, or whose term is an option, tells how to use the term.
        text = lesson(
            "- `--size <int>` - Set the widget size. Only available with the `lid` backend.\n"
            "- `--count <int>` - Number of widgets. Not supported with `--reload`.\n"
            "- `samesite` - A string that names the strategy. Valid values are `lax` and `strict`.\n"
            "- `gtag`: To enable analytics, set it to your tracking ID. Only v4 IDs are supported.\n"
        )
        found = pairs_of(text)
        self.assertIn(
            (
                "Only v4 IDs are supported.",
                "`gtag`: To enable analytics, set it to your tracking ID.",
                "same item",
                "reference entry",
            ),
            found,
        )
        self.assertIn(
            (
                "Only available with the `lid` backend.",
                "`--size <int>` - Set the widget size.",
                "same item",
                "reference entry",
            ),
            found,
        )
        self.assertIn(
            ("Not supported with `--reload`.", "`--count <int>` - Number of widgets.", "same item", "reference entry"),
            found,
        )
        # An entry that describes a field instructs nothing: no pair takes it as the instruction.
        self.assertNotIn("`samesite` - A string that names the strategy.", [pair[1] for pair in found])

    def test_an_entry_found_by_a_shared_option_name(self) -> None:
        text = lesson(
            "- `--date-header / --no-date-header` - Enable or disable the `Date` header.\n\n"
            "!!! note\n    The `--no-date-header` flag does not apply to the `websockets` protocol.\n"
        )
        self.assertEqual(
            pairs_of(text),
            [
                (
                    "The `--no-date-header` flag does not apply to the `websockets` protocol.",
                    "`--date-header / --no-date-header` - Enable or disable the `Date` header.",
                    "identifier --no-date-header",
                    "reference entry",
                )
            ],
        )

    def test_a_version_badge_dates_what_follows_it(self) -> None:
        text = lesson(
            "Run `widgets serve` to start the server.\n\n"
            "New in version 1.4.\n\n"
            "To open a widget in a tab, pass `tab=True` to `open_widget()`.\n"
        )
        self.assertEqual(
            pairs_of(text),
            [
                (
                    "New in version 1.4.",
                    "To open a widget in a tab, pass `tab=True` to `open_widget()`.",
                    "version badge, after",
                    "to-clause",
                )
            ],
        )

    def test_an_admonition_titled_with_a_version_is_a_version_caveat(self) -> None:
        text = lesson(
            "Run `widgets serve` to start the server.\n\n"
            '!!! tip "Added in version 0.55.0"\n    You can also open widgets inline with `inline=True`.\n'
        )
        self.assertEqual(
            pairs_of(text),
            [
                (
                    '!!! tip "Added in version 0.55.0"',
                    "You can also open widgets inline with `inline=True`.",
                    "version badge, after",
                    "second person",
                )
            ],
        )
        # A title that dates nothing adds no caveat.
        self.assertEqual(pairs_of(text.replace("Added in version 0.55.0", "Inline widgets")), [])

    def test_a_myst_admonition_fence_is_read_as_prose(self) -> None:
        body = "Run `widgets serve` to start the server.\n\n```{warning}\nThe server is not thread-safe.\n```\n"
        self.assertEqual(
            pairs_of(lesson(body)),
            [
                (
                    "The server is not thread-safe.",
                    "Run `widgets serve` to start the server.",
                    "term server",
                    "imperative",
                )
            ],
        )
        # Any other directive, and plain code, stay code: no caveat is read in them.
        for opening in ("```{toctree}", "```python"):
            with self.subTest(opening=opening):
                self.assertEqual(pairs_of(lesson(body.replace("```{warning}", opening))), [])

    def test_code_fenced_inside_a_myst_admonition_is_still_code(self) -> None:
        text = lesson(
            "Run `widgets serve` to start the server.\n\n"
            "````{note}\nStart it like this:\n\n```sh\nwidgets serve --never-stop  # must not be used\n```\n````\n"
        )
        self.assertEqual(pairs_of(text), [])

    def test_a_bare_need_to_is_the_step_and_an_added_one_a_caveat(self) -> None:
        self.assertEqual(caveat_of("You will need to choose a widget that has a lid."), (None, "second person"))
        for sentence in (
            "You also need to close the lid.",
            "Note that you need to close the lid.",
            "You will need to install `lidkit` to run this example.",
        ):
            with self.subTest(sentence=sentence):
                found, form = caveat_of(sentence)
                self.assertEqual((found is not None, form), (True, None))

    def test_a_need_adds_a_requirement_by_its_words_and_what_follows_the_first_need(self) -> None:
        # docs/caveats.md: "also" and its kin, a purpose or condition after the need, or an object named before.
        cases = {
            "You need to close the lid if you use workers.": True,
            "You have to await it.": True,
            "You need to open the lid and you need to close the box to run this example.": True,
            # A run of blanks (markup or spaces) between the need and its purpose is read as one space.
            "You need to open the lid" + " " * 5000 + "if you use workers.": True,
            "To run this example, you need to open the lid.": False,
            "You will need to choose a widget with a lid.": False,
            "You need to open the lid. " * 200: False,
        }
        for sentence, adds in cases.items():
            with self.subTest(sentence=sentence[:60]):
                self.assertIs(pairing.adds_requirement(sentence), adds)

    def test_a_myst_colon_fence_is_an_admonition_across_its_paragraphs(self) -> None:
        # The block grammars read ":::{warning}" as a paragraph, and a blank line inside it parts it in two.
        text = lesson(
            "Run `widgets serve` to start the server.\n\n"
            ":::{warning}\nThe server is not thread-safe.\n\nIt keeps one lock.\n:::\n\n"
            ":::{versionadded} 2.1\n:::\n\n"
            "To stop it, press `q`.\n"
        )
        self.assertEqual(
            pairs_of(text),
            [
                # A cautionary block is a caveat whole: both paragraphs, without the marker lines.
                (
                    "The server is not thread-safe.\n\nIt keeps one lock.",
                    "Run `widgets serve` to start the server.",
                    "term server",
                    "imperative",
                ),
                (":::{versionadded} 2.1", "To stop it, press `q`.", "version badge, after", "to-clause"),
            ],
        )

    def test_text_after_a_colon_fence_closing_line_is_read(self) -> None:
        # The closing ":::" ends the note; the line after it, in the same paragraph, is a paragraph of the section.
        text = lesson(
            "Run `widgets serve` to start the server.\n\n:::{note}\nThe server is quiet.\n:::\nDo not stop it.\n"
        )
        self.assertEqual(
            pairs_of(text), [("Do not stop it.", "Run `widgets serve` to start the server.", "nearest", "imperative")]
        )

    def test_a_nested_colon_fence_leaves_the_outer_one_open(self) -> None:
        # "::::{note}" is closed by a line of four colons or more, not by the inner ":::{warning}"'s ":::".
        text = lesson(
            "Run `widgets serve` to start the server.\n\n"
            "::::{note}\n:::{warning}\nThe server is not thread-safe.\n:::\nDo not stop it.\n::::\n"
        )
        readings = [(pair[0], pair[2]) for pair in pairs_of(text)]
        # Both sentences are the note's (a note is read sentence by sentence), none holds a marker line.
        self.assertEqual(readings, [("The server is not thread-safe.", "term server"), ("Do not stop it.", "nearest")])

    def test_an_opening_line_alone_before_code_is_no_caveat_of_its_own(self) -> None:
        # ":::{warning}", then code, then the prose: one caveat, the prose; the code stays code.
        text = lesson(
            "Run `widgets serve` to start the server.\n\n"
            ":::{warning}\n```sh\nwidgets serve  # must not\n```\nThe server is not thread-safe.\n:::\n"
        )
        self.assertEqual([pair[0] for pair in pairs_of(text)], ["The server is not thread-safe."])

    def test_a_directives_options_are_no_prose(self) -> None:
        # MyST options (":class: dropdown") open the body; a role opening a sentence (":ref:`x`") is prose.
        for opening, closing in (("```{warning}", "```"), (":::{warning}", ":::")):
            with self.subTest(opening=opening):
                text = lesson(
                    f"Run `widgets serve` to start the server.\n\n{opening}\n:class: dropdown\n:open:\n"
                    f"The server is not thread-safe.\n{closing}\n"
                )
                self.assertEqual([pair[0] for pair in pairs_of(text)], ["The server is not thread-safe."])
        text = lesson("Run `widgets serve` to start the server.\n\n```{note}\n:ref:`lids` must not be opened.\n```\n")
        self.assertEqual([pair[0] for pair in pairs_of(text)], [":ref:`lids` must not be opened."])

    def test_only_before_a_verb_is_a_limitation(self) -> None:
        found, form = caveat_of("Aster only removes exact path entries.")
        self.assertEqual((found.rule, found.cue, found.tier, form), ("limitation", "only removes", 2, None))
        # After a word that makes "only" no limit of the subject's action, the cue is not this one.
        for sentence in ("It is the only widgets folder.", "This works for only users of Aster."):
            with self.subTest(sentence=sentence):
                self.assertNotIn(("limitation", "only widgets"), cues_of(sentence))
                self.assertNotIn(("limitation", "only users"), cues_of(sentence))

    def test_leaving_something_out_is_an_action_unless_it_is_the_reading(self) -> None:
        self.assertEqual(
            caveat_of("You can ignore these warnings by adding the following config:"), (None, "second person")
        )
        self.assertEqual(caveat_of("You can completely skip them during resolution."), (None, "second person"))
        for sentence in ("You can skip this section.", "You can ignore the rest of the page."):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence)[1], None)

    def test_a_version_bound_restricts_an_instruction_unless_it_is_its_condition(self) -> None:
        found, form = caveat_of("To use `lidkit`, you need Aster 3.10 or newer and the `lid` extra.")
        self.assertEqual((found.rule, found.cue, form), ("version", "3.10 or newer", None))
        self.assertEqual(
            caveat_of("To open widgets faster, if you're targeting only Aster 1.4+, pass `fast=True`:"),
            (None, "to-clause"),
        )

    def test_a_reminder_is_a_requirement(self) -> None:
        found, form = caveat_of("Just remember to close the lid afterwards.")
        self.assertEqual((found.rule, found.cue, form), ("requirement", "remember to", None))

    def test_an_adverb_between_will_and_need_keeps_the_step(self) -> None:
        # "you will simply need to" is the second person as "you will need to" is, and a bare need the step.
        self.assertEqual(
            caveat_of("Generally, you will simply need to copy the folder to the server."), (None, "second person")
        )

    def test_a_urls_host_names_no_code(self) -> None:
        # "org" is a word of the caveat and a part of the instruction's link host: no shared identifier.
        text = lesson(
            "Install [CMake](https://cmake.org/download) with your package manager.\n\n"
            "Then build the widgets.\n\n"
            "You need to have CMake installed for `make test` to work, see the org page.\n"
        )
        self.assertNotIn("identifier org", [pair[2] for pair in pairs_of(text)])
        self.assertEqual(rules.URL.sub(" ", "see https://cmake.org/download now"), "see  /download now")

    def test_a_paths_placeholder_names_no_code(self) -> None:
        # Both links hold the site's version placeholder: it links nothing, so the caveat takes the nearest step.
        text = lesson(
            "Install the package as the [guide](https://example.org/docs/<WIDGET_VERSION>/setup/) says.\n\n"
            "Then build the widgets.\n\n"
            "The lid must stay closed, see [limits](https://example.org/docs/<WIDGET_VERSION>/limits/).\n"
        )
        self.assertEqual(
            [pair[1:3] for pair in pairs_of(text)],
            [("Then build the widgets.", "nearest")],
        )
        for path in ("/docs/<WIDGET_VERSION>/a", "/docs/{version}/a", "/docs/{{ site.version }}/a"):
            reading = f"See [x](https://example.org{path}) and save_copy()."
            self.assertEqual(rules.sentence_identifiers(reading, reading, 0, len(reading), []), {"save_copy"}, reading)
        # From scan_version 28 one that ends the path too.
        reading = "See (https://example.org/docs/<WIDGET_VERSION>) and save_copy()."
        self.assertEqual(rules.sentence_identifiers(reading, reading, 0, len(reading), []), {"save_copy"})
        # Outside a path's slashes, a name in angle brackets is read as before.
        reading = "Set <WIDGET_VERSION> first."
        self.assertIn("WIDGET_VERSION", rules.sentence_identifiers(reading, reading, 0, len(reading), []))

    def test_a_file_name_is_no_imperative(self) -> None:
        self.assertIsNone(rules.opening_imperative("launch.json"))
        self.assertEqual(rules.opening_imperative("Launch the widget server."), "launch")

    def test_a_bold_step_title_ends_its_sentence(self) -> None:
        # "**Set the widget size.**" is a sentence of its own: the caveat after it is read, and pairs with it.
        text = lesson("- **Set the widget size.** Only available with the `lid` backend.\n")
        self.assertEqual(
            pairs_of(text),
            [("Only available with the `lid` backend.", "**Set the widget size.**", "same item", "imperative")],
        )


class SentenceCuesLinearTest(LabTestCase):
    """What ``sentence_cues`` asks of a whole sentence is asked once: the answers are the direct searches'."""

    def test_check_search_answers_as_a_direct_search(self) -> None:
        text = "the check fails, if the test fails here and if any permission check fails; done"
        search = rules.CheckSearch(rules.CHECK_FAILS_AFTER, text)
        for position in sorted([0, 0, 3, 10, 17, 17, 40, 41, 60, len(text)]):
            with self.subTest(position=position):
                expected = rules.CHECK_FAILS_AFTER.search(text, position)
                found = search.search(position)
                self.assertEqual(None if found is None else found.span(), None if expected is None else expected.span())

    def test_sentence_wide_readings_are_unchanged(self) -> None:
        # "except" after a comparison word is tier 3; before one, it is still a condition of its own tier.
        self.assertEqual(
            [
                (cue.rule, cue.tier)
                for cue in rules.sentence_cues(reading("It is the same as `url`, except that it points."))
            ],
            [("condition", 3)],
        )
        self.assertEqual(
            [(cue.rule, cue.tier) for cue in rules.sentence_cues(reading("Except for `id`, it is the same."))],
            [("condition", 2)],
        )
        # "However" opening the sentence is tier 2; later in it, tier 3.
        self.assertEqual([cue.tier for cue in rules.sentence_cues(reading("However, it fails."))][0], 2)
        self.assertEqual([cue.tier for cue in rules.sentence_cues(reading("It works, however slowly."))][0], 3)


class QuickReadingTest(LabTestCase):
    """The readings worked out the quick way give what the documented rules say."""

    def test_marker_lines_and_lines_of_prose(self) -> None:
        text = '  !!! warning\nMind it.\n> [!NOTE]\n  {{< note >}}\n=== "Tab"\n  === "Tab"\n:: x\n'
        starts = [0, 14, 23, 33, 48, 58, 70]
        found = [sentences.marker_line(text, start, len(text)) for start in starts]
        # The header, the alert, the shortcode line and the tab at the margin are marker lines, with their newline.
        self.assertEqual(
            [match and match.span() for match in found], [(0, 14), None, (23, 33), (33, 48), (48, 58), None, None]
        )

    def test_terms_are_lower_case_content_words_without_a_plural_s(self) -> None:
        self.assertEqual(
            rules.sentence_terms("Upgrades respect Constraints; the CLASS keeps its Address."),
            frozenset({"upgrade", "respect", "constraint", "class", "keep", "address"}),
        )


class ScanVersionSevenTest(LabTestCase):
    """How ``scan_version`` 7 cuts sentences around markup that renders as nothing (docs/caveats.md, "Blocks and
    sentences")."""

    def quotes(self, block: str) -> list[str]:
        return [block[start:end] for start, end in sentences.sentence_spans(block, 0, len(block))]

    def test_a_link_reference_definition_is_no_sentence(self) -> None:
        block = (
            "Use the fonts you pick.\n"
            "  [Google Fonts]: changing-the-fonts.md\n"
            '[technical limitations]: ../privacy.md#limitations "Limitations"\n'
            "[docs]: <https://example.org/a b>\n"
        )
        # The definitions end the sentence before them and are no part of any.
        self.assertEqual(self.quotes(block), ["Use the fonts you pick."])

    def test_a_list_of_link_targets_makes_no_caveat(self) -> None:
        # A label holding a cue word ("limitations", "deprecated") was read as a caveat of the step before it.
        text = lesson(
            "Set `fonts` to the family you use.\n\n"
            "  [technical limitations]: ../privacy.md#limitations\n"
            "  [deprecated in 1.2]: https://example.org/1.2\n"
        )
        self.assertEqual(scan(text, "blocks-3"), ([], []))

    def test_what_only_looks_like_a_definition_stays_prose(self) -> None:
        block = "[The guide](guide.md) is not supported here.\n[a]: b is not a target, it is text.\n"
        # A link, and a "definition" followed by words that are not a title, are prose as before.
        self.assertEqual(
            self.quotes(block), ["[The guide](guide.md) is not supported here.", "[a]: b is not a target, it is text."]
        )

    def test_markers_before_the_first_word_are_no_part_of_the_sentence(self) -> None:
        cases = {
            # a definition list's marker
            ":   This property must be set.\n": "This property must be set.",
            # a footnote's label, on the line of its text or before it
            "[^1]: It fails on Windows.\n": "It fails on Windows.",
            "[^note]:\n    While all features work, `x` is not supported.\n": (
                "While all features work, `x` is not supported."
            ),
            # comments, which render as nothing, after a definition list's marker too
            "<!-- md:version 9.2 --> This option must be set.\n": "This option must be set.",
            ":   <!-- md:default none --> <!-- md:flag required -->\n    This property must be set.\n": (
                "This property must be set."
            ),
        }
        for block, quote in cases.items():
            with self.subTest(block):
                self.assertEqual(self.quotes(block), [quote])

    def test_a_colon_inside_a_sentence_is_kept(self) -> None:
        # Only a marker at the start of a piece is left out: "Note: it fails." keeps its label.
        self.assertEqual(self.quotes("Note: it fails.\n"), ["Note: it fails."])
        self.assertEqual(self.quotes(":material-check: Supported.\n"), [":material-check: Supported."])


class ScanVersionEightTest(LabTestCase):
    """``scan_version`` 8: the body of a code shortcode is code (docs/caveats.md, "Code is never prose")."""

    PAGE = (
        "# Inner\n\n## Raw HTML\n\nFirst, configure the renderer to allow raw HTML within Markdown:\n\n"
        "{{< code-toggle file=hugo >}}\n[markup.goldmark.renderer]\nunsafe = true # must not be shared\n"
        "{{< /code-toggle >}}\n\nThis setting is not safe if other people write your content.\n"
    )

    def test_a_code_shortcode_holds_no_caveat(self) -> None:
        for grammar in ("blocks-3", "blocks-4"):
            with self.subTest(grammar=grammar):
                found = [(pair.qualifier.quote, pair.instruction.quote) for pair in scan(self.PAGE, grammar)[0]]
                self.assertEqual(
                    found,
                    [
                        (
                            "This setting is not safe if other people write your content.",
                            "First, configure the renderer to allow raw HTML within Markdown:",
                        )
                    ],
                )

    def test_a_fence_inside_a_code_shortcode_is_masked_once(self) -> None:
        # The fence's span lies inside the shortcode's body: one span, so the masked text keeps the page's length
        # and every offset after it holds.
        page = (
            "# A\n\n## B\n\nRun `hugo` to build it.\n\n{{< highlight go >}}\n```\nx := 1\n```\n{{< /highlight >}}\n\n"
            "It must not run twice.\n"
        )
        sections = grammars.document_sections(page, "blocks-4", "t", "T")
        fences = pairing.with_code_shortcodes(page, sections, masking.fence_spans(page, sections))
        body = (page.index("```\nx"), page.index("{{< /highlight"))
        self.assertEqual(fences, [body])
        masked, _ = masking.masked_code(page, fences)
        self.assertEqual(len(masked), len(page))
        found = [(pair.qualifier.start, pair.qualifier.quote) for pair in scan(page, "blocks-4")[0]]
        self.assertEqual(found, [(page.index("It must"), "It must not run twice.")])

    def test_another_shortcode_is_still_prose(self) -> None:
        # A shortcode that is no code one (here a tab) is read as before: its sentences are prose.
        page = self.PAGE.replace("code-toggle", "tab")
        quotes = [pair.qualifier.quote for pair in scan(page, "blocks-4")[0]]
        self.assertIn("[markup.goldmark.renderer]\nunsafe = true # must not be shared", quotes)


class JsxAdmonitionTest(LabTestCase):
    """``scan_version`` 8: a JSX admonition component is read as an admonition of its kind."""

    PAGE = (
        "# Database\n\n## Migrate\n\nRun `astro db push` to apply your schema.\n\n"
        '<Aside type="caution">\nBack up your database first.\n</Aside>\n\n'
        "<Warning>\nKeep a second copy.\n</Warning>\n\n"
        '<Callout type="info">\nThis step is optional.\n</Callout>\n'
    )

    def test_cautionary_components_are_cautionary_blocks(self) -> None:
        found = [(pair.rule, pair.cue, pair.qualifier.quote) for pair in scan(self.PAGE, "blocks-4")[0]]
        self.assertEqual(
            found,
            [
                ("cautionary block", "caution component", "Back up your database first."),
                ("cautionary block", "warning component", "Keep a second copy."),
            ],
        )

    def test_the_forms_of_a_components_kind(self) -> None:
        cases = [
            ('<Aside type="danger">', "cautionary block"),
            ("<Aside type='caution'>", "cautionary block"),
            ('<Aside type={"caution"}>', "cautionary block"),
            # A data-type is no type; an Aside without one is a note, so its sentence is read on its own.
            ('<Aside data-type="caution">', None),
            ("<Aside>", None),
            # An unknown kind is no admonition.
            ('<Aside type="primary">', None),
            # scan_version 20: Fumadocs' warning callout.
            ('<Callout type="warn">', "cautionary block"),
        ]
        for opening, rule in cases:
            with self.subTest(opening=opening):
                page = f"# A\n\n## B\n\nRun `x` to start.\n\n{opening}\nKeep a second copy.\n</Aside>\n"
                found = [pair.rule for pair in scan(page, "blocks-4")[0]]
                self.assertEqual(found, [rule] if rule else [])

    def test_the_blocks_own_closing_marker_leaves_its_quote(self) -> None:
        page = (
            "# A\n\n## B\n\nRun `x` to start.\n\n"
            '<Aside type="caution">Back up your database first.</Aside>\n\n'
            "!!! warning\n    Use <b>bold</b>\n\n{{% warning %}}Never run it twice.{{% /warning %}}\n"
        )
        quotes = [pair.qualifier.quote for pair in scan(page, "blocks-4")[0]]
        # An inline tag closed at the line's end is the text's own, and stays.
        self.assertEqual(quotes, ["Back up your database first.", "Use <b>bold</b>", "Never run it twice."])

    def test_a_long_opening_tag_is_read_in_one_pass(self) -> None:
        # A name of 100,000 characters of "a." once made the kind's pattern backtrack at every word boundary.
        page = '# A\n\n## B\n\n<Aside title="<' + "a." * 50_000 + '">\nYou must not do it.\n</Aside>\n'
        self.assertEqual(len(scan(page, "blocks-4")), 2)

    def test_a_component_of_another_name_is_no_admonition(self) -> None:
        # Under blocks-3 as under blocks-4; an element that names no kind is read as prose, as before.
        page = self.PAGE.replace("Aside", "Card")
        rules_found = [(pair.rule, pair.qualifier.quote) for pair in scan(page, "blocks-3")[0]]
        self.assertNotIn(("cautionary block", "Back up your database first."), rules_found)


class ScanVersionNineTest(LabTestCase):
    """``scan_version`` 9: a statement opening on a preposition, a reminder and what a command printed."""

    def test_a_statement_opening_on_a_preposition_instructs_nothing(self) -> None:
        # "For" and then a determiner, in a sentence that names code, read as an unlisted verb before.
        self.assertIsNone(form_of("For an HTTP probe, the widget sends two headers besides the `Host` header."))
        # A verb the list lacks still instructs, and so does a step after an opening phrase.
        self.assertEqual(form_of("Acknowledge each parcel with `ack()`."), "imperative")
        self.assertEqual(form_of("For a quick start, call `open_widget()`."), "imperative")

    def test_a_reminder_instructs_nothing(self) -> None:
        self.assertIsNone(form_of("Recall that `open_widget()` takes the lid's name."))

    def test_what_a_command_printed_is_no_caveat(self) -> None:
        for sentence in (
            "The output shows that the widget cannot be opened because the lid is shut.",
            "The output above indicates that the widget is not running.",
            "This output will look like the widget never opened.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))
        # The outcome told of the reader's own widget is still one.
        self.assertIsNotNone(caveat_of("The widget cannot be opened while the lid is shut.")[0])

    def test_on_a_page(self) -> None:
        text = lesson(
            "For an HTTP probe, the widget sends two headers besides the `Host` header.\n"
            "If your widget relies on virtual hosts, you should not use `host`.\n\n"
            "Open the widget:\n\n```sh\nwidget open\n```\n\n"
            "The output shows that the widget cannot be opened while the lid is shut.\n"
        )
        pairs, unpaired = scan(text, "blocks-4")
        # The statement is no instruction: the warning looks past it, to the step after it in reach. The printed
        # outcome is no caveat of that step.
        self.assertEqual(
            [(pair.instruction.quote, pair.qualifier.quote, pair.link) for pair in pairs],
            [
                (
                    "Open the widget:",
                    "If your widget relies on virtual hosts, you should not use `host`.",
                    "term widget, after",
                )
            ],
        )
        self.assertEqual(unpaired, [])


class ShortLeadInTest(LabTestCase):
    """``scan_version`` 9: nearness alone to a lead-in of at most five words ending in ``:`` is a link of tier 3."""

    def pair_of(self, lead_in: str, caveat: str = "Each widget must have a lid.") -> tuple:
        text = lesson(f"{caveat}\n\n{lead_in}\n\n```sh\nwidget open\n```\n")
        pairs, _ = scan(text, "blocks-4")
        return [(pair.instruction.quote, pair.link, pair.tier) for pair in pairs]

    def test_a_short_lead_in_by_nearness_is_tier_three(self) -> None:
        # Nothing links the caveat to the step after it but nearness; the lead-in is three words.
        self.assertEqual(self.pair_of("Create the box:"), [("Create the box:", "nearest after", 3)])
        # Six words: a step of its own, tier 2 as before.
        self.assertEqual(
            self.pair_of("Create the box for the parcels:"), [("Create the box for the parcels:", "nearest after", 2)]
        )
        # A shared word links them: tier 2, whatever the lead-in's length.
        self.assertEqual(self.pair_of("Create the widget:"), [("Create the widget:", "term widget, after", 2)])

    def test_at_tier_two_the_caveat_is_still_reported(self) -> None:
        text = lesson("Each widget must have a lid.\n\nCreate the box:\n\n```sh\nwidget open\n```\n")
        pairs, unpaired = findings.kept_to_tier(scan(text, "blocks-4"), 2)
        self.assertEqual(pairs, [])
        self.assertEqual(
            [(item.span.quote, item.reason) for item in unpaired],
            [("Each widget must have a lid.", "its pair is tier 3, weaker than tier 2")],
        )


class VersionBadgeTest(LabTestCase):
    """``scan_version`` 10: a version badge on a line of its own dates the step after it."""

    def caveats(self, body: str, grammar: str = "blocks-4") -> list[tuple]:
        pairs, unpaired = scan(lesson(body), grammar)
        return [(pair.qualifier.quote, pair.rule, pair.cue, pair.instruction.quote, pair.link) for pair in pairs] + [
            (item.span.quote, item.rule, item.cue) for item in unpaired
        ]

    def test_each_kind_of_badge(self) -> None:
        step = "Call `open_widget()` to open it.\n"
        # The caveat is the badge itself: from scan_version 24 without the "<p>" around it.
        for line, badge, cue in (
            ('<Since v="6.0.0" />', '<Since v="6.0.0" />', "Since component 6.0.0"),
            (
                '<p><Since v="2.1.0" pkg="@widgets/lid" /></p>',
                '<Since v="2.1.0" pkg="@widgets/lid" />',
                "Since component 2.1.0",
            ),
            ('<VersionBadge version="2.9.1" />', '<VersionBadge version="2.9.1" />', "VersionBadge component 2.9.1"),
            ("{{< new-in 0.140.0 >}}", "{{< new-in 0.140.0 >}}", "new-in 0.140.0"),
        ):
            for grammar in ("blocks-3", "blocks-4"):
                with self.subTest(badge=line, grammar=grammar):
                    self.assertEqual(
                        self.caveats(f"{line}\n\n{step}", grammar),
                        [(badge, "version", cue, step.strip(), "version badge, after")],
                    )
        self.assertEqual(
            self.caveats(f"{{{{% deprecated-in 0.120 %}}}}\n\n{step}"),
            [
                (
                    "{{% deprecated-in 0.120 %}}",
                    "deprecation",
                    "deprecated-in 0.120",
                    step.strip(),
                    "version badge, after",
                )
            ],
        )

    def test_what_is_no_badge(self) -> None:
        for body in (
            # In a sentence, in code, without a version.
            'Open it once. <Since v="6.0.0" /> It stays open.\n',
            '```mdx\n<Since v="6.0.0" />\n```\n',
            '<Since v="next" />\n',
            '<Sincere v="6.0.0" />\n',
            # In indented code, an HTML comment, an MDX comment; a line too long to be a badge alone.
            'Write it so:\n\n    <Since v="6.0.0" />\n\nCall `open_widget()` to open it.\n',
            '<!--\n<Since v="6.0.0" />\n-->\n\nCall `open_widget()` to open it.\n',
            '{/*\n<Since v="6.0.0" />\n*/}\n\nCall `open_widget()` to open it.\n',
            "<Since" + ' v="1"' * 60 + " />\n\nCall `open_widget()` to open it.\n",
        ):
            with self.subTest(body=body):
                self.assertEqual([item for item in self.caveats(body) if "component" in item[2]], [])

    def test_a_badge_with_no_step_in_reach_is_unpaired(self) -> None:
        self.assertEqual(
            self.caveats('<Since v="6.0.0" />\n\nThe widget has a lid.\n'),
            [('<Since v="6.0.0" />', "version", "Since component 6.0.0")],
        )


class PrerequisitesTest(LabTestCase):
    """``scan_version`` 11: the items of a list of prerequisites are requirements of what follows."""

    def found(self, text: str) -> list[tuple]:
        pairs, unpaired = scan(text, "blocks-4")
        return [(pair.qualifier.quote, pair.cue) for pair in pairs] + [(item.span.quote, item.cue) for item in unpaired]

    def test_a_prerequisites_section_and_a_lead_in_that_says_so(self) -> None:
        items = "- A widget account.\n- The `widget` CLI, version 2 or later.\n"
        expected = [("A widget account.", "prerequisite"), ("The `widget` CLI, version 2 or later.", "prerequisite")]
        for text in (
            f"# T\n\n## Prerequisites\n\n{items}\n## Steps\n\nRun `widget open`.\n",
            f'# T\n\n## {{{{% heading "prerequisites" %}}}}\n\n{items}\n## Steps\n\nRun `widget open`.\n',
            f"# T\n\n## Set up\n\nBefore you begin, you will need:\n\n{items}\nRun `widget open`.\n",
        ):
            with self.subTest(text=text[:50]):
                self.assertEqual(sorted(item for item in self.found(text) if item[1] == "prerequisite"), expected)

    def test_what_lists_no_prerequisites(self) -> None:
        items = "- Remove the widget.\n- The lid stays on the shelf.\n"
        for text in (
            # A condition that leads to steps, a need to do, an ordinary section.
            f"# T\n\n## Remove\n\nIf you need to remove the widget, follow these steps:\n\n{items}",
            f"# T\n\n## Remove\n\nYou will need to remove it:\n\n{items}",
            f"# T\n\n## Remove\n\nThe steps:\n\n{items}",
        ):
            with self.subTest(text=text[20:60]):
                self.assertEqual([item for item in self.found(text) if item[1] == "prerequisite"], [])
        # An item that instructs stays an instruction, in a prerequisites section too.
        found = self.found(f"# T\n\n## Prerequisites\n\n{items}")
        self.assertEqual(
            [item for item in found if item[1] == "prerequisite"], [("The lid stays on the shelf.", "prerequisite")]
        )

    def test_prerequisites_are_of_tier_three(self) -> None:
        # scan_version 12: labellers disagree on these lists, so they are kept for review, not at tier 2.
        text = "# T\n\n## Prerequisites\n\n- A widget account.\n\n## Steps\n\nRun `widget open`.\n"
        pairs, unpaired = scan(text, "blocks-4")
        self.assertEqual([(item.span.quote, item.tier) for item in unpaired], [("A widget account.", 3)])
        self.assertEqual(findings.kept_to_tier((pairs, unpaired), 2), ([], []))


class ScanVersionThirteenTest(LabTestCase):
    """scan_version 13: "experimental" marks a feature when said of it, and names a variant before a noun."""

    def test_experimental_said_of_the_feature_is_a_version_caveat(self) -> None:
        for sentence in (
            "Workspace support is experimental.",
            "The zip application is currently experimental.",
            "Tools are still experimental and may change.",
            "This is an experimental feature.",
            "Experimental: the format may change.",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertEqual((cue.rule, cue.tier), ("version", 2))

    def test_experimental_before_a_noun_is_of_tier_3(self) -> None:
        assert_no_caveat_below_tier_3(
            self,
            (
                "See the backend table for the stable and experimental choices.",
                "With experimental incremental execution enabled, it also wraps each frame.",
            ),
        )


class ScanVersionFourteenTest(LabTestCase):
    """scan_version 14: an alert's text on its marker's line is read, as the alert it is; the plural of "raises"."""

    def test_an_alert_with_its_text_on_the_marker_line_is_read_as_that_alert(self) -> None:
        text = (
            "# Forms\n\nTo enhance a form, add the `enhance` action to it.\n\n"
            "> [!NOTE] `enhance` can only be used with forms that post.\n\n"
            "Pass `navigate` to `update`.\n\n"
            "> [!WARNING] Back up the store first.\n"
        )
        found = [
            (pair.instruction.quote, pair.qualifier.quote, pair.rule, pair.cue, pair.tier)
            for pair in scan(text, "blocks-4")[0]
        ]
        self.assertEqual(
            found,
            [
                # In a note, "can only" of tier 2 is of tier 1; the marker is no part of the quote.
                (
                    "To enhance a form, add the `enhance` action to it.",
                    "`enhance` can only be used with forms that post.",
                    "limitation",
                    "can only",
                    1,
                ),
                # The block's own tier is 1; linked by nearness alone, the pair is of tier 2.
                ("Pass `navigate` to `update`.", "Back up the store first.", "cautionary block", "warning alert", 2),
            ],
        )

    def test_raise_and_throw_after_their_subject_are_errors(self) -> None:
        for sentence, expected in {
            "The client's methods throw errors in case of failure.": ("error", "throw"),
            "Both functions raise `ValueError` on empty input.": ("error", "raise"),
            "This will inevitably raise errors.": ("error", "raise"),
            "The default is overridden by the context's option.": ("limitation", "is overridden by"),
            "Inline code is not impacted by the size.": ("limitation", "is not impacted"),
        }.items():
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertEqual((cue.rule, cue.cue), expected)

    def test_raise_opening_a_clause_or_after_to_is_no_error(self) -> None:
        for sentence in (
            "Raise an error if the key is missing.",
            "Use validators to raise errors early.",
            "It is better to return None than raise exceptions.",
            "The timeout can be overridden by setting it.",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.rule != "error" and "overridden" not in cue.cue, (sentence, cue))


class MdcMarkerLineTest(LabTestCase):
    """scan_version 14: MDC's marker lines (``::note``, ``::``, a line of inline components alone) are no sentence and
    no part of one, under every grammar; under "blocks-5" a ``::warning`` is a cautionary block."""

    def quotes(self, block: str) -> list[str]:
        return [block[start:end] for start, end in sentences.sentence_spans(block, 0, len(block))]

    def test_marker_lines_end_sentences_and_are_none(self) -> None:
        cases = [
            ("::note\nMind the path.\n::\n", ["Mind the path."]),
            ('  ::tip{icon="i-bulb"}\n  Use it.\n  ::\n', ["Use it."]),
            ('Read on.\n:read-more{to="/docs/x" title="X"}\n', ["Read on."]),
            ("::read-more[the guide]\nRead more.\n::\n", ["Read more."]),
        ]
        for block, expected in cases:
            with self.subTest(block=block):
                self.assertEqual(self.quotes(block), expected)
        # Not markers: text after the colons, a label shown inline, a definition list's value.
        cases = [
            (":: x\n", [":: x"]),
            (":badge[New] It fails.\n", [":badge[New] It fails."]),
            (":   The value.\n", ["The value."]),
        ]
        for block, expected in cases:
            with self.subTest(block=block):
                self.assertEqual(self.quotes(block), expected)

    def test_a_note_marker_is_out_of_the_quote_under_blocks_4(self) -> None:
        # "# T\n\n## S\n\n" [0, 11); "Call open_widget(name) to open it.\n" [11, 46); a blank line; "::note\n" [47, 54);
        # "It must not be called twice.\n" [54, 83): blocks-4 reads the three lines as one paragraph.
        text = lesson("Call open_widget(name) to open it.\n\n::note\nIt must not be called twice.\n::\n")
        pairs, _ = scan(text, "blocks-4")
        self.assertEqual(
            [(p.qualifier.start, p.qualifier.quote) for p in pairs], [(54, "It must not be called twice.")]
        )

    def test_a_warning_is_a_cautionary_block_under_blocks_5(self) -> None:
        # "::warning\n" [47, 57); "It overwrites the file.\n" [57, 81): the body without its marker lines.
        text = lesson("Call open_widget(name) to open it.\n\n::warning\nIt overwrites the file.\n::\n")
        pairs, _ = scan(text, "blocks-5")
        self.assertEqual(
            [(p.rule, p.cue, p.qualifier.start, p.qualifier.quote) for p in pairs],
            [("cautionary block", "warning admonition", 57, "It overwrites the file.")],
        )


class ScanVersionFifteenTest(LabTestCase):
    """scan_version 15: a person's own account ("I …") lays no rule on the reader."""

    def test_a_sentence_told_in_the_first_person_singular_is_of_tier_3(self) -> None:
        assert_no_caveat_below_tier_3(
            self,
            (
                "I move on if it doesn't work.",
                "I know they don't audit anything.",
                "Sometimes I end up finding out that I need to install something else.",
                "I'm assuming that a package there must be alright.",
            ),
        )

    def test_io_is_no_first_person(self) -> None:
        cue, _ = caveat_of("Custom classes must not perform any I/O.")
        self.assertEqual((cue.rule, cue.cue, cue.tier), ("prohibition", "must not", 1))

    def test_ie_is_no_first_person(self) -> None:
        # scan_version 18: "I.e." abbreviates "that is"; the sentence's "must not" keeps its tier.
        for sentence in ("I.e. the handle must not be shared.", "I. e. the handle must not be shared."):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertEqual((cue.rule, cue.cue, cue.tier), ("prohibition", "must not", 1))


class ScanVersionSixteenTest(LabTestCase):
    """scan_version 16: at most three words between "is" (or "still", "currently", …) and "experimental"."""

    def test_four_words_between_is_no_longer_tier_2(self) -> None:
        # "is", then "a very very highly" (four words, none of which opens the phrase), then "experimental" before a
        # noun: only the tier-3 cue is left.
        cue, _ = caveat_of("The API is a very very highly experimental one.")
        self.assertEqual((cue.rule, cue.cue, cue.tier), ("version", "experimental", 3))
        cue, _ = caveat_of("The API is a very highly experimental one.")
        self.assertEqual((cue.rule, cue.cue, cue.tier), ("version", "is a very highly experimental", 2))

    def test_a_long_run_of_still_is_read_in_one_pass(self) -> None:
        # "It is " (6 characters), then 2,000 "still " (6 each), then "experimental.": "is" is too far, and so is every
        # "still" but the fourth from the end, which has three more before "experimental". Unbounded, each of the
        # 2,000 was rescanned to the end of the run (seconds for a 20,000-character sentence).
        sentence = "It is " + "still " * 2000 + "experimental."
        cues = rules.sentence_cues(reading(sentence))
        self.assertEqual(
            [(cue.rule, cue.cue, cue.tier, cue.start) for cue in cues],
            [("version", "still still still still experimental", 2, 6 + 6 * 1996)],
        )

    def test_experimental_before_a_long_run_of_space_is_read_in_one_pass(self) -> None:
        # "The " is 4 characters: the cue starts at 4. Closing a clause ("and", "or", "but" after space, a mark, the
        # end) it is of tier 2, else of tier 3; the run of 20,000 spaces between was once rescanned from each of its
        # places (2.6 s; 40 s for 80,000).
        run = " " * 20_000
        cases = {
            "The experimental" + run + "and stable one.": 2,
            "The experimental" + run + "\nbut small one.": 2,
            "The experimental" + run + ", then.": 2,
            "The experimental" + run + "x.": 3,
            "The experimental" + run + "android one.": 3,
            "The experimental" + run: 2,
        }
        for sentence, tier in cases.items():
            with self.subTest(sentence=sentence[:16] + " … " + sentence[-15:]):
                cues = rules.sentence_cues(reading(sentence))
                self.assertEqual(
                    [(cue.rule, cue.cue, cue.tier, cue.start) for cue in cues], [("version", "experimental", tier, 4)]
                )
        self.assertEqual(caveat_of("It ships an experimental and fast cache.")[0].tier, 2)
        self.assertEqual(caveat_of("It ships an experimental cache.")[0].tier, 3)

    def test_an_alert_marker_alone_on_its_line_in_a_body_leaves_the_quote_at_the_text(self) -> None:
        # "# T\n\n" [0, 5); the instruction [5, 39) and its newline; a blank line; "!!! warning\n" [41, 53);
        # "    [!NOTE]\n" [53, 65); "    It must not be called twice." from 69: neither the marker nor the newline and
        # indent after it (scan_version 16; under 15 the quote opened on that newline).
        text = (
            "# T\n\nCall open_widget(name) to open it.\n\n!!! warning\n    [!NOTE]\n    It must not be called twice.\n"
        )
        pairs, _ = scan(text, "blocks-4")
        self.assertEqual(
            [(pair.qualifier.start, pair.qualifier.quote, pair.rule) for pair in pairs],
            [(69, "It must not be called twice.", "cautionary block")],
        )


class ScanVersionSeventeenTest(LabTestCase):
    """scan_version 17: webpack's "W>", "T>" and "?>" notes, and a badge whose text is a version."""

    def found(self, text: str) -> list[tuple]:
        return [
            (pair.qualifier.start, pair.qualifier.quote, pair.rule, pair.cue, pair.instruction.quote)
            for pair in scan(text, "blocks-5")[0]
        ]

    def test_a_letter_note_is_read_as_its_admonition(self) -> None:
        # "# T\n\n" [0, 5); "Set `mode` to `production`.\n" [5, 33); a blank line; "W> " [34, 37), then the text.
        text = "# T\n\nSet `mode` to `production`.\n\nW> It overwrites the emitted `index.html` file.\n"
        self.assertEqual(
            self.found(text),
            [
                (
                    37,
                    "It overwrites the emitted `index.html` file.",
                    "cautionary block",
                    "warning admonition",
                    "Set `mode` to `production`.",
                )
            ],
        )

    def test_a_tip_is_a_note_and_its_marker_no_part_of_the_sentence(self) -> None:
        # "T> " [34, 37): the note's "only works" of tier 2 is of tier 1 in a note.
        text = "# T\n\nSet `mode` to `production`.\n\nT> It only works in production mode.\n"
        pairs, _ = scan(text, "blocks-5")
        self.assertEqual(
            [(p.qualifier.start, p.qualifier.quote, p.cue, p.caveat_tier) for p in pairs],
            [(37, "It only works in production mode.", "only works", 1)],
        )

    def test_a_badge_whose_text_is_a_version_dates_what_follows(self) -> None:
        # "# T\n\n" [0, 5); '<Badge text="5.80.0+" />' [5, 29); then the step after it.
        text = '# T\n\n<Badge text="5.80.0+" />\n\nSet `stats.errorsSpace` to a number.\n'
        self.assertEqual(
            self.found(text),
            [
                (
                    5,
                    '<Badge text="5.80.0+" />',
                    "version",
                    "Badge component 5.80.0",
                    "Set `stats.errorsSpace` to a number.",
                )
            ],
        )

    def test_a_badge_of_a_word_and_a_letter_without_its_marker_are_no_caveat(self) -> None:
        text = '# T\n\n<Badge text="New" />\n\nSet `x` to one.\n\nW>ithout a space it is text.\n'
        self.assertEqual(self.found(text), [])


class ScanVersionTwentyTwoTest(LabTestCase):
    """scan_version 22: a caveat no instruction in reach takes is paired with the sentence just before it that
    describes, in code, what it names."""

    # (From scan_version 28 a sentence whose subject is the code it names, "The `dependencies` parameter is …", is an
    # instruction itself: this description opens on its own word.)
    DESCRIBES = "Decorators listed in `dependencies` run before it."
    CAVEAT = "If one of the `dependencies` is missing, the `decorate` method raises an exception."

    def found(self, body: str, grammar: str = "lesson") -> tuple[list[tuple], list[str]]:
        pairs, unpaired = scan(lesson(body), grammar)
        return (
            [(p.instruction.start, p.instruction.quote, p.link, p.instruction_form, p.tier) for p in pairs],
            [item.span.quote for item in unpaired],
        )

    def test_the_sentence_before_that_names_its_code(self) -> None:
        # "# T\n\n## S\n\n" is [0, 11): the description starts at 11, in the block before the caveat's.
        described = (11, self.DESCRIBES, "described, identifier dependencies", "api description", 2)
        for body in (f"{self.DESCRIBES}\n\n{self.CAVEAT}\n", f"{self.DESCRIBES} {self.CAVEAT}\n"):
            with self.subTest(body=body):
                self.assertEqual(self.found(body), ([described], []))

    def test_never_two_blocks_back_after_it_or_without_a_shared_name(self) -> None:
        for body in (
            f"{self.DESCRIBES}\n\nIt is read once.\n\n{self.CAVEAT}\n",
            f"{self.CAVEAT}\n\n{self.DESCRIBES}\n",
            f"Each retry waits a second.\n\n{self.CAVEAT}\n",
        ):
            with self.subTest(body=body):
                self.assertEqual(self.found(body), ([], [self.CAVEAT]))

    def test_never_a_table_cell_or_another_caveat(self) -> None:
        table = "| Name | Meaning |\n| --- | --- |\n| `dependencies` | A list of decorators. |\n"
        self.assertEqual(self.found(f"{table}\n{self.CAVEAT}\n", "blocks-5"), ([], [self.CAVEAT]))
        other = "The `dependencies` list must not be empty."
        pairs, unpaired = self.found(f"{other}\n\n{self.CAVEAT}\n")
        self.assertEqual(pairs, [])
        self.assertEqual(sorted(unpaired), sorted([other, self.CAVEAT]))

    def test_an_instruction_in_reach_comes_first(self) -> None:
        # The instruction is three prose blocks back, the description in the block before: the rules before 22 win.
        call = "Pass a list to `decorate`."
        body = f"{call}\n\nOne.\n\n{self.DESCRIBES}\n\n{self.CAVEAT}\n"
        self.assertEqual(self.found(body), ([(11, call, "identifier decorate", "imperative", 1)], []))


class ScanVersionTwentyThreeTest(LabTestCase):
    """scan_version 23: a reference entry's description counts where the entry is available at all."""

    def test_an_entry_s_availability_is_a_caveat_of_its_item(self) -> None:
        # "# T\n\n## S\n\n" is [0, 11); "- " [11, 13); the item's sentence, the term with its description, from 13.
        for description, cue in (
            ("Only available on macOS 14 and up.", "only available"),
            ("Not supported on Windows.", "not supported"),
        ):
            with self.subTest(description=description):
                pairs, unpaired = scan(lesson(f"- `header` - {description}\n"), "blocks-5")
                self.assertEqual(pairs, [])
                self.assertEqual(
                    [(u.span.start, u.span.quote, u.rule, u.cue) for u in unpaired],
                    [(13, f"`header` - {description}", "limitation", cue)],
                )

    def test_an_entry_s_other_limitations_still_describe_it(self) -> None:
        # What the option does ("does not print") is its description, no caveat, as before 23.
        self.assertEqual(scan(lesson("- `--quiet` - Does not print the summary.\n"), "blocks-5"), ([], []))

    def test_availability_counts_only_in_a_reference_entry_as_before_elsewhere(self) -> None:
        cue, _ = caveat_of("Only available on macOS 14 and up.")
        self.assertEqual((cue.rule, cue.cue), ("limitation", "only available"))
        self.assertEqual(
            caveat_of("`header` - Only available on macOS 14 and up.", reference=True)[0].cue, "only available"
        )
        self.assertIsNone(caveat_of("`header` - Does not print the summary.", reference=True)[0])


class ScanVersionTwentyFourTest(LabTestCase):
    """scan_version 24: a badge on a definition's line dates its own entry, and is the badge alone."""

    # "# T\n\n" [0, 5), "## Options\n\n" [5, 17), "`retries`\n" [17, 27), ": " [27, 29), the badge [29, 52).
    BADGE = "{{< new-in 0.150.0 />}}"

    def found(self, body: str) -> tuple[list[tuple], list[tuple]]:
        pairs, unpaired = scan("# T\n\n## Options\n\n" + body, "blocks-6")
        return (
            [(p.qualifier.start, p.qualifier.quote, p.instruction.quote, p.link) for p in pairs],
            [(u.span.start, u.span.quote) for u in unpaired],
        )

    def test_never_the_next_entry_s_instruction(self) -> None:
        body = (
            f"`retries`\n: {self.BADGE}\n: (`int`) How many times a call is tried.\n\n"
            "`timeout`\n: (`int`) The seconds to wait. Set it to `0` to wait forever.\n"
        )
        self.assertEqual(self.found(body), ([], [(29, self.BADGE)]))

    def test_its_own_entry_s_instruction_after_it(self) -> None:
        body = f"`retries`\n: {self.BADGE}\n: (`int`) The tries. Set it to `0` to try once.\n"
        self.assertEqual(
            self.found(body), ([(29, self.BADGE, "Set it to `0` to try once.", "version badge, same entry")], [])
        )

    def test_a_badge_of_its_own_still_dates_the_text_after_it(self) -> None:
        # "# T\n\n## Options\n\n" is [0, 17): the badge's paragraph starts there.
        self.assertEqual(
            self.found(f"{self.BADGE}\n\nSet `retries` to `0` to try once.\n"),
            ([(17, self.BADGE, "Set `retries` to `0` to try once.", "version badge, after")], []),
        )


class ScanVersionTwentyFiveTest(LabTestCase):
    """scan_version 25: a sentence that opens on "Make sure", "Be sure" or "Ensure that" states a requirement of
    what it qualifies; it is a caveat, no instruction. After a purpose or a condition it is still the step."""

    def test_an_opening_make_sure_is_a_requirement(self) -> None:
        for sentence, cue in (
            ("Make sure to call `close()`.", "make sure"),
            ("Please be sure that the branch is rebased.", "be sure"),
            ("Ensure that the `GH_TOKEN` variable is set.", "ensure that"),
            ("Also make sure the queue is empty.", "make sure"),
        ):
            with self.subTest(sentence=sentence):
                found, form = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue, form), ("requirement", cue, None))

    def test_after_a_purpose_or_a_condition_it_is_the_step(self) -> None:
        self.assertEqual(caveat_of("To report it, be sure to include the version."), (None, "to-clause"))
        self.assertEqual(caveat_of("If it is slow, make sure the cache is on.")[1], "imperative")

    def test_it_qualifies_the_instruction_before_it(self) -> None:
        # "# T\n\n## S\n\n" is [0, 11): the instruction there, the requirement after it in its block.
        text = lesson("Run `deploy` to publish the site. Make sure the `GH_TOKEN` variable is set.\n")
        pairs, unpaired = scan(text)
        self.assertEqual(
            [(p.instruction.start, p.instruction.quote, p.qualifier.quote, p.rule) for p in pairs],
            [(11, "Run `deploy` to publish the site.", "Make sure the `GH_TOKEN` variable is set.", "requirement")],
        )
        self.assertEqual(unpaired, [])


class ScanVersionTwentySevenTest(LabTestCase):
    """scan_version 27: a caveat in a list item takes no sentence of an earlier item at its own depth or deeper (a
    sibling's, or one under a sibling); a parent item's sentence it may take."""

    def test_a_siblings_instruction_is_out_of_reach(self) -> None:
        # The only instruction before the caveat in its block is the item before: the lead-in paragraph is taken.
        text = lesson(
            "Build the widget with the steps below.\n\n- Run `build` to compile the widget.\n"
            "- Bytes can't be passed as a value.\n"
        )
        self.assertEqual(
            pairs_of(text),
            [("Bytes can't be passed as a value.", "Build the widget with the steps below.", "nearest", "imperative")],
        )
        # With no other instruction in reach, the caveat is reported unpaired, not given the sibling's.
        only_items = lesson("- Run `build` to compile the widget.\n- Bytes can't be passed as a value.\n")
        pairs, unpaired = scan(only_items, "blocks-3")
        self.assertEqual((pairs, [item.span.quote for item in unpaired]), ([], ["Bytes can't be passed as a value."]))

    def test_a_parent_items_instruction_stays_in_reach(self) -> None:
        text = lesson("- Run `build` to compile the widget.\n  - It can't run twice.\n- Run `lint` to check it.\n")
        self.assertEqual(
            pairs_of(text), [("It can't run twice.", "Run `build` to compile the widget.", "anaphor It", "imperative")]
        )
        # Under a sibling, deeper than the caveat's item, is out of reach too.
        text = lesson("- Set up:\n  - Run `build` to compile the widget.\n- Bytes can't be passed as a value.\n")
        self.assertEqual(pairs_of(text), [])

    def test_item_openings_and_depths(self) -> None:
        block = "- a\n  - b\n\t- c\n> - d\n1. e\n"
        places, owners = pairing.item_openings(block, 0, len(block))
        self.assertEqual(places, [0, 4, 10, 15, 21])
        self.assertEqual(owners, [(0, 0), (4, 2), (10, 4), (15, 2), (21, 0)])
        # A paragraph after a blank line, indented to the parent's content (column 2), is the parent's again; a
        # line running on a paragraph, unindented, stays with it; one at the margin after a blank is no item's.
        block = "- a\n  - b\n\n  c\nlazy\n\nd\n"
        self.assertEqual(pairing.item_openings(block, 0, len(block)), ([0, 4, 11, 21], [(0, 0), (4, 2), (0, 0), None]))

    def test_a_parents_paragraph_after_its_children_takes_their_instructions(self) -> None:
        # The caveat is the top item's paragraph after its nested list: the children are its own item's, in reach.
        text = lesson(
            "- Configure the server in `server.toml`.\n  - Set `port` to the port to listen on.\n"
            "  - Read the `host` field.\n\n  The `port` must not be below 1024.\n"
        )
        self.assertEqual(
            pairs_of(text),
            [
                (
                    "The `port` must not be below 1024.",
                    "Set `port` to the port to listen on.",
                    "identifier port",
                    "imperative",
                )
            ],
        )


class ScanVersionTwentyEightTest(LabTestCase):
    """scan_version 28: a sentence whose subject is a name given as code, then its verb, names the API for what it
    does: an instruction of form ``api description``, indirect (its pairs are tier 2 at best)."""

    def test_a_code_subject_and_its_verb_is_an_api_description(self) -> None:
        for sentence in (
            "`preload` is a Route property for preparing route data.",
            "The `uvx` command invokes a tool without installing it.",
            "The `dependencies` parameter is an optional list of decorators.",
            "A `Sample` value returns the recorded result.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, "api description"))

    def test_other_sentences_read_as_before(self) -> None:
        # A subject that is no code, a pointer, a table's cell, a reference entry, and one with a cue (a caveat).
        self.assertEqual(caveat_of("Decorators listed in `dependencies` run before it."), (None, None))
        self.assertEqual(caveat_of("See `preload` for more."), (None, None))
        self.assertEqual(
            pairing.classified(reading("`preload` is a Route property."), False, False, False, False, True),
            (None, None),
        )
        self.assertEqual(caveat_of("`preload` - is a Route property.", reference=True), (None, None))
        found, form = caveat_of("`preload` is not called for a hash route.")
        self.assertEqual((found.rule, form), ("limitation", None))

    def test_it_is_the_instruction_its_caveat_takes(self) -> None:
        # "# T\n\n## S\n\n" is [0, 11): the description opens the section, the caveat follows in the next block.
        description = "`preload` is a Route property for preparing route data."
        caveat = "It runs only when `preloadData` is truthy."
        pairs, unpaired = scan(lesson(f"{description}\n\n{caveat}\n"))
        self.assertEqual(
            [(p.instruction.start, p.instruction.quote, p.instruction_form, p.link, p.tier) for p in pairs],
            [(11, description, "api description", "anaphor It", 2)],
        )
        self.assertEqual(unpaired, [])


class ScanVersionTwentyNineTest(LabTestCase):
    """scan_version 29: a sentence of links alone is no caveat, whatever its link texts say."""

    def test_an_index_of_links_is_no_caveat(self) -> None:
        index = "[unless](#method-unless) [whereNot](#method-wherenot) [cannot](#method-cannot)\n"
        pairs, unpaired = scan(lesson(f"Call `collect()` to make a collection.\n\n{index}"), "blocks-6")
        self.assertEqual((pairs, unpaired), ([], []))
        # A sentence with words of its own besides a link still holds its cue.
        pairs, _ = scan(lesson("Call `collect()` to make a collection.\n\nIt fails unless [keys](#keys) are set.\n"))
        self.assertEqual([p.qualifier.quote for p in pairs], ["It fails unless [keys](#keys) are set."])

    def test_links_only(self) -> None:
        self.assertTrue(rules.is_links_only("- [a](#a), [b][ref] | [c](https://example.org/c)."))
        self.assertTrue(rules.is_links_only('[unless](#u "Unless, when it fails") [where](#w)'))
        self.assertFalse(rules.is_links_only("See [a](#a) unless it fails."))
        self.assertFalse(rules.is_links_only("[a](#a) is never called twice."))


class ScanVersionThirtyTest(LabTestCase):
    """scan_version 30: an HTML element's block that holds a Markdown table is read as a table, cell by cell."""

    TABLE = (
        "| Command | Description |\n| --- | --- |\n"
        "| `$table->spatialIndex('location');` | Adds a spatial index (except SQLite). |\n"
    )

    def test_a_wrapped_tables_cell_qualifies_its_lead(self) -> None:
        lead = "Use these index methods to index a column:"
        for body in (f'{lead}\n\n<div class="overflow-auto">\n\n{self.TABLE}\n</div>\n', f"{lead}\n\n{self.TABLE}"):
            with self.subTest(wrapped=body.count("<div")):
                pairs, unpaired = scan(lesson(body), "blocks-6")
                self.assertEqual(
                    [(p.qualifier.quote, p.instruction.quote, p.link) for p in pairs],
                    [("Adds a spatial index (except SQLite).", lead, "table lead")],
                )
                self.assertEqual(unpaired, [])

    def test_only_the_tables_lines_are_cells(self) -> None:
        text = "<div>\n\n| a | b |\n|:-:|--:|\n| c | d |\n\nNo rule here.\n</div>\n"
        block = grammars.Block("html", 0, len(text))
        start = text.index("| a")
        self.assertEqual(pairing.html_table_runs(text, block), [(start, text.index("\nNo rule"))])
        for body in ("<div>\n\n| a | b |\n\nNo rule here.\n</div>\n", "<div>\n" + " " * 5000 + "x\n</div>\n"):
            self.assertEqual(pairing.html_table_runs(body, grammars.Block("html", 0, len(body))), [])
        # The element's prose before its table stays prose: its caveat takes its instruction by its anaphor.
        body = (
            "<details>\n<summary>Uploads</summary>\n\nCall `upload(file)` to send a file. It must not be larger than "
            f"10 MB.\n\n{self.TABLE}\n</details>\n"
        )
        pairs, _ = scan(lesson(body), "blocks-6")
        self.assertIn(
            ("It must not be larger than 10 MB.", "Call `upload(file)` to send a file.", "anaphor It"),
            [(p.qualifier.quote, p.instruction.quote, p.link) for p in pairs],
        )


class ScanVersionThirtyOneTest(LabTestCase):
    """scan_version 31: a caveat of a section titled as caveats that no instruction of its section takes qualifies
    the last instruction of the nearest section before that has one."""

    def test_a_limitations_sections_caveat_takes_the_section_befores_instruction(self) -> None:
        body = (
            "Enable automatic resolution with `--auto`.\n\nIt resolves the extensions a script imports.\n\n"
            "### Limitations\n\nExtensions must be signed.\n"
        )
        # "must" is of tier 1, of tier 2 in a section without code (an outright requirement); the link is of tier 2.
        pairs, unpaired = scan(lesson(body), "blocks-6")
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote, p.link, p.tier) for p in pairs],
            [("Extensions must be signed.", "Enable automatic resolution with `--auto`.", "caveats section", 2)],
        )
        self.assertEqual(unpaired, [])

    def test_another_title_keeps_its_caveat_unpaired(self) -> None:
        body = "Enable automatic resolution with `--auto`.\n\n### Scripts\n\nOnly official extensions are supported.\n"
        pairs, unpaired = scan(lesson(body), "blocks-6")
        self.assertEqual((pairs, [u.span.quote for u in unpaired]), ([], ["Only official extensions are supported."]))

    def test_the_titles_read_as_caveats(self) -> None:
        for title in (
            "Limitations",
            "Known issues",
            "Caveats and gotchas",
            "Unsupported settings",
            "Security considerations",
        ):
            self.assertTrue(pairing.is_caveats_title(title), title)
        for title in ("Usage", "Limiting rates", "Warningless builds", "Notes"):
            self.assertFalse(pairing.is_caveats_title(title), title)


class ScanVersionThirtyTwoTest(LabTestCase):
    """scan_version 32: a title labelling one message or example, a word of a name and the singular "Warning" make no
    caveats section; what a ``<script>``, ``<style>`` or ``<template>`` element holds is no prose."""

    def test_a_message_or_a_names_word_titles_no_caveats_section(self) -> None:
        for title in (
            "Error: Tenant ID contains unsupported character",
            "Example 3: Send the Warning stream to a file",
            "Warning: could not find the target",
            "Warning stream",
            "Write-Warning",
            "stats.warnings",
            "warnings.filter",
        ):
            self.assertFalse(pairing.is_caveats_title(title), title)
        for title in (
            "Known limitations",
            "Commands that do not exit are not supported",
            "Upgrade considerations",
            "Limitations.",
        ):
            self.assertTrue(pairing.is_caveats_title(title), title)
        body = (
            "### Error: Unsafe tenant ID\n\nChoose a different tenant ID.\n\n"
            "### Error: Tenant ID contains unsupported character\n\nTenant IDs must not hold a slash.\n"
        )
        pairs, unpaired = scan(lesson(body), "blocks-6")
        self.assertEqual((pairs, [u.span.quote for u in unpaired]), ([], ["Tenant IDs must not hold a slash."]))

    def test_a_script_elements_text_is_no_sentence(self) -> None:
        script = '<script type="text/x-template">\n{{#unless result}}\nYou must not see this.\n{{/unless}}\n</script>\n'
        text = lesson("Run the query first.\n\n" + script + "\nThe query must not be empty.\n")
        start = text.index("<script")
        self.assertEqual(
            pairing.raw_text_bodies(text, start, start + len(script)), [(start, text.index("</script>") + 9)]
        )
        pairs, unpaired = scan(text, "blocks-6")
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote) for p in pairs],
            [("The query must not be empty.", "Run the query first.")],
        )
        self.assertEqual(unpaired, [])
        # One never closed runs to its block's end; one mentioned after text on its line is none.
        for block, bodies in (
            ("<style>\np { color: red }\n", [(0, 25)]),  # 7 + 1 + 16 + 1 characters
            ("<div>\nIf not using `<script setup>`, call it.\n</div>\n", []),
            ("<scripts>\nA custom element.\n</scripts>\n", []),
        ):
            with self.subTest(block=block):
                self.assertEqual(pairing.raw_text_bodies(block + "after", 0, len(block)), bodies)


class ScanVersionThirtyThreeTest(LabTestCase):
    """scan_version 33: "Note that …" marks a caveat of tier 2; "Note:" and "notably" stay of tier 3."""

    def test_note_that_is_of_tier_2(self) -> None:
        for sentence, tier in (
            ("Note that the handle is closed after each call.", 2),
            ("Note: the handle is closed after each call.", 3),
            ("Notably, the handle is closed after each call.", 3),
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertEqual((cue.rule, cue.tier), ("label", tier))
        pairs, _ = scan(
            lesson("Call `open(path)` to read a file.\n\nNote that the handle is closed after each call.\n")
        )
        self.assertEqual(
            [(p.instruction.quote, p.qualifier.quote, p.tier) for p in pairs],
            [("Call `open(path)` to read a file.", "Note that the handle is closed after each call.", 2)],
        )


class ScanVersionThirtyFourTest(LabTestCase):
    """scan_version 34: a list item's caveat takes no sentence of an item after its own has ended (from 35 told by
    where its item ends, its own nested items in reach); in a section without code a requirement or a limitation of
    tier 2 keeps its tier."""

    def test_a_later_siblings_instruction_is_out_of_reach(self) -> None:
        # The caveat ends the first item; the only instruction after it is the next item's: the caveat is unpaired.
        body = "- Bytes can't be passed as a value.\n- Run `build` to compile the widget.\n"
        pairs, unpaired = scan(lesson(body), "blocks-3")
        self.assertEqual((pairs, [item.span.quote for item in unpaired]), ([], ["Bytes can't be passed as a value."]))
        # A sentence after the list is in no item of it: in reach.
        after = lesson(body + "\nRun `check` afterwards.\n")
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote) for p in scan(after, "blocks-3")[0]],
            [("Bytes can't be passed as a value.", "Run `check` afterwards.")],
        )

    def test_the_caveats_own_nested_items_stay_in_reach_and_a_parents_next_item_does_not(self) -> None:
        # The caveat ends the first item; its own nested item instructs, and is in reach.
        own = "- Bytes can't be passed as a value.\n  - Run `build` to compile the widget.\n"
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote) for p in scan(lesson(own), "blocks-3")[0]],
            [("Bytes can't be passed as a value.", "Run `build` to compile the widget.")],
        )
        # The caveat is a nested item; the next item of its parent's list comes after its item has ended: the parent's
        # own sentence is taken, not that item's.
        parents = "- Set up:\n  - Bytes can't be passed as a value.\n- Run `build` to compile the widget.\n"
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote) for p in scan(lesson(parents), "blocks-3")[0]],
            [("Bytes can't be passed as a value.", "Set up:")],
        )

    def test_item_ends(self) -> None:
        # "- a" [0, 4), "  - b" at 4, "\t- c" at 10, "> - d" at 15, "1. e" at 21, 26 characters: each item ends at
        # the next marker at its indent or nearer the margin; a paragraph of a parent item ends the items in it.
        block = "- a\n  - b\n\t- c\n> - d\n1. e\n"
        places, owners = pairing.item_openings(block, 0, len(block))
        self.assertEqual(
            pairing.item_ends(places, owners, len(block)),
            {(0, 0): 21, (4, 2): 15, (10, 4): 15, (15, 2): 21, (21, 0): 26},
        )
        block = "- a\n  - b\n\n  c\nlazy\n\nd\n"
        places, owners = pairing.item_openings(block, 0, len(block))
        self.assertEqual(pairing.item_ends(places, owners, len(block)), {(0, 0): 21, (4, 2): 11})

    def test_a_limitation_of_tier_2_keeps_it_without_code(self) -> None:
        # "does not" (limitation, tier 2): of tier 2 from 34 in a section without code, of tier 3 under 33.
        pairs, _ = scan(lesson("Keep the line moving.\n\nThe server does not parse the log lines.\n"))
        self.assertEqual([(p.rule, p.caveat_tier, p.tier) for p in pairs], [("limitation", 2, 2)])


class CaveatsSectionViewTest(LabTestCase):
    """A caveats section's pair names both sections in its context (scan_version 31)."""

    def test_both_sections_are_named(self) -> None:
        from checks.caveats import report as caveat_report

        text = lesson("Enable it with `--auto`.\n\n### Limitations\n\nExtensions must be signed.\n")
        sections = tuple(grammars.document_sections(text, "blocks-6", "doc", "doc"))
        starts = [section.heading_start for section in sections]
        first, last = text.index("Enable"), text.index("signed.") + len("signed.")
        self.assertEqual(caveat_report.pair_section(sections, starts, first, last), "S -> Limitations")
        self.assertEqual(caveat_report.pair_section(sections, starts, first, first + 5), "S")


def assert_each_leaves_unpaired(test: unittest.TestCase, sentences: tuple[str, ...], caveat: str) -> None:
    """Each of ``sentences``, in the block before ``caveat``, is no instruction it takes: the caveat is unpaired."""
    for sentence in sentences:
        with test.subTest(sentence=sentence):
            pairs, unpaired = scan(lesson(f"{sentence}\n\n{caveat}\n"))
            test.assertEqual((pairs, [item.span.quote for item in unpaired]), ([], [caveat]))


class ScanVersionThirtySixTest(LabTestCase):
    """scan_version 36: a pointer elsewhere ("See …", "Learn more about …") is never the sentence that describes the API
    a caveat names (``described_api``)."""

    CAVEAT = ScanVersionTwentyTwoTest.CAVEAT

    def test_a_pointer_naming_the_code_is_not_taken(self) -> None:
        # Each names `dependencies` as code in the block before the caveat, and points elsewhere: the caveat is unpaired.
        pointers = (
            "See the guide to `dependencies`.",
            "Learn more about `dependencies` in the reference.",
            "[Learn more about `dependencies`.](deps.md)",
            "For more details on `dependencies`, read the reference.",
        )
        assert_each_leaves_unpaired(self, pointers, self.CAVEAT)

    def test_a_description_behind_a_pointer_is_still_taken(self) -> None:
        # "# T\n\n## S\n\n" is [0, 11); the description starts at 11, then the pointer, nearer the caveat and naming
        # the same code: it is passed over, and the description taken.
        describes = ScanVersionTwentyTwoTest.DESCRIBES
        body = f"{describes} See the guide to `dependencies`.\n\n{self.CAVEAT}\n"
        pairs, _ = scan(lesson(body))
        self.assertEqual(
            [(p.instruction.start, p.instruction.quote, p.link) for p in pairs],
            [(11, describes, "described, identifier dependencies")],
        )

    def test_is_pointer(self) -> None:
        for sentence, expected in (
            ("See the reference.", True),
            ("  Learn more about retries.", True),
            ("Refer to the guide.", True),
            ("For more details, read the guide.", True),
            ("Seed the cache first.", False),
            ("The `see` option prints more.", False),
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(rules.is_pointer(reading(sentence)), expected)


class ScanVersionThirtySevenTest(LabTestCase):
    """scan_version 37: a call on the docs' community ("Give us feedback at …", "Open an issue") instructs nothing."""

    CAVEAT = "The `handle` hook is deprecated and will be removed."

    def test_a_call_on_the_community_is_no_instruction(self) -> None:
        calls = (
            "Give us feedback at [the `handle` discussion](https://example.com/d).",
            "Please let us know how the `handle` hook works for you.",
            "Join our chat to talk about `handle`.",
            "Open an issue if `handle` misbehaves.",
            "Feel free to report bugs in `handle`.",
        )
        assert_each_leaves_unpaired(self, calls, self.CAVEAT)
        for call in calls:
            with self.subTest(call=call):
                self.assertIsNone(rules.instruction_form(reading(call), False, False))

    def test_an_imperative_of_the_same_verbs_still_instructs(self) -> None:
        # "Give the hook a name" and "Open the config file" tell the reader how to use what the page documents.
        for sentence in ("Give the `handle` hook a name.", "Open the config file and set `handle`."):
            with self.subTest(sentence=sentence):
                self.assertEqual(rules.instruction_form(reading(sentence), False, False), "imperative")
                pairs, _ = scan(lesson(f"{sentence}\n\n{self.CAVEAT}\n"))
                self.assertEqual([p.instruction.quote for p in pairs], [sentence])


class CaveatChecks(LabTestCase):
    """What the scan-version tests below ask of a sentence and of a page."""

    def assert_caveat(self, sentence: str, rule: str, cue: str, tier: int) -> None:
        """The sentence's caveat, as ``classified`` weighs it, is of ``rule``, ``cue`` (lower case) and ``tier``."""
        found, _ = caveat_of(sentence)
        self.assertIsNotNone(found, sentence)
        self.assertEqual((found.rule, found.cue.lower(), found.tier), (rule, cue, tier), sentence)

    def pairs_of(self, text: str) -> tuple[list, list]:
        """Each pair of ``text`` under "blocks-8" as (caveat, instruction, link), and each unpaired caveat's quote."""
        pairs, unpaired = scan(text, "blocks-8")
        return [(p.qualifier.quote, p.instruction.quote, p.link) for p in pairs], [u.span.quote for u in unpaired]


class ScanVersionThirtyEightTest(CaveatChecks):
    """scan_version 38: what is important to do, a cost in performance, availability still to come, a negation with
    an adverb or a bracketed "yet" before what is withheld, "thread safe" unhyphenated, and "will not clash" spared."""

    INSTRUCTION = "Register the widget with `register()`."

    def test_what_is_important_to_do_is_a_requirement(self) -> None:
        for sentence, cue in (
            ("It's important to set up the mocks before the page loads.", "it's important to"),
            ("It is important that both paths are identical.", "it is important that"),
            ("It is very important to leave checkpoint mode afterwards.", "it is very important to"),
            ("It is especially important to pin the version.", "it is especially important to"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)

    def test_important_before_a_marker_or_the_projects_aims_is_no_requirement(self) -> None:
        # "to note that" marks what follows as "note that" does; "that we" tells what the project wants.
        for sentence in (
            "It is important to note that the cache is shared.",
            "It's important to understand how the cache works.",
            "It's important to keep in mind how the cache works.",
            "It's important that we keep the API small.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn("requirement", [rule for rule, _ in cues_of(sentence)])

    def test_a_cost_in_performance_is_a_limitation_of_tier_2(self) -> None:
        for sentence, cue in (
            ("Too many small partitions increases syscall overhead.", "increases syscall overhead"),
            ("Each included column adds storage overhead.", "adds storage overhead"),
            ("Too few partitions can hurt write performance.", "hurt write performance"),
            ("Wide globs may degrade linting performance.", "degrade linting performance"),
            ("This can introduce a performance penalty.", "introduce a performance penalty"),
            ("Extracting fields comes at a performance cost.", "comes at a performance cost"),
            ("Joining many tables can be expensive.", "can be expensive"),
            ("Deduplication is more expensive when keys repeat.", "is more expensive when"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, 2)

    def test_a_cost_denied_or_a_price_stays_of_tier_3(self) -> None:
        assert_no_caveat_below_tier_3(
            self,
            (
                "There is no performance penalty for using views.",
                "Deduplication has no noticeable performance penalty.",
                "This counterparty is expensive but not toxic.",
            ),
        )

    def test_availability_still_to_come_is_a_version_note(self) -> None:
        for sentence, cue in (
            ("Index support for other types will be added over time.", "will be added over time"),
            ("Object storage will be added in a future release.", "will be added in a future release"),
            ("Streaming is planned for a future release.", "is planned for a future release"),
            ("Shared notebooks are coming soon.", "are coming soon"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "version", cue, 2)

    def test_a_negation_with_an_adverb_or_a_bracketed_yet(self) -> None:
        for sentence, cue, tier in (
            ("Some APIs are not (yet) fully supported by all browsers.", "are not (yet) fully supported", 1),
            ("Widgets are not yet supported.", "are not yet supported", 1),
            ("Streaming: not (yet) available.", "not (yet) available", 1),
            # "is not" before the adverb is the negated verb of tier 2, as "is not available" is
            ("The widget is not currently available on Windows.", "is not currently available", 2),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, tier)

    def test_not_only_withholds_nothing(self) -> None:
        # "only" ends in -ly but is no adverb between the negation and what it withholds.
        assert_no_caveat_below_tier_3(
            self,
            ("The widget is not only supported on Linux but also on macOS.", "Widgets are not only available here."),
        )

    def test_thread_safe_with_or_without_a_hyphen(self) -> None:
        for sentence, cue in (
            ("The client is not thread safe.", "is not thread safe"),
            ("The client is not thread-safe.", "is not thread-safe"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, 2)

    def test_what_a_name_spares_the_reader_warns_of_nothing(self) -> None:
        # As "they won't conflict" (scan_version 13): a clash or a collision denied is what the design spares.
        for sentence in (
            "Report names hold the shard number, so they will not clash.",
            "Ids are random, so they won't collide.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence)[0], None)

    def test_a_version_note_to_come_pairs_with_the_instruction_before_it(self) -> None:
        caveat = "Index support for other types will be added over time."
        pairs, unpaired = scan(lesson(f"{self.INSTRUCTION}\n\n{caveat}\n"))
        self.assertEqual(
            [(p.instruction.quote, p.qualifier.quote, p.rule, p.tier) for p in pairs],
            [(self.INSTRUCTION, caveat, "version", 2)],
        )
        self.assertEqual(unpaired, [])

    def test_joining_or_creating_with_code_instructs(self) -> None:
        # "join the" calls on a community only before a place where one meets; "create an issue with `f()`" uses
        # an API. The calls of scan_version 37 stay calls.
        for sentence in (
            "Join the cluster with `kubeadm join --token T`.",
            "Join the `orders` table to the `users` table.",
            "Create an issue with `tracker.create_issue(title)`.",
            "Open a discussion with `gh discussion create`.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(form_of(sentence), "imperative")
        for sentence in (
            "Join the Kubernetes community on Slack.",
            "Join the discussion on GitHub.",
            "Join our Discord.",
            "Open an issue if `handle` misbehaves.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIsNone(form_of(sentence))


class ScanVersionThirtyNineTest(LabTestCase):
    """scan_version 39: a sentence ends at an HTML block-level tag, an HTML description list's entry is a reference
    entry and a list's items are told apart as a Markdown list's are, and a title's qualifier in parentheses names no
    caveats section."""

    def spans_of(self, text: str) -> list[str]:
        masked = masking.masked_code(text, [])[0]
        return [text[start:end] for start, end in sentences.sentence_spans(masked, 0, len(text))]

    def test_a_sentence_ends_at_a_block_level_tag(self) -> None:
        # Worked out from the rule: each tag of p, dt, dd, li, div … is a cut, and a piece of tags alone is none.
        cases = (
            (
                "<p>It runs once if possible.</p>\n<p>Beware of the cache</p>",
                ["It runs once if possible.", "Beware of the cache"],
            ),
            (
                "<dt><code>--fast</code></dt>\n<dd><p>Skip the checks</p></dd>",
                ["<code>--fast</code>", "Skip the checks"],
            ),
            ("<ul><li>One item</li><li>Another item</li></ul>", ["One item", "Another item"]),
            ('<div class="note">Mind the gap</div>', ["Mind the gap"]),
        )
        for text, expected in cases:
            with self.subTest(text=text):
                self.assertEqual(self.spans_of(text), expected)

    def test_inline_tags_and_components_do_not_end_one(self) -> None:
        # An inline element is the sentence's own; a capitalised name is a JSX component the rules do not know.
        for text in ("Pass <code>--fast</code> to <em>skip</em> the checks", "Open the <Details>panel</Details> first"):
            with self.subTest(text=text):
                self.assertEqual(self.spans_of(text), [text])

    def test_the_html_list_parts(self) -> None:
        text = "<dl><dt>a</dt><dd>b</dd></dl>"
        # By hand: the entry opens at its <dt> (offset 4), one list deep, and ends at </dl> (24).
        self.assertEqual(
            pairing.html_list_parts(text, 0, len(text)),
            (
                [
                    (0, None, None),
                    (4, None, None),
                    (8, (4, 1), "term"),
                    (14, (4, 1), None),
                    (18, (4, 1), "description"),
                    (24, (4, 1), None),
                    (29, None, None),
                ],
                {(4, 1): 24},
            ),
        )

    # (The section names code, so its cues keep their tier: a section without code is an essay's.)
    ENTRIES = (
        "The options of `tool upload`:\n\n"
        "<dl>\n"
        '<dt class="option-term"><code>--quiet</code></dt>\n'
        "<dd><p>Do not print log messages.</p></dd>\n"
        "<dt><code>--retries</code> <em>n</em></dt>\n"
        "<dd><p>Retry a failed upload. Should not be 0.</p></dd>\n"
        "</dl>\n"
    )

    def test_a_terms_description_is_no_caveat(self) -> None:
        # "Do not print log messages." describes what --quiet does, as "`--quiet`: Do not print." does in a
        # Markdown list; "Should not be 0." restricts --retries and takes its entry, same item, at tier 2.
        pairs, unpaired = scan(lesson(self.ENTRIES), "blocks-7")
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote, p.link, p.instruction_form, p.tier) for p in pairs],
            [("Should not be 0.", "Retry a failed upload.", "same item", "reference entry", 2)],
        )
        self.assertEqual(unpaired, [])

    def test_an_entry_is_never_paired_with_another_entrys_sentence(self) -> None:
        # "mode" is no option and "The queue's mode." does not instruct: the caveat of that entry has no instruction
        # of its own, and the entry before it is a sibling's.
        body = (
            "<dl>\n"
            "<dt><code>--upload</code></dt>\n"
            "<dd><p>Upload the parcel with <code>queue.send()</code>.</p></dd>\n"
            "<dt><code>mode</code></dt>\n"
            "<dd><p>The queue's mode. It must not be changed after the first send.</p></dd>\n"
            "</dl>\n"
        )
        pairs, unpaired = scan(lesson(body), "blocks-7")
        self.assertEqual(
            (pairs, [item.span.quote for item in unpaired]), ([], ["It must not be changed after the first send."])
        )

    def test_a_value_list_inside_an_entry(self) -> None:
        # Each <li> is an item: "`never`: Never colour the output." is a term and its description, no caveat; the
        # caveat of the last value is that item's own ("same item"), and an entry before the one holding the list
        # is no parent of its items.
        body = (
            "<dl>\n"
            "<dt><code>--jobs</code></dt>\n"
            "<dd><p>Set the number of jobs.</p></dd>\n"
            "<dt><code>--color</code></dt>\n"
            "<dd><p>Valid values:</p>\n"
            "<ul>\n"
            "<li><code>never</code>: Never colour the output.</li>\n"
            "<li><code>ansi</code>: Use ANSI colours. It cannot be used with <code>never</code>.</li>\n"
            "<li><code>html</code>: The experimental HTML output.</li>\n"
            "</ul>\n"
            "</dd>\n"
            "</dl>\n"
        )
        pairs, unpaired = scan(lesson(body), "blocks-7")
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote, p.link) for p in pairs],
            [("It cannot be used with <code>never</code>.", "<code>ansi</code>: Use ANSI colours.", "same item")],
        )
        self.assertEqual([item.span.quote for item in unpaired], ["<code>html</code>: The experimental HTML output."])

    def test_a_qualifier_in_parentheses_names_no_caveats_section(self) -> None:
        for title in ("Failure response (URL not supported)", "Error reply (operation not supported)"):
            with self.subTest(title=title):
                self.assertFalse(pairing.is_caveats_title(title), title)
        for title in ("Limitations (Windows)", "Known issues (2.0)", "(Limitations)", "Limitations"):
            with self.subTest(title=title):
                self.assertTrue(pairing.is_caveats_title(title), title)

    def test_no_pair_across_a_heading_that_names_one_response(self) -> None:
        text = (
            "# T\n\n## Get a token\n\nSend the `get` request with `provider.get(url)`.\n\n"
            "### Failure response (URL not supported)\n\nSent if the provider is not supported for the URL.\n"
        )
        pairs, unpaired = scan(text, "blocks-7")
        self.assertEqual(
            (pairs, [item.span.quote for item in unpaired]),
            ([], ["Sent if the provider is not supported for the URL."]),
        )

    def test_as_soon_as_tells_a_time(self) -> None:
        # Of tier 3 from scan_version 39, as "otherwise": a time far more often than a condition.
        self.assertIn(("condition", "as soon as"), cues_of("As soon as the service starts, it performs a loop."))
        assert_no_caveat_below_tier_3(
            self, ("As soon as the service starts, it performs a loop.", "The call returns as soon as data is sent.")
        )

    def test_html_list_parts_agree_with_a_walk_down_the_lists_and_stay_linear(self) -> None:
        # The item text belongs to, found by walking down the open lists to the innermost open item (the rule as
        # its docstring states it), on random runs of list tags, and a list nested 20,000 deep read in one pass.
        def walked(masked: str) -> tuple[list, dict]:
            parts, ends, lists = [(0, None, None)], {}, []

            def close_item(place: int) -> None:
                if lists and lists[-1][1] is not None:
                    ends[lists[-1][1]] = place
                    lists[-1][1] = None

            def current():
                return next((open_list[1] for open_list in reversed(lists) if open_list[1] is not None), None)

            for match in pairing.HTML_LIST_TAG.finditer(masked):
                closing, name, part = match.group(1) == "/", match.group(2), None
                if name in pairing.HTML_LISTS:
                    if closing:
                        while lists:
                            close_item(match.start())
                            if lists.pop()[0] == name:
                                break
                    else:
                        lists.append([name, None, False])
                elif closing:
                    if name == "li":
                        close_item(match.end())
                else:
                    if not lists:
                        lists.append(["dl" if name in ("dt", "dd") else "ul", None, False])
                    open_list = lists[-1]
                    if open_list[1] is None or name == "li" or (name == "dt" and open_list[2]):
                        close_item(match.start())
                        open_list[1], open_list[2] = (match.start(), len(lists)), False
                    if name == "dd":
                        part, open_list[2] = (None if open_list[2] else "description"), True
                    else:
                        part = "term" if name == "dt" else "item"
                parts.append((match.end(), current(), part))
            while lists:
                close_item(len(masked))
                lists.pop()
            return parts, ends

        tags = ["<dl>", "</dl>", "<ul>", "</ul>", "<ol>", "</ol>", "<dt>", "</dt>", "<dd>", "</dd>", "<li>", "</li>"]
        generator = random.Random(39)
        for _ in range(300):
            masked = "".join(generator.choice(tags) + generator.choice(["", "x ", "a b. "]) for _ in range(30))
            with self.subTest(masked=masked):
                self.assertEqual(pairing.html_list_parts(masked, 0, len(masked)), walked(masked))
        deep = "<ul>" * 20_000 + "<li>x " * 20_000
        parts, ends = pairing.html_list_parts(deep, 0, len(deep))
        # The opening place, then one part a tag; every item closed by the end of the text.
        self.assertEqual((len(parts), len(ends)), (1 + 40_000, 20_000))


class ScanVersionFortyTest(CaveatChecks):
    """scan_version 40: what is lost for good, one thing that is no substitute for another, and the plural "fail"
    before the case it fails in; a connection lost is an event, not a risk."""

    INSTRUCTION = "Run `widget sync --offline` to sync from the cache."

    def test_what_is_lost_is_a_risk(self) -> None:
        for sentence, cue in (
            ("If the server is stopped, all state is lost.", "is lost"),
            ("Unsaved widgets will be lost after a restart.", "will be lost"),
            ("A message can get lost on a network failure.", "get lost"),
            ("Acknowledged writes may be silently lost.", "may be silently lost"),
            ("Deleting a bucket is irreversible.", "irreversible"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "risk", cue, 2)

    def test_a_connection_lost_or_a_typo_warns_of_nothing(self) -> None:
        # The event an API reports ("notified that the connection is lost"), and "there are lost more" (for "lots").
        for sentence in (
            "The handler is notified when the connection to the server is lost.",
            "Clients reconnect once connectivity is lost and restored.",
            "There are lost more cases like this.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn("risk", [rule for rule, _ in cues_of(sentence)])

    def test_no_substitute_is_a_limitation(self) -> None:
        # Ahead of "is not" (tier 3), which would otherwise take the place.
        for sentence, cue in (
            ("A card statement is not a substitute for a receipt.", "is not a substitute for"),
            ("Passing checks are no substitute for a review.", "are no substitute for"),
            ("The retry is a safety net, not a substitute for capacity.", "not a substitute for"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, 2)

    def test_fail_before_its_case_is_an_error(self) -> None:
        for sentence in ("Commands fail if data is missing from the cache.", "Builds fail when the lock is stale."):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "error", "fail", 2)
        # Not before a case: "fail to" was an error of tier 1 before, "tests that fail" describe.
        self.assert_caveat("Some clients fail to reconnect.", "error", "fail to", 1)
        self.assertNotIn("error", [rule for rule, _ in cues_of("Tests that fail are listed first.")])

    def test_a_case_that_fails_pairs_with_the_instruction_before_it(self) -> None:
        caveat = "Commands fail if data is missing from the cache."
        pairs, unpaired = scan(lesson(f"{self.INSTRUCTION}\n\n{caveat}\n"))
        self.assertEqual(
            [(p.instruction.quote, p.qualifier.quote, p.rule, p.tier) for p in pairs],
            [(self.INSTRUCTION, caveat, "error", 2)],
        )
        self.assertEqual(unpaired, [])


class ScanVersionFortyOneTest(CaveatChecks):
    """scan_version 41: a caveats section looks back only as a subsection, and not past its parent heading; "no
    longer" in a clause of time or condition, and a risk averted, warn of nothing; a list item or a table cell that
    is a link alone, and "Check here", instruct nothing."""

    def test_a_subsections_limitations_look_back_no_further_than_its_parent(self) -> None:
        text = (
            "# T\n\n## Sources\n\nCreate a source with `add_source()`.\n\n### Limitations\n\nSources must be unique.\n\n"
            "## Mirrors\n\nMirrors follow their origin.\n\n### Limitations\n\nDo not delete the origin.\n"
        )
        # The first Limitations lies under "## Sources", whose instruction it takes; the second under "## Mirrors",
        # which instructs nothing, and the look-back stops there: under 40 it reached "## Sources" (3 sections back).
        self.assertEqual(
            self.pairs_of(text),
            (
                [("Sources must be unique.", "Create a source with `add_source()`.", "caveats section")],
                ["Do not delete the origin."],
            ),
        )

    def test_a_parent_heading_without_a_body_bounds_the_look_back_too(self) -> None:
        text = "# T\n\n## A\n\nCreate a source with `add_source()`.\n\n## B\n\n### Limitations\n\nSources must be unique.\n"
        self.assertEqual(self.pairs_of(text), ([], ["Sources must be unique."]))

    def test_a_top_level_limitations_section_qualifies_the_page_as_a_whole(self) -> None:
        # Under the page's title, or with no heading above it: no section before it is taken.
        for text in (
            "# T\n\n## Build\n\nCreate a source with `add_source()`.\n\n## Limitations\n\nSources must be unique.\n",
            "## Build\n\nCreate a source with `add_source()`.\n\n## Limitations\n\nSources must be unique.\n",
        ):
            with self.subTest(text=text):
                self.assertEqual(self.pairs_of(text), ([], ["Sources must be unique."]))

    def test_no_longer_in_a_clause_of_time_or_condition_is_no_deprecation(self) -> None:
        for sentence in (
            "Subjects disappear when no longer subscribed to.",
            "The handler runs once the client is no longer connected.",
            "It works even if the cask is no longer installed.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn("deprecation", [rule for rule, _ in cues_of(sentence)])
        for sentence in ("The `--fast` flag is no longer supported.", "This API no longer returns a list."):
            with self.subTest(sentence=sentence):
                self.assertIn(("deprecation", "no longer"), cues_of(sentence))

    def test_a_risk_averted_warns_of_nothing(self) -> None:
        for sentence in (
            "Pinning reduces the risk of silent drift.",
            "This mitigates these risks for most users.",
            "Readers share the map without a risk of concurrent access.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn("risk", [rule for rule, _ in cues_of(sentence)])
        self.assertIn(("risk", "risk"), cues_of("Unpinned builds carry a risk of silent drift."))

    def test_a_list_item_that_is_a_link_alone_instructs_nothing(self) -> None:
        caveat = "This release is no longer supported."
        listed = "# T\n\n## Releases\n\n- [Version `0.25.0`](changes.md#v025)\n- [Install the CLI](install.md)\n\n"
        self.assertEqual(self.pairs_of(listed + caveat + "\n"), ([], [caveat]))
        # A paragraph's sentence written as a link still instructs; so does a list item with more than its link.
        for lead in ("[Install the CLI](install.md).\n\n", "- [Install the CLI](install.md) with `pip`.\n\n"):
            with self.subTest(lead=lead):
                pairs, unpaired = self.pairs_of("# T\n\n## Releases\n\n" + lead + caveat + "\n")
                self.assertEqual(([quote for _, quote, _ in pairs], unpaired), ([lead.strip("-\n ")], []))

    def test_check_here_points_elsewhere(self) -> None:
        for sentence in ("Check here for pitfalls.", "Click here to learn about tokens."):
            with self.subTest(sentence=sentence):
                self.assertIsNone(rules.instruction_form(reading(sentence), False, False))
        self.assertEqual(rules.instruction_form(reading("Check the token before use."), False, False), "imperative")


class ScanVersionFortyTwoTest(CaveatChecks):
    """scan_version 42 mends 41's rules: a setext heading bounds a caveats section's look-back as an ATX one does;
    "risks" as a verb, "no longer" after a phrase, still warn; nothing lost, and "there is no substitute", do not;
    "Please see" points elsewhere; a link alone may wrap its text or hold parentheses, and is one only as an item's
    opening sentence."""

    def test_a_setext_heading_without_a_body_is_a_parent_too(self) -> None:
        # As "## B" with no body of its own: the Limitations under B take nothing from A.
        setext = "# T\n\n## A\n\nCreate a source with `add_source()`.\n\nB\n-\n\n### Limitations\n\nSources must be unique.\n"
        atx = setext.replace("B\n-\n", "## B\n")
        for text in (setext, atx):
            with self.subTest(text=text):
                self.assertEqual(self.pairs_of(text), ([], ["Sources must be unique."]))

    def test_a_setext_title_of_two_lines_has_its_underlines_level(self) -> None:
        # A title of two lines over its underline: the underline, not the title's second line, gives the level.
        for underline, level in (("=======", 1), ("-------", 2)):
            text = f"# T\n\nKnown issues on\nWindows\n{underline}\n\nSources must be unique.\n"
            with self.subTest(underline=underline):
                self.assertEqual(pairing.heading_level(text, text.index("Known"), text.index("Sources must")), level)

    def test_risks_as_a_verb_still_warns(self) -> None:
        for sentence in (
            "Lowering the timeout risks dropped connections.",
            "Deploying without pinning risks breaking production.",
            "Low disk space risks corrupting the store.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIn(("risk", "risks"), cues_of(sentence))
        self.assertNotIn("risk", [rule for rule, _ in cues_of("Pinning reduces the risk of silent drift.")])

    def test_nothing_lost_and_no_substitute_praised_warn_of_nothing(self) -> None:
        for sentence in (
            "Nothing is lost when the server restarts.",
            "None of the data is lost on restart.",
            "There  are lost more cases like this.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn("risk", [rule for rule, _ in cues_of(sentence)])
        for sentence in ("There is no substitute for testing.", "There's no substitute for a review."):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])
        self.assertIn(("limitation", "are no substitute for"), cues_of("Tests are no substitute for a review."))

    def test_no_longer_after_an_opening_phrase_is_a_deprecation(self) -> None:
        for sentence in (
            "After version 2 it is no longer supported.",
            "After this release it is no longer supported.",
            "If so it is no longer supported.",
        ):
            with self.subTest(sentence=sentence):
                self.assertIn(("deprecation", "no longer"), cues_of(sentence))
        self.assertEqual(cues_of("It is sent when it no longer has interest in a subject."), [])

    def test_please_see_points_elsewhere(self) -> None:
        for sentence in ("Please check here for pitfalls.", "Please see the reference."):
            with self.subTest(sentence=sentence):
                self.assertIsNone(rules.instruction_form(reading(sentence), False, False))

    def test_a_link_alone_wrapped_or_with_parentheses_and_only_opening_an_item(self) -> None:
        caveat = "This release is no longer supported."
        for lead in ("- [Install the\n  CLI](install.md)\n\n", "- [CLI](https://example.com/CLI_(computing))\n\n"):
            with self.subTest(lead=lead):
                self.assertEqual(self.pairs_of("# T\n\n## R\n\n" + lead + caveat + "\n"), ([], [caveat]))
        # A link after the item's first sentence is part of an item that instructs.
        text = "# T\n\n## R\n\n- Install the CLI. [Install it](install.md)\n\n" + caveat + "\n"
        pairs, _ = self.pairs_of(text)
        self.assertEqual([instruction for _, instruction, _ in pairs], ["[Install it](install.md)"])


class ScanVersionFortyThreeTest(LabTestCase):
    """scan_version 43: a Liquid tag is markup, as a Hugo shortcode is: a line of them alone holds no sentence, and a
    GitBook hint read as a warning under "blocks-9" is its body alone."""

    INSTRUCTION = "Call `f()` to save."
    CAVEAT = "Never call it twice."

    def test_a_warning_hints_caveat_is_its_body(self) -> None:
        text = f'# T\n\n## S\n\n{self.INSTRUCTION}\n\n{{% hint style="warning" %}}\n{self.CAVEAT}\n{{% endhint %}}\n'
        for grammar, rule in (("blocks-9", "cautionary block"), ("blocks-8", "prohibition")):
            with self.subTest(grammar=grammar):
                pairs, unpaired = scan(text, grammar)
                self.assertEqual(
                    [(p.instruction.quote, p.qualifier.quote, p.rule) for p in pairs],
                    [(self.INSTRUCTION, self.CAVEAT, rule)],
                )
                self.assertEqual(unpaired, [])

    def test_a_closing_tag_after_a_sentence_is_no_part_of_it(self) -> None:
        # Under 42 the quote ran on through "\n{% endhint %}".
        text = f"# T\n\n## S\n\n{self.INSTRUCTION}\n\n{self.CAVEAT}\n{{% endhint %}}\n"
        pairs, _ = scan(text, "blocks-8")
        self.assertEqual([p.qualifier.quote for p in pairs], [self.CAVEAT])

    def test_a_tag_in_a_sentence_is_blanked(self) -> None:
        self.assertEqual(reading('Run it {% include "deprecated.md" %} now.'), "Run it " + " " * 29 + " now.")


class ScanVersionFortyFourTest(LabTestCase):
    """scan_version 44: a Markdown table inside an admonition or a content tab is read cell by cell, as one inside an
    HTML element is (scan_version 30), not as prose whose rows run together."""

    def test_a_tables_cells_inside_an_admonition(self) -> None:
        caveat = "The binary should be installed there."
        text = (
            "# T\n\n## S\n\nInstall it with `install.sh`.\n\n!!! tip\n\n    | Variable | Meaning |\n    |---|---|\n"
            f"    | `BIN_DIR` | {caveat} |\n    | `HOME` | Where it lives. |\n"
        )
        for marker, grammar in (("!!! tip", "blocks-8"), ('=== "Linux"', "blocks-8")):
            with self.subTest(marker=marker):
                found = scan(text.replace("!!! tip", marker), grammar)
                quotes = [p.qualifier.quote for p in found[0]] + [u.span.quote for u in found[1]]
                # The caveat is its cell's text alone, not the row before's closing pipe and its own cells.
                self.assertEqual(quotes, [caveat])


class ScanVersionFortyFiveTest(CaveatChecks):
    """scan_version 45: the kinds of thing an input takes ("Valid tools are …"), a duty left to the reader ("The user
    is responsible for …"), what is not done unless asked for ("… are not built by default"), and a negated verb of
    knowing said of a tool, not of a person ("Meson cannot know about …")."""

    def test_the_kinds_an_input_takes_are_a_requirement(self) -> None:
        for sentence, cue in (
            ("Valid tools are `moc`, `uic` and `rcc`.", "valid tools are"),
            ("Accepted D specific parameters are `d_import_dirs`.", "accepted d specific parameters are"),
            ("The supported timestamp formats are RFC1123 and RFC3339.", "supported timestamp formats are"),
            ("Allowed characters include letters and digits.", "allowed characters include"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)

    def test_a_lists_lead_and_other_supported_things_are_not(self) -> None:
        for sentence in (
            "Supported keyword arguments are:",
            "The supported types are :",
            "Supported by every backend since the start.",
            "Valid JSON documents are parsed once.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])

    def test_a_duty_left_to_the_reader_is_a_requirement(self) -> None:
        for sentence, cue in (
            ("The user is responsible for ensuring that the toolchains are compatible.", "the user is responsible for"),
            ("You are solely responsible for closing the stream.", "you are solely responsible for"),
            ("Callers remain responsible for freeing the buffer.", "callers remain responsible for"),
            ("It is the caller's responsibility to close the stream.", "the caller's responsibility to"),
            ("It is still your responsibility to commit and push.", "your responsibility to"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)

    def test_the_role_of_a_part_of_the_product_is_no_duty(self) -> None:
        for sentence in (
            "The scheduler is responsible for placing jobs on nodes.",
            "Each worker is responsible for one queue.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])

    def test_not_done_by_default_is_a_limitation(self) -> None:
        for sentence, cue in (
            ("Custom targets are not built by default but other targets are.", "are not built by default"),
            ("The sidebar is not shown by default.", "is not shown by default"),
            ("Hidden files aren't uploaded by default.", "aren't uploaded by default"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, 2)
        # Without "by default" the negation stays the weak "are not" of tier 3.
        self.assert_caveat("Custom targets are not built here.", "limitation", "are not", 3)

    def test_a_tool_that_does_not_know_is_a_caveat_a_reader_who_does_not_is_an_idiom(self) -> None:
        # No longer passed over, each negation keeps its own rule: "cannot" is a prohibition of tier 1 wherever it
        # stands (the cue table), "does not" and "doesn't" a limitation of tier 2.
        self.assert_caveat("Meson cannot know about link dependencies of the target.", "prohibition", "cannot", 1)
        self.assert_caveat("The `moc` tool does not know about any preprocessor macros.", "limitation", "does not", 2)
        self.assert_caveat("The parser doesn't understand tabs.", "limitation", "doesn't", 2)
        for sentence in (
            "If you just don't know, use normal `def`.",
            "If you don't know what that is, skip it.",
            "We could never know if the output is stable.",
            "Users often don't remember the flag.",
            "Don't know which to pick? The default is fine.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])


class ScanVersionFortySixTest(CaveatChecks):
    """scan_version 46: no promise that it works, a negation with a connective before what is withheld, "not accepted"
    and "not expected to work", nothing provided, and a DocFX directive line read as markup, not prose."""

    def test_no_promise_that_it_works_is_a_limitation(self) -> None:
        for sentence, cue in (
            (
                "Maintainers accept fixes but don't make guarantees that these configurations work.",
                "don't make guarantees",
            ),
            ("There is no guarantee that the order is kept.", "no guarantee"),
            ("The remaining crates provide no stability guarantees.", "no stability guarantees"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, 2)

    def test_a_connective_before_the_negation_hides_nothing(self) -> None:
        # Before, the tier-3 "is … not" took "is thus not", and "not supported" (tier 1) was never read.
        self.assert_caveat(
            "Debian 10 left support in 2024 and is thus not supported.", "limitation", "is thus not supported", 1
        )
        self.assert_caveat(
            "They are still not available to your applications.", "limitation", "are still not available", 2
        )

    def test_not_accepted_and_not_expected_to_work(self) -> None:
        self.assert_caveat("Changes fixing only these platforms are not accepted.", "limitation", "are not accepted", 2)
        self.assert_caveat(
            "Releases older than five years are not expected to work.", "limitation", "are not expected to work", 2
        )
        # "expected" alone stays the weak negation.
        self.assert_caveat("The output is not expected here.", "limitation", "is not", 3)

    def test_nothing_provided_is_a_limitation_but_not_a_case_a_clause_opens_on(self) -> None:
        self.assert_caveat(
            "On BSD targets, no vcpkg binary is provided for download.", "limitation", "no vcpkg binary is provided", 2
        )
        for sentence in (
            "In cases where no charset information is included, UTF-8 is assumed.",
            "If no file is provided, the default one is read.",
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn(("limitation", 2), [(c.rule, c.tier) for c in rules.sentence_cues(reading(sentence))])

    def test_a_docfx_directive_line_is_markup(self) -> None:
        # The include's path names "experimental"; the line renders another file's text, not its own words.
        instruction = "Export all installed packages with `vcpkg export`."
        for line in (
            "[!INCLUDE [experimental](../../includes/experimental.md)]",
            '> [!div class="checklist"]',
            "[!code-cpp[main](snippets/main.cpp)]",
        ):
            with self.subTest(line=line):
                self.assertEqual(self.pairs_of(f"# T\n\n## S\n\n{line}\n\n{instruction}\n"), ([], []))
        # The same words as prose are read.
        pairs, unpaired = self.pairs_of(f"# T\n\n## S\n\n{instruction}\n\nThis command is experimental.\n")
        self.assertEqual(len(pairs) + len(unpaired), 1)


class ScanVersionFortySevenTest(CaveatChecks):
    """scan_version 47: "you are able to", "you're able to" and "you'll be able to" instruct as "you can" does."""

    def test_able_to_is_a_second_person_step(self) -> None:
        for sentence in (
            "When using a project manifest, you're able to specify version constraints.",
            "You are able to pin each version.",
            "You’ll be able to call the state store APIs.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(rules.instruction_form(reading(sentence), False, False), "second person")
        # What the reader will observe is no step, as after "you can".
        for sentence in ("You'll be able to see the output.", "You're welcome to contribute."):
            with self.subTest(sentence=sentence):
                self.assertIsNone(rules.instruction_form(reading(sentence), False, False))

    def test_a_caveat_takes_it_as_its_instruction(self) -> None:
        text = (
            "# T\n\n## Projects\n\nWhen using a project manifest, you're able to specify version constraints. "
            "This feature is not available in classic mode.\n"
        )
        self.assertEqual(
            [(caveat, instruction) for caveat, instruction, _ in self.pairs_of(text)[0]],
            [
                (
                    "This feature is not available in classic mode.",
                    "When using a project manifest, you're able to specify version constraints.",
                )
            ],
        )


class ScanVersionFortyEightTest(CaveatChecks):
    """scan_version 48: what the page takes for granted ("This document assumes that …") and a bound on a value ("The
    minimum value is 1.") are requirements."""

    def test_what_the_page_assumes_is_a_requirement(self) -> None:
        for sentence, cue in (
            ("This document assumes that you have already installed both tools.", "this document assumes that"),
            ("This guide assumes familiarity with Docker.", "this guide assumes"),
            ("In the above example, we assume that the disk is `/dev/nvme1n1`.", "we assume that"),
            ("It assumes that `JAVA_HOME` is set.", "it assumes that"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)
        # Someone else's assumption, told of: no precondition of the reader's.
        self.assertEqual(cues_of("Many users assume the cache is shared."), [])

    def test_a_bound_on_a_value_is_a_requirement(self) -> None:
        for sentence, cue in (
            ("The minimum value is 1.", "the minimum value is"),
            ("The maximum length of a name is 255 characters.", "the maximum length of a name is"),
            ("The maximum supported version is 3.", "the maximum supported version is"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)
        for sentence in ("This checks that a minimum version is installed.", "The maximum is large."):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])


class ScanVersionFortyNineTest(CaveatChecks):
    """scan_version 49 mends 45 to 48 after a review: who a negated verb of knowing is said of is read near the cue;
    an obligation removed is no "not … by default"; more ways of a duty and of "able to"; a list's lead, or what is
    done to the supported kinds, is no requirement; a dated page's front matter ends at "..."; a DocFX directive is
    taken alone, in any case."""

    def test_not_required_by_default_asks_nothing(self) -> None:
        for sentence in (
            "This flag is not required by default.",
            "It is not needed by default.",
            "It is not necessary by default.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])

    def test_more_ways_of_a_duty(self) -> None:
        for sentence, cue in (
            ("You're responsible for closing the stream.", "you're responsible for"),
            ("You are also responsible for closing it.", "you are also responsible for"),
            ("The user is then responsible for cleaning up.", "the user is then responsible for"),
            ("You will be responsible for backups.", "you will be responsible for"),
            ("It is the developers' responsibility to pin versions.", "the developers' responsibility to"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)

    def test_a_lists_lead_or_what_is_done_to_the_kinds_is_no_requirement(self) -> None:
        for sentence in (
            "Supported platforms are as follows:",
            "Supported platforms are listed below.",
            "All supported Python versions are tested in CI.",
            "Valid options are:",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])
        # Values after the colon on the same line are the kinds themselves.
        self.assert_caveat("Valid options are: `a`, `b`.", "requirement", "valid options are", 2)

    def test_the_bounds_of_45_to_48_each_hold(self) -> None:
        # Each word of a pattern's list, and each case a look behind leaves out, on a sentence of its own.
        for verb in ("available", "included", "supported"):
            with self.subTest(verb=verb):
                self.assert_caveat(
                    f"On BSD, no binary is {verb} for download.", "limitation", f"no binary is {verb}", 2
                )
        for opening in ("When", "Whenever", "Unless", "In case", "Because"):
            with self.subTest(opening=opening):
                cues = rules.sentence_cues(reading(f"{opening} no file is provided, the default is read."))
                self.assertNotIn(("limitation", 2), [(cue.rule, cue.tier) for cue in cues])
        for verb in ("work", "function", "build", "run", "succeed"):
            with self.subTest(verb=verb):
                self.assert_caveat(
                    f"Old releases are not expected to {verb}.", "limitation", f"are not expected to {verb}", 2
                )
        for sentence in (
            "You'll be able to call the API.",
            "You will be able to call the API.",
            "You are now able to call it.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(rules.instruction_form(reading(sentence), False, False), "second person")
        self.assertIsNone(rules.instruction_form(reading("you able to call it."), False, False))

    def test_a_dated_pages_front_matter_ends_at_dots(self) -> None:
        # A "date:" in a code sample after YAML's "..." dates nothing; inside the front matter it dates the page.
        self.assertFalse(rules.is_dated_post("---\ntitle: A\n...\n\n```yaml\ndate: 2020-01-01\n```\n"))
        self.assertTrue(rules.is_dated_post("---\ntitle: A\ndate: 2020-01-01\n...\n"))
        self.assertTrue(rules.is_dated_post("---\ntitle: A\ndate: 2020-01-01\n---\n"))

    def test_a_docfx_directive_is_taken_alone_in_any_case(self) -> None:
        instruction = "Run the export with `vcpkg export`."
        for line in (
            "[!Include [experimental](a.md)]",
            "[!CODE-cpp[main](main.cpp)]",
            "> [!Video https://x.invalid/v]",
        ):
            with self.subTest(line=line):
                self.assertEqual(self.pairs_of(f"# T\n\n## S\n\n{line}\n\n{instruction}\n"), ([], []))
        # Text after a division on its line is the page's own: here a prohibition.
        _, unpaired = self.pairs_of('# T\n\n## S\n\n[!div class="x"] It must not be run as [root].\n')
        self.assertEqual(unpaired, ['[!div class="x"] It must not be run as [root].'])


class ScanVersionFiftyTest(CaveatChecks):
    """scan_version 50: a part another needs in place ("depends on … to be installed") is a requirement; what
    something varies with is not."""

    def test_a_part_needed_in_place_is_a_requirement(self) -> None:
        for sentence, cue in (
            (
                "vcpkg also depends on a few system components to be installed before it can run.",
                "depends on a few system components to be installed",
            ),
            ("Modules can be dependent on other modules to be present.", "be dependent on other modules to be present"),
            (
                "The module depends on a NER model that should be running with the server.",
                "depends on a ner model that should be running",
            ),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)

    def test_what_something_varies_with_is_not(self) -> None:
        for sentence in (
            "The right value depends on your web server.",
            "Its effect on performance is dependent on the packages being installed.",
            "How long it takes depends on how many files are present.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])


class ScanVersionFiftyOneTest(CaveatChecks):
    """scan_version 51: a release stage said of the feature ("Usages are a beta feature", "is currently in alpha") is a
    version note; a stage that names something ("the beta channel") is not."""

    def test_a_release_stage_said_of_the_feature(self) -> None:
        for sentence, cue in (
            ("Usages are a beta feature.", "are a beta feature"),
            ("Operations are an alpha feature in Crossplane v2.", "are an alpha feature"),
            ("These policies are alpha features in v2.0+.", "are alpha features"),
            ("The jobs API is currently in alpha.", "is currently in alpha"),
            ("The API is in public beta.", "is in public beta"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "version", cue, 2)

    def test_a_stage_that_names_something_is_not(self) -> None:
        for sentence in ("Install it from the beta channel.", "The beta release is out.", "Alpha Centauri is a star."):
            with self.subTest(sentence=sentence):
                self.assertEqual(cues_of(sentence), [])


class ScanVersionFiftyTwoTest(CaveatChecks):
    """scan_version 52: what falls short, what cannot be done, partial support, what something is exposed to, a named
    drawback, a bound told as too much, what is kept for backward compatibility, best effort, read-only, one side
    allowed and the other denied, who alone may act, an exit with an error and an error returned on an input, a
    field marked required after a dash; no caveat in an image's alt text, in "expect to see" or in "don't feel like
    you need to"; the clause after a recommendation read; and "you can only" opening a main clause restricts it."""

    def test_new_cues_of_tier_2(self) -> None:
        for sentence, rule, cue in (
            ("The widget alone is **not** sufficient for redaction.", "limitation", "is not sufficient"),
            ("Logs aren't enough to trace a request.", "limitation", "aren't enough"),
            ("Guests are not able to push widgets.", "limitation", "are not able to"),
            ("The pod would not be able to start.", "limitation", "would not be able to"),
            ("Windows support is limited.", "limitation", "is limited"),
            ("The widget store has limited support for joins.", "limitation", "has limited support"),
            ("Each write is subject to rate limits.", "limitation", "is subject to rate limits"),
            ("The downsides are a longer start and more memory.", "limitation", "downsides are"),
            ("One drawback is the start time.", "limitation", "one drawback"),
            ("A full scan is too expensive to run on every request.", "limitation", "is too expensive to"),
            (
                "The v1 endpoint is kept for backwards compatibility.",
                "deprecation",
                "is kept for backwards compatibility",
            ),
            (
                "The old flag is only maintained for backward compatibility.",
                "deprecation",
                "is only maintained for backward compatibility",
            ),
            ("Widget parsing is best effort.", "limitation", "is best effort"),
            ("Widgets in the archive are read-only.", "limitation", "are read-only"),
            ("The graph shows services only, not endpoints.", "limitation", "only, not"),
            ("Only the administrator can edit quotas.", "limitation", "only the administrator can"),
            ("The agent exits with an error.", "error", "exits with an error"),
            ("The agent exits and displays an error.", "error", "exits and displays an error"),
            ("The call returns an error if the key is missing.", "error", "returns an error"),
            ("`name` – Required.", "requirement", "required"),
            ("`cell` &ndash; Required.", "requirement", "required"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, rule, cue, 2)

    def test_their_near_misses_are_no_such_cue(self) -> None:
        for sentence, absent in (
            # Only a negation falls short; only "too" right after the verb bounds (an adverb between at most).
            ("Setting the flag is enough.", "enough"),
            ("It is not too hard to set up.", "is not too hard to"),
            ("There is a discussion with drawbacks and alternatives in the tracker.", "drawbacks"),
            ("The schema is subject to change.", "is subject to"),
            ("It is not only fast but also small.", "only"),
            ("If the widget is unable to connect, a `Timeout` is raised.", "is unable to"),
            # "Required." with no dash before it marks no entry.
            ("Required.", "required"),
        ):
            with self.subTest(sentence=sentence):
                self.assertNotIn(absent, [cue for _, cue in cues_of(sentence)])
        # "subject to change" is still the version note it was.
        self.assertIn(("version", "subject to change"), cues_of("The schema is subject to change."))

    def test_an_image_alone_is_neither(self) -> None:
        # Read on the page (scan_version 53 reads the item's own text): the image is no caveat of "vulnerability".
        for image in ("![Download the file of vulnerability data](img/download.png)", "[![Risky build](b.svg)](ci)"):
            with self.subTest(image=image):
                self.assertEqual(scan(lesson(f"Run the widget.\n\n{image}\n")), ([], []))

    def test_turns_that_ask_nothing(self) -> None:
        for sentence in (
            "When retries are on, you should expect to see the request rate increase.",
            "It is easy to rename them, so don't feel like you need to keep these names.",
            "Do not feel obligated to use every option.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence)[0], None)
        # Without the turn, the same words ask: "expects" a value, "need to" keep.
        self.assert_caveat("The widget expects two parameters.", "requirement", "expects", 2)
        # (scan_version 53) Said of a server, "expects to receive" is a precondition.
        self.assert_caveat("The server expects to receive a client certificate.", "requirement", "expects", 2)

    def test_the_clause_after_a_recommendation_is_read(self) -> None:
        self.assert_caveat(
            "Use of `Policy` is preferred, and `Rule` will be deprecated in future releases.",
            "deprecation",
            "deprecated",
            1,
        )
        # The recommendation alone is still no caveat.
        self.assertEqual(caveat_of("Use of `Policy` is preferred."), (None, None))

    def test_you_can_only_opening_the_main_clause_restricts_it(self) -> None:
        # A leading condition, then "you can only": the sentence is a caveat, no instruction (scan_version 52); before,
        # "only" counted only in the sentence's first three words.
        cue, form = caveat_of("Once the variable is set, you can only update it by restarting the container.")
        self.assertEqual((cue.rule, cue.cue, form), ("limitation", "can only", None))
        # Without "only" the same sentence instructs.
        self.assertEqual(caveat_of("Once the variable is set, you can update it by restarting the container.")[0], None)

    def test_on_a_page(self) -> None:
        # The image between names no instruction and no caveat: its alt text ("Push the widget …") is no imperative.
        text = (
            "# T\n\n## Widgets\n\nRun `widget push` to upload a widget.\n\n"
            "![Push the widget to the store, or risk losing it](img/push.png)\n\n"
            "Guests are not able to push widgets to a mirror.\n"
        )
        pairs, unpaired = scan(text, "blocks-8")
        self.assertEqual(
            [(p.qualifier.quote, p.instruction.quote, p.cue, p.tier) for p in pairs],
            [
                (
                    "Guests are not able to push widgets to a mirror.",
                    "Run `widget push` to upload a widget.",
                    "are not able to",
                    2,
                )
            ],
        )
        self.assertEqual(unpaired, [])


class ScanVersionFiftyThreeTest(CaveatChecks):
    """scan_version 53 mends 52 after a review: a bounded slot before "kept for backward compatibility" (an open one was
    exponential in a run of "only"); an image matched on its own text, so a sentence after an icon is read; "expect
    to see" only of the reader; the main clause after a leading condition's first comma; no concession or condition
    of a recommendation read as its clause; "subject to" and "drawbacks" only where they bound or count; fewer forms
    of 52's cues that ask nothing, and a few that were missed."""

    def test_a_run_of_only_is_read_in_one_pass(self) -> None:
        # Under 52 each "only" doubled the work: 22 of them took 1.5 s, 60 would take days. Now at most three words
        # stand between the verb and "kept": two "only" are read, sixty are no such cue (and are read at once).
        self.assertIn(
            ("deprecation", "is only only kept for backwards compatibility"),
            cues_of("This API is only only kept for backwards compatibility."),
        )
        many = cues_of("This API is " + "only " * 60 + "kept for backwards compatibility.")
        self.assertNotIn("deprecation", [rule for rule, _ in many])

    def test_a_sentence_after_an_icon_is_read(self) -> None:
        text = lesson(
            "Run `widget push` to upload.\n\n- ![warning](img/warn.svg) Pushing to a mirror is not supported\n"
        )
        pairs, _ = scan(text)
        self.assertEqual(
            [(p.qualifier.quote, p.cue) for p in pairs],
            [("![warning](img/warn.svg) Pushing to a mirror is not supported", "is not supported")],
        )

    def test_the_main_clause_opens_at_the_first_comma(self) -> None:
        # "To see all widgets, …": the main clause is "run `ls`, which by default can only show ten", whose "only" is
        # past its first three words: an instruction, as under 51.
        self.assertEqual(
            caveat_of("To see all widgets, run `ls`, which by default can only show ten."), (None, "to-clause")
        )

    def test_no_concession_or_condition_of_a_recommendation(self) -> None:
        for sentence in (
            "We recommend SSDs, although HDDs are not supported by the installer.",
            "We recommend a dedicated node pool, but only if you run more than three replicas.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))

    def test_forms_that_ask_nothing(self) -> None:
        for sentence in (
            "Each span is subject to the sampling policy you configure.",
            "It covers the benefits and drawbacks of each backend.",
            "We compare the drawbacks of both approaches.",
            "The downsides section below lists them.",
            "It is too early to tell.",
            "You will not be able to miss the new button.",
            "Only you can decide which sampler fits your workload.",
            "The function returns errors when they occur.",
            "Not only admins can read it.",
            "It returns an error object.",
            "The user is told when there is insufficient inventory.",
            "The following can be limited for pub/sub components:",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.tier == 3, (sentence, cue))

    def test_forms_now_read(self) -> None:
        for sentence, rule, cue in (
            ("The shim exists for backward compatibility.", "deprecation", "exists for backward compatibility"),
            ("Support for joins is limited on Windows.", "limitation", "is limited"),
            (
                "Anonymous downloads are subject to the limit of 60 requests per hour.",
                "limitation",
                "are subject to the limit",
            ),
            ("The API is subject to breaking changes without notice.", "limitation", "is subject to breaking changes"),
            ("This pattern has several drawbacks:", "limitation", "has several drawbacks"),
            ("A disadvantage of this is the cost.", "limitation", "disadvantage of this"),
            ("The cache is insufficient for large sets.", "limitation", "is insufficient"),
            ("It returns a `NotFound` error if the key is missing.", "error", "returns a `…` error"),
            ("`--cell` - Required.", "requirement", "required"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, rule, cue, 2)


class ScanVersionFiftyFourTest(CaveatChecks):
    """scan_version 54: a vulnerability is a risk when told of what the reader runs, not in a scanner's own words;
    "never fear" reassures."""

    def test_a_vulnerability_told_of_what_the_reader_runs(self) -> None:
        for sentence, cue in (
            ("The widget server is vulnerable to replay attacks.", "vulnerable"),
            ("A vulnerability in the parser allows code execution.", "vulnerability"),
            ("Turning it off exposes a security vulnerability.", "exposes a security vulnerability"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "risk", cue, 2)

    def test_a_scanner_s_own_words_are_none(self) -> None:
        for sentence in (
            "The Vulnerabilities column displays the scanning status.",
            "Click the digest to see a detailed vulnerability report.",
            "All of the vulnerabilities found in the last scan are listed.",
            "If your ingress is not on that list, never fear.",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.tier == 3, (sentence, cue))


class ScanVersionFiftyFiveTest(CaveatChecks):
    """scan_version 55: harm that may follow, a cost in resources or time told plainly, and a feature still
    unsettled."""

    def test_harm_that_may_follow(self) -> None:
        for sentence, cue in (
            ("Compactions in flight can impact the store's performance.", "can impact"),
            ("A streaming request may get stuck with a partitioned node.", "may get stuck"),
            ("The probe programs can conflict with the ones the agent loads.", "can conflict with"),
            ("This can inadvertently block traffic if a rule misses a route.", "can inadvertently block"),
            ("On a spinning disk it may double the observed latency.", "may double the"),
            ("It might take up to 2 minutes for a new member to catch up.", "might take up to"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "risk", cue, 2)

    def test_a_cost_told_plainly(self) -> None:
        for sentence, cue in (
            ("Commits are much slower when two-phase commit is on.", "much slower"),
            ("The RPC layer also introduces additional latency for local reads.", "introduces additional latency"),
            ("Holding more entries causes higher memory usage.", "higher memory usage"),
            ("Consensus performance is limited by the disk's write speed.", "is limited by"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "limitation", cue, 2)

    def test_a_feature_still_unsettled(self) -> None:
        for sentence, cue in (
            ("The watch API is under active development.", "under active development"),
            ("Support for it may be dropped at any time without notice.", "dropped at any time"),
            ("The proxy is still in rapid development.", "in rapid development"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "version", cue, 2)

    def test_a_benefit_a_cost_avoided_or_a_free_choice_is_none(self) -> None:
        for sentence in (
            "Path matching keeps metrics useful without excessive memory consumption.",
            "The setting is a tradeoff between higher memory usage and faster failover.",
            "The pool avoids excessive CPU usage by parking idle threads.",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.tier == 3, (sentence, cue))


class ScanVersionFiftySixTest(CaveatChecks):
    """scan_version 56 mends 55 after review: each verb of harm only where it harms, a cost spared a few words back or
    past markup, "without notice" a risk."""

    def test_what_a_verb_of_harm_does_only_where_it_harms(self) -> None:
        for sentence, cue in (
            ("A key rotation can affect the whole cluster.", "can affect"),
            ("Small partitions can affect query performance.", "can affect"),
            ("Each sidecar can negatively affect performance under load.", "can negatively affect"),
            ("The worker may consume more CPU resources.", "may consume more"),
            ("On a spinning disk it may double the observed latency.", "may double the"),
            ("It might take up to two minutes to catch up.", "might take up to"),
            ("Spot machines can be reclaimed without notice.", "without notice"),
            ("Backups can accidentally re-enable paused schedules.", "can accidentally re-enable"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "risk", cue, 2)

    def test_what_a_verb_does_as_intended_is_none(self) -> None:
        for sentence in (
            "The `--profile` flag can affect which config file is chosen.",
            "Retries may affect the final status that the job reports.",
            "The service can degrade gracefully when one backend is down.",
            "A consumer group can consume more than one topic.",
            "The function can take up to three positional arguments.",
            "Batching can double the throughput of small writes.",
            "A listener can hang on to the connection for reuse.",
            "More replicas can contribute to higher availability.",
            "Your plan can be changed at any time.",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.tier == 3, (sentence, cue))

    def test_a_cost_spared_a_word_back_or_past_markup_is_none(self) -> None:
        for sentence in (
            "The index keeps lookups fast without *excessive* memory consumption.",
            "The cache works without any excessive memory usage.",
            "It is not much slower than the old one.",
            "It isn't significantly slower.",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.tier == 3, (sentence, cue))


class ScanVersionFiftySevenTest(CaveatChecks):
    """scan_version 57: a notice of the text's own legal terms (a license or copyright footer) is neither caveat nor
    instruction."""

    def test_a_license_notice_is_none(self) -> None:
        for sentence in (
            "Except as otherwise noted, the content of this page is licensed under the Widget Docs License.",
            'Licensed under the Widget License, Version 2.0 (the "License"); you may not use this file except in '
            "compliance with the License.",
            "See the License for the specific language governing permissions and limitations under the License.",
            "Copyright 2026 The Widget Authors. All rights reserved.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))

    def test_a_license_the_product_manages_is_read_as_before(self) -> None:
        # "the license" in lower case names a thing the reader handles, not the text's own terms.
        self.assert_caveat("The license key must be set before the server starts.", "requirement", "must", 1)


class ScanVersionFiftyEightTest(CaveatChecks):
    """scan_version 58: "should" before what a value or a part is to be is a requirement of tier 2."""

    def test_what_a_value_or_a_part_should_be(self) -> None:
        for sentence, cue in (
            ("The config map should be in the same namespace as the server.", "should be in the same"),
            ("The `namespace` field should be the same as the resource's.", "should be the same"),
            ("The new size should be greater than the current size.", "should be greater"),
            ("The `level` option should be one of `INFO` or `DEBUG`.", "should be one of"),
            ("Output paths should be specified relative to this folder.", "should be specified"),
            ("The `pattern` value should follow the regex syntax.", "should follow"),
            ("Each replica should be placed on a different node.", "should be placed"),
        ):
            with self.subTest(sentence=sentence):
                self.assert_caveat(sentence, "requirement", cue, 2)

    def test_what_the_reader_should_see_stays_as_before(self) -> None:
        for sentence in (
            "The build should now succeed.",
            "The pod should be running after a minute.",
            "The output should look like this:",
        ):
            with self.subTest(sentence=sentence):
                cue, _ = caveat_of(sentence)
                self.assertTrue(cue is None or cue.tier == 3, (sentence, cue))
        # "you should" before an action instructs, as before; before a state the reader must be in it is a
        # precondition, as "You should have a token" was.
        self.assertEqual(caveat_of("You should follow the install guide."), (None, "second person"))
        self.assert_caveat(
            "You should be in the same folder as the manifest.", "requirement", "should be in the same", 2
        )


class ScanVersionFiftyNineTest(CaveatChecks):
    """scan_version 59: a list item that is a link and nothing else describes no API, as it instructs nothing."""

    def test_a_link_alone_is_no_described_api(self) -> None:
        text = (
            "# Widget API\n\n## WidgetMode\n\n_Appears in:_\n- [WidgetTask](#widgettask)\n\n"
            "| Field | Description |\n| --- | --- |\n| `stop` | Stop ends the run if the `WidgetTask` fails |\n"
        )
        # Under 58 the caveat took the link as the sentence describing `WidgetTask` ("described, identifier").
        self.assertEqual(self.pairs_of(text), ([], ["Stop ends the run if the `WidgetTask` fails"]))

    def test_a_sentence_that_describes_the_api_still_does(self) -> None:
        text = (
            "# Widget API\n\n## WidgetMode\n\nThe `WidgetTask` type runs one step.\n\n"
            "| Field | Description |\n| --- | --- |\n| `stop` | Stop ends the run if the `WidgetTask` fails |\n"
        )
        pairs, _ = self.pairs_of(text)
        self.assertEqual(
            [(caveat, instruction) for caveat, instruction, _ in pairs],
            [("Stop ends the run if the `WidgetTask` fails", "The `WidgetTask` type runs one step.")],
        )


class ScanVersionSixtyTest(CaveatChecks):
    """scan_version 60: a license notice is told by its own wording, so a caveat that names a license is still one."""

    def test_a_caveat_that_names_a_license_is_read_as_a_caveat(self) -> None:
        # Under 57 to 59 each was a notice: "the License" before a noun, "licensed under" an edition, a year after
        # "Copyright" before a lower-case word, "Creative Commons" anywhere.
        for sentence, kind, cue in (
            ("Retries are not supported when the License server is unreachable.", "limitation", "are not supported"),
            ("Do not edit the License key by hand.", "prohibition", "do not"),
            ("Servers licensed under the Community Edition must not exceed ten nodes.", "prohibition", "must not"),
            ("Copyright 2026 headers must not be stripped by the minifier.", "prohibition", "must not"),
            ("Images under a Creative Commons license must not be cached for a day.", "prohibition", "must not"),
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue), (kind, cue))

    def test_a_notice_in_its_own_wording_is_still_none(self) -> None:
        for sentence in (
            "The code samples are released under the Widget 2.0 license, unless noted otherwise.",
            "Unless required by applicable law, software distributed under the License is distributed as is.",
            "Copyright (c) 2024-2026 Widget Inc.; you may not copy it except as the terms allow.",
            "© 2026 Widget Inc. You may not reuse the logo without permission.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))


class ScanVersionSixtyOneTest(CaveatChecks):
    """scan_version 61: "No X is required" removes an obligation; "don't feel bad if" reassures."""

    def test_nothing_required_asks_nothing(self) -> None:
        for sentence in (
            "No extra widget plugins are required by default.",
            "No account is required to try the widget server.",
            "Setup is quick. No `widget.yaml` file is necessary for local runs.",
            "Don't feel bad if setting up the widget server takes a few tries.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))

    def test_a_requirement_of_some_number_or_under_a_condition_still_is_one(self) -> None:
        # "No fewer than" sets a floor; "no token" in an if-clause is the condition of what is required.
        for sentence, cue in (
            ("No fewer than three widget replicas are required.", "are required"),
            ("If no token is set, a login is required.", "is required"),
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue), ("requirement", cue))


class ScanVersionSixtyTwoTest(CaveatChecks):
    """scan_version 62: a license notice is told by how it opens; more verbs open an imperative."""

    def test_a_caveat_that_names_a_license_anywhere_is_a_caveat(self) -> None:
        # Each a notice under 60: "licensed under" a license, or "the License" before a clause's end or "is".
        for sentence, cue in (
            ("Apps licensed under a trial license cannot call the export API.", "cannot"),
            ("Do not delete the License for a running widget server.", "do not"),
            ("Do not use the widget API unless the License is valid.", "do not"),
            ("Packages published under a GPL license cannot be mirrored.", "cannot"),
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertIsNotNone(found)
                self.assertEqual(found.cue, cue)

    def test_a_notice_opens_as_notices_do(self) -> None:
        for sentence in (
            "Code samples are licensed under the Widget 2.0 License, unless noted otherwise.",
            'All content under the "docs/" folder of this repository is licensed under the Widget Docs License; '
            "you may not reuse it except as it allows.",
            "Except as otherwise noted, the content of this page is licensed under the Widget Docs License.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))
        # "Unless otherwise noted" that names no license is the docs' own condition, read as before.
        found, _ = caveat_of("Unless otherwise noted, widget options must be set before the server starts.")
        self.assertIsNotNone(found)

    def test_verbs_the_list_lacked_open_an_imperative(self) -> None:
        for sentence in (
            "In order to run the widget server with cgroup v1, bypass the pre-flight checks via `--skip-checks`.",
            "Rebuild the widget image after each change.",
            "Retry the upload once the server is back.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, "imperative"))


class ScanVersionSixtyFourTest(CaveatChecks):
    """scan_version 64 mends 61 to 63 after a review: nouns that are verbs, a verb after "No", a notice's opening."""

    def test_a_sentence_opening_on_a_noun_that_is_also_a_verb_keeps_its_caveat(self) -> None:
        # Under 62 each opened an imperative ("Get", "Skip", "Review", …) and its caveat was lost.
        for sentence, cue in (
            ("Get requests fail when the widget key is missing.", "fail"),
            ("Skip lists are not supported.", "are not supported"),
            ("Review comments are limited to 500 characters.", "limited to"),
            ("Kill signals are ignored while the widget job is saving.", "are ignored"),
        ):
            with self.subTest(sentence=sentence):
                found, form = caveat_of(sentence)
                self.assertEqual((found.cue, form), (cue, None))
        self.assertEqual(caveat_of("Wait for the widget server to start."), (None, "imperative"))

    def test_a_passive_use_with_only_stays_a_limitation(self) -> None:
        # 63 read "can be rotated" as an API's passive use, which drops a tier-3 cue; 64 reads it as 62 did.
        found, _ = caveat_of("Widget keys can be rotated only by an administrator.")
        self.assertEqual((found.rule, found.cue), ("limitation", "only"))

    def test_no_before_a_clause_of_its_own_removes_no_obligation(self) -> None:
        for sentence in (
            "No token means a login is required.",
            "No fallback exists and a token is required.",
            "No caching happens because a fresh token is required.",
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue), ("requirement", "is required"))

    def test_a_notice_of_otherwise_noted_names_its_license(self) -> None:
        for sentence in (
            "Except as otherwise noted, the widget API cannot be called without a license key.",
            "Licensed under a trial key, the widget server cannot serve more than 5 users.",
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual(found.cue, "cannot")


class ScanVersionSixtyFiveTest(CaveatChecks):
    """scan_version 65 mends 64 after a fourth review: a guarded verb heading a noun phrase, hyphens, a version."""

    def test_a_noun_phrase_opening_on_a_guarded_verb_keeps_its_caveat(self) -> None:
        for sentence in (
            "Retry on failure is disabled by default.",
            "Scale to zero is not supported on the free widget plan.",
        ):
            with self.subTest(sentence=sentence):
                found, form = caveat_of(sentence)
                self.assertEqual((found.rule, form), ("limitation", None))
        self.assertEqual(caveat_of("Retry the upload once the widget server is back."), (None, "imperative"))

    def test_a_hyphenated_subject_removes_the_obligation_and_a_verb_of_its_own_does_not(self) -> None:
        for sentence in ("No do-it-yourself setup is required.", "No and/or logic is required."):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))
        found, _ = caveat_of("No token implies a login is required.")
        self.assertEqual(found.cue, "is required")

    def test_a_license_with_a_version_before_a_restriction_is_no_notice(self) -> None:
        found, _ = caveat_of("Licensed under the GPL 3.0, this widget plugin cannot be bundled with closed code.")
        self.assertEqual(found.cue, "cannot")


class ScanVersionSixtySixTest(CaveatChecks):
    """scan_version 66 mends 65 after a fifth review: a clause inside an imperative's object, a preposition's noun."""

    def test_an_imperative_whose_object_holds_a_clause_is_one(self) -> None:
        for sentence in (
            "Wait until the widget server is ready.",
            "Skip it if it is present.",
            "Review the files that are changed.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, "imperative"))

    def test_a_determiner_after_a_preposition_is_the_subject_s(self) -> None:
        for sentence in ("No change to the widget config is required.", "No code in the repo is required."):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))


class ScanVersionSixtySevenTest(CaveatChecks):
    """scan_version 67: a caveats section about security or privacy, a design proposal's most often, weighs the
    feature as a whole: its caveats take no instruction from a section before it."""

    PROPOSAL = (
        "# Debug containers\n\n## Proposal\n\n### Use cases\n\nAdd the `--debug` flag to the server.\n\n"
        "### {title}\n\nUsers who allow the `latest` tag cannot pin the image.\n"
    )

    def test_a_security_considerations_section_keeps_its_caveats_unpaired(self) -> None:
        for title in ("Security Considerations", "Security and privacy considerations", "Privacy limitations"):
            with self.subTest(title=title):
                self.assertEqual(
                    self.pairs_of(self.PROPOSAL.format(title=title)),
                    ([], ["Users who allow the `latest` tag cannot pin the image."]),
                )

    def test_another_caveats_section_still_looks_back(self) -> None:
        # Rule 10 of "Pairing" as before: "### Limitations" under "## Proposal" takes the sibling section's instruction.
        for title in ("Limitations", "Considerations", "Securitymodule limitations"):
            with self.subTest(title=title):
                self.assertEqual(
                    self.pairs_of(self.PROPOSAL.format(title=title)),
                    (
                        [
                            (
                                "Users who allow the `latest` tag cannot pin the image.",
                                "Add the `--debug` flag to the server.",
                                "caveats section",
                            )
                        ],
                        [],
                    ),
                )


class ScanVersionSixtyEightTest(CaveatChecks):
    """scan_version 68: an upgrade guide titled by a range of versions, and a section numbered "4.1 …", are no
    release's notes: their sections are read."""

    def test_a_range_of_versions_and_a_section_number_are_no_release_notes(self) -> None:
        for title in ("v3.4 to 3.5", "1.8 -> 2.0", "Version 2.0 to 3.0", "4.1 Persistent Volume", "1.1 Build and push"):
            with self.subTest(title=title):
                self.assertFalse(rules.is_release_notes(title))
        # A release's title, a date or a release's name after its number, is one still.
        for title in ("1.8.0", "v3.5.0-rc3", "1.2.0 - 2024-01-31", "2.0 Release Notes", "1.5 Beta", "3.1 Highlights"):
            with self.subTest(title=title):
                self.assertTrue(rules.is_release_notes(title))

    def test_an_upgrade_guide_s_breaking_changes_are_read(self) -> None:
        text = (
            "# v3.4 to 3.5\n\n## Breaking changes\n\nSet the `--insecure` flag on each plain HTTP repository.\n\n"
            "The flag is not supported with `--tls`.\n"
        )
        # Under 67 the page's title read as a release's, and every section under it as history: nothing was found.
        # Now the limitation takes the instruction before it, linked by the word both name ("flag").
        self.assertEqual(
            self.pairs_of(text),
            (
                [
                    (
                        "The flag is not supported with `--tls`.",
                        "Set the `--insecure` flag on each plain HTTP repository.",
                        "term flag",
                    )
                ],
                [],
            ),
        )


class ScanVersionSixtyNineTest(CaveatChecks):
    """scan_version 69: a change said to break what worked, a part that fails with an error or is made to fail, and
    what is needed for something to work, as careful readers count them; "ensure" only as an instruction says it."""

    def test_the_new_cues(self) -> None:
        for sentence, rule, cue in (
            ("This is a breaking change for users of plain HTTP registries.", "limitation", "is a breaking change"),
            ("Removing the block is a generally breaking change.", "limitation", "is a generally breaking change"),
            ("Plain HTTP operations then fail with a TLS error.", "error", "fail"),
            ("Setting both flags causes the chart pull to fail.", "error", "causes the chart pull to fail"),
            ("Ensure you include the prefix in the name.", "requirement", "ensure you"),
            ("Please ensure the port is open.", "requirement", "ensure the"),
            ("The localhost URL is needed for the CLI to work.", "requirement", "is needed for"),
        ):
            with self.subTest(sentence=sentence):
                self.assertIn((rule, cue), cues_of(sentence))

    def test_what_only_tells_of_them_is_none(self) -> None:
        for sentence in (
            "If a breaking change is needed it will be announced in advance.",
            "We don't consider new formatting rules to be a breaking change.",
            "Versioning handles changes, in particular breaking changes.",
            "Tests ensure the output is stable.",
            "Commands fail gracefully.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(
                    [
                        found
                        for found in cues_of(sentence)
                        if found[1].startswith(("ensure", "fail", "causes")) or "breaking" in found[1]
                    ],
                    [],
                )


class ScanVersionSeventyTest(CaveatChecks):
    """scan_version 70: what takes a need away ("eliminates the need to") asks nothing of the reader."""

    def test_a_need_taken_away_is_no_requirement(self) -> None:
        for sentence in (
            "This eliminates the need to download binaries when initializing the widget.",
            "The bundle removes any need to configure a proxy.",
            "Caching avoids the need to poll the server.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence), (None, None))

    def test_a_need_told_is_one_still(self) -> None:
        cue, _ = caveat_of("The need to restart the node remains after an upgrade.")
        self.assertEqual((cue.rule, cue.cue), ("requirement", "need to"))


class ScanVersionSeventyOneTest(CaveatChecks):
    """scan_version 71 mends 67 to 69 after a review: a security section is one that security heads, a numbered
    section is any but a release's, and the new cues pass over what only tells of a failure, a change or a need."""

    def test_only_a_title_that_security_heads_keeps_its_caveats_unpaired(self) -> None:
        proposal = ScanVersionSixtySevenTest.PROPOSAL
        self.assertEqual(self.pairs_of(proposal.format(title="Security Considerations"))[0], [])
        for title in ("Pod Security Admission limitations", "Privacy mode limitations"):
            with self.subTest(title=title):
                self.assertEqual(
                    [pair[2] for pair in self.pairs_of(proposal.format(title=title))[0]], ["caveats section"]
                )

    def test_release_words_after_a_number_title_release_notes_and_others_a_section(self) -> None:
        for title in (
            "2.0 What's New",
            "3.0 New Features",
            "1.5 Breaking Changes",
            "2.1 Deprecations",
            "1.10 Bug fixes",
        ):
            with self.subTest(title=title):
                self.assertTrue(rules.is_release_notes(title))
        for title in (
            "4.1 API Gateway",
            "2.3 TLS configuration",
            "4.1 `kubectl` setup",
            "2.3.1 Configure the storage",
            "3.2 iOS support",
            "Version 2.0 Migration",
        ):
            with self.subTest(title=title):
                self.assertFalse(rules.is_release_notes(title))

    def test_what_only_tells_of_a_failure_a_change_or_a_need_is_no_caveat(self) -> None:
        for sentence in (
            "This is hardly a breaking change for most users.",
            "Nothing here causes the deploy to fail.",
            "Learn what causes pods to fail and how to debug them.",
            "Circuit breakers let services fail with grace under load.",
            "Less memory is needed for the new index.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence)[0], None)

    def test_the_cues_still_read_as_a_reader_meets_them(self) -> None:
        for sentence, rule, cue in (
            ("Requests fail with an authorization error.", "error", "fail"),
            ("One more step is needed for the upgrade.", "requirement", "is needed for"),
        ):
            with self.subTest(sentence=sentence):
                found = caveat_of(sentence)[0]
                self.assertEqual((found.rule, found.cue.lower()), (rule, cue))
        # After a leading clause's comma the cue is read; the sentence, "To X, …", is an instruction whose own caveat
        # is not labelled (rule P3).
        self.assertIn(("requirement", "ensure you"), cues_of("To upgrade, ensure you back up the database first."))
        self.assertEqual(caveat_of("To upgrade, ensure you back up the database first."), (None, "to-clause"))


class ScanVersionSeventyTwoTest(CaveatChecks):
    """scan_version 72: "ensure you" opening a sentence is a requirement, as "make sure" is; a switch off by default is
    a limitation."""

    def test_ensure_opening_a_sentence_restricts_its_step(self) -> None:
        for sentence, cue in (
            ("Ensure your application has read permissions on the repository.", "ensure your"),
            ("Ensure you include this prefix in the parameter name.", "ensure you"),
        ):
            with self.subTest(sentence=sentence):
                found, form = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue, form), ("requirement", cue, None))
        # After a purpose it is the step itself, as "To report it, be sure to include …" is.
        self.assertEqual(caveat_of("To upgrade, ensure you back up the database first."), (None, "to-clause"))

    def test_a_switch_off_by_default(self) -> None:
        for sentence, cue in (
            ("By default, `NativeLB` is false.", "by default, `…` is false"),
            ("`retries` defaults to false.", "defaults to false"),
            ("The cache is off by default.", "is off by default"),
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue.lower()), ("limitation", cue))
        self.assertEqual(caveat_of("By default, the proxy is on."), (None, None))


class ScanVersionSeventyThreeTest(CaveatChecks):
    """scan_version 73: what a part is not made for, latency grown, "This assumes", a part left without upkeep."""

    def test_the_new_cues(self) -> None:
        for sentence, rule, cue in (
            ("The widget server is not designed as a long-term store.", "limitation", "is not designed as"),
            ("The dev server is not intended for production use.", "limitation", "is not intended for"),
            ("Enabling access logs may increase tail latency under load.", "limitation", "increase tail latency"),
            ("This assumes you have made no changes to the collector.", "requirement", "this assumes"),
            ("The extension is now unmaintained and may stop working.", "deprecation", "is now unmaintained"),
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue.lower()), (rule, cue))

    def test_a_list_s_disclaimer_is_no_limitation_of_tier_2(self) -> None:
        found, _ = caveat_of("This list is not meant to be exhaustive.")
        self.assertEqual((found.cue, found.tier), ("is not", 3))


class ScanVersionSeventyFourTest(CaveatChecks):
    """scan_version 74 mends 72 and 73 after a review: "ensure" restricts only opening its sentence, a page's own
    scope, a cost spared, a case handled and a promise warn of nothing, and what may stop working is a risk."""

    def test_what_now_warns_of_nothing(self) -> None:
        for sentence in (
            "Run `uv sync`, ensure the tests pass, and open a pull request.",
            "This page is not intended to cover every case.",
            "Batch the writes to avoid increasing latency.",
            "The tool warns you when a dependency is unmaintained.",
            "uv will always ensure the lockfile is up to date.",
        ):
            with self.subTest(sentence=sentence):
                self.assertEqual(caveat_of(sentence)[0], None)

    def test_what_still_warns(self) -> None:
        for sentence, rule, cue in (
            ("First, ensure the Helm client is installed.", "requirement", "ensure the"),
            ("It is not intended to be used for external issuers.", "limitation", "is not intended to"),
            ("The dev server isn't designed for production use.", "limitation", "isn't designed for"),
            ("If you delete the token, the CI job will stop working.", "risk", "will stop working"),
        ):
            with self.subTest(sentence=sentence):
                found, _ = caveat_of(sentence)
                self.assertEqual((found.rule, found.cue.lower()), (rule, cue))
