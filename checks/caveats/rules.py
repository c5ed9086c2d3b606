"""What makes a sentence a caveat or an instruction: the scan's rules on one sentence (``scan_version`` 25).

The rules and their limits are stated in ``docs/caveats.md``; this module is
where they live. Every test reads one sentence with its code masked
(``checks.caveats.masking``) and its Markdown markup blanked (``prose_view``),
so a cue inside code, a link target or an HTML tag counts for nothing.

The caveat rules follow the directive and caveat sentence patterns of the
literature on API documentation: Monperrus et al., "What should developers be
aware of? An empirical study on the directives of API documentation" (Empirical
Software Engineering, 2012: prohibitions, requirements and preconditions,
exceptions raised, call restrictions, alternatives); Li et al., "Improving API
caveats accessibility by mining API caveats knowledge graph" (ICSME 2018:
explicit caveats such as error, recommendation, alternative, imperative and
note sentences, and restricted ones such as conditional and temporal
sentences); Ren et al., "API-misuse detection driven by fine-grained
API-constraint knowledge graph" (ASE 2020: conditions, call order, and the
exceptions a call raises).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from types import MappingProxyType

import grammars
from checks.caveats import anchors

# --- caveat cues ---------------------------------------------------------------
#
# Each rule is a family of cues: regular expressions over one sentence's prose
# view, matched case-insensitively as whole words, any whitespace between words,
# ' or ’ for an apostrophe. Each cue has a tier: 1 states the restriction
# outright, 2 usually does, 3 often does (a note, a contrast, a bare "only").
APOSTROPHE = "['’]"
AUXILIARIES = r"(?:does|do|is|are|will|has|have|can|should|shall|may|might|must)"
# Hypothetical and past negations ("would not", "was not") mostly tell an example or a story.
WEAK_AUXILIARIES = r"(?:would|could|did|was|were|had)"
MODALS = r"(?:can|could|may|might|will|would|should|must)"
# An adverb between a negation and what is withheld ("not fully supported"), but not "only": "is not only supported
# on Linux" withholds nothing.
ADVERB = r"(?:(?!only\b)\w+ly\s+)?"
# What may stand between "not" and what is withheld: "yet", bracketed or not, then an adverb ("fully", "currently").
NOT_YET = r"(?:\(?yet\)?\s+)?" + ADVERB

# A version as docs name one: a number of two parts or more (``1.2``, ``v0.108.0``), after up to two words that
# name the product (``FastAPI 0.99.0``, ``OpenAPI 3.1.0``), or ``version`` before a code span (``version `0.115.0```).
VERSION_NAMED = r"(?:[a-z][\w.-]*\s+){0,2}?(?:version\s+\x00+|(?:version\s+|v)?\d+(?:\.\d+)+)"
# A release still to come, after "future", "later", "upcoming": ``in a future release``, ``in later versions``.
RELEASE = r"(?:\s+(?:\w+\s+)?(?:releases?|versions?))?"
# A lower bound: ``3.8 or later``, ``0.5.3 or newer``, ``3.10+``.
VERSION_BOUND = r"\d+(?:\.\d+)+(?:\+|\s+or\s+(?:later|newer|higher|above|greater))"

CUE_RULES: tuple[tuple[str, int, str], ...] = (
    # no promise that it works (scan_version 46): "maintainers accept fixes but don't make guarantees that these
    # configurations work", "There is no guarantee that the order is kept"; listed first, so a prohibition's "don't"
    # at the same place does not take it
    (
        "limitation",
        2,
        r"no\s+(?:\w+\s+)?guarantees?|(?:do\s+not|don't|does\s+not|doesn't|cannot|can't|will\s+not|won't)\s+"
        r"(?:make|give|offer|provide)\s+(?:any\s+)?(?:\w+\s+)?guarantees?",
    ),
    # prohibition: what the reader must not do
    ("prohibition", 1, r"must\s+(?:not|never)|mustn'?t|should\s+(?:not|never)|shouldn't"),
    ("prohibition", 1, r"cannot|can't|can\s+not|never"),
    ("prohibition", 1, r"not\s+(?:be\s+)?(?:allowed|permitted)|(?:is|are)\s+(?:forbidden|prohibited)"),
    ("prohibition", 1, r"(?:do\s+not|don't)(?=\s+[a-z])"),
    ("prohibition", 1, r"avoid(?:ing)?"),
    # two settings that exclude each other: "`identifier` is mutually exclusive with `url`"
    ("prohibition", 2, r"mutually\s+exclusive"),
    # requirement or precondition: what must hold or be done first
    ("requirement", 1, r"must"),
    ("requirement", 2, r"(?:need|needs|needed|have|has|had)\s+to|(?:'ll|will)\s+need"),
    ("requirement", 2, r"requires?|required\s+(?:to|for|by|when|if|in)|(?:is|are|be)\s+required|requiring"),
    ("requirement", 2, r"prerequisites?|expects?|make\s+sure|be\s+sure|ensure\s+that"),
    # "ensure" before who or what must be so (scan_version 69): "Ensure you include this prefix in the parameter name";
    # what is needed for something to work: "The localhost URL is needed for the cli to work"
    # (At the sentence's start, or after "please", "always" or "also", as an instruction says it: not what a part
    # does, "Tests ensure the output is stable".)
    (
        "requirement",
        2,
        r"(?:(?<![\s\S])|(?<=^\s)|(?<=^\s\s)|(?<=^\s\s\s)|(?<=please\s)|(?<=always\s)|(?<=also\s)|(?<=,\s))"
        r"ensure\s+(?:you|your|the|all|each|every|this|these"
        r"|those)(?![\w-])",
    ),
    # (71) not a need said to be small: "Less memory is needed for the new index", "Only one flag is needed for most"
    (
        "requirement",
        2,
        r"(?<!\bless\s)(?<!\bfewer\s)(?<!\blittle\s)(?<!\bno\s)(?:is|are)\s+needed\s+(?:for|by|so|if|when)(?![\w-])",
    ),
    # a reminder of a step another one needs: "Just remember to escape new lines"
    ("requirement", 2, r"remember\s+to"),
    # a field marked as required, as references mark one: "`name` (required): …", "REQUIRED (if … is set)."
    ("requirement", 2, r"\(\s*required\s*\)|required(?=\s*\()|required\s*:"),
    # after a dash, closing the entry (scan_version 52), as generated command references mark an argument:
    # "`<cell>` &ndash; Required.", "`name` — Required."
    ("requirement", 2, r"(?:(?<=[–—]\s)|(?<=\s-\s)|(?<=&ndash;\s)|(?<=&mdash;\s))required(?=\s*[.;,]|\s*$)"),
    ("requirement", 2, r"(?:is|are|be)\s+(?:necessary|mandatory|essential|compulsory)"),
    # what the reader is told is important to do (scan_version 38): "it's important to set up the mocks before …";
    # "it is important to note that …" only marks what follows, as "note that" does, and "it's important that we …"
    # tells the project's own aims
    (
        "requirement",
        2,
        r"it(?:'s|\s+is)\s+(?:\w+ly\s+|very\s+)?important\s+(?:to|that)"
        r"(?!\s+(?:note|know|understand|mention|realize|realise|remember|keep\s+in\s+mind|we|our)\b)",
    ),
    (
        "requirement",
        2,
        r"should\s+(?:always|never|only|be\s+(?:set|called|used|passed|given|installed|run)|have|match|use"
        r"|contain|include|point|return|implement|start|end"
        # what a value or a part is to be (scan_version 58): "The configMap should be in the same namespace where
        # Velero is installed", "`namespace` should be the same as the resources'", "The expanded size should be
        # greater than the current size", "Valid `level` should be one of `INFO`, …", "Dependency files should be
        # specified relative to this directory", "The `pattern` should follow regex schema"
        r"|be\s+(?:(?:in\s+)?the\s+same|in\s+(?:an?|the)\s|specified|located|one\s+of|greater|less|smaller|larger"
        r"|at\s+(?:least|most)|unique|configured|placed|relative)|follow|conform)",
    ),
    # the values an input may take: "Valid values are `'lax'`, `'strict'` and `'none'`."; the kinds of thing it
    # takes, a few words between (scan_version 45): "Valid tools are `moc`, `uic` …", "Accepted D specific parameters
    # are …", "Supported platforms are Linux and macOS."
    (
        "requirement",
        2,
        r"(?:valid|allowed|accepted|permitted|possible)\s+values\s+(?:are|include)"
        r"|(?:valid|allowed|accepted|permitted|supported)\s+(?:[\w\x00-]+\s+){0,3}?(?:options|parameters|arguments"
        r"|keys|names|types|tools|platforms|formats|characters|versions|modes|backends|targets)\s+(?:are|include)"
        # not a list's lead ("Supported keyword arguments are:", "… are as follows:", "… are listed below"), which
        # the list's items say, nor what is done to them ("All supported versions are tested in CI"; scan_version 49)
        r"(?!\s*:\s*$|\s+(?:as\s+follows|listed|shown|described|given|below|the\s+following)\b|\s+[a-z]+ed\b)",
    ),
    # what the page takes for granted (scan_version 48): "This document assumes that you have already installed both",
    # "In the above example, we assume that the NVMe disk is `/dev/nvme1n1`"; a bound on a value: "The minimum value
    # is 1.", "The maximum length of a name is 255 characters"
    (
        "requirement",
        2,
        r"(?:(?:this|the)\s+(?:\w+\s+)?(?:guide|document|tutorial|page|section|example|article|walkthrough|quickstart)"
        # (73) "This" alone, the guide or the step before: "This assumes you have made no changes to the collector"
        r"|we|it|they|(?<![\w-])this)\s+(?:\w+ly\s+)?assumes?(?:\s+that)?",
    ),
    (
        "requirement",
        2,
        r"the\s+(?:minimum|maximum)\s+(?:allowed\s+|supported\s+|permitted\s+)?"
        r"(?:value|length|size|number|count|version)"
        r"(?:\s+of\s+(?:an?\s+|the\s+)?[\w\x00-]+)?\s+(?:is|are)(?=\s+[\w\x00])",
    ),
    # a part another needs in place (scan_version 50): "vcpkg also depends on a few system components to be installed
    # before it can run", "Modules can be dependent on other modules to be present", "The module depends on a NER
    # model that should be running"; not what something varies with ("the setting depends on your web server"), and
    # not "depends on X being installed", as often what varies ("Its effect is dependent on the packages being
    # installed") as what is needed
    (
        "requirement",
        2,
        r"(?:depends?|depended|(?:is|are|be)\s+dependent)\s+on\s+(?:[\w\x00-]+\s+){1,8}?"
        r"(?:to\s+be|that\s+(?:should|must|needs?\s+to)\s+be|which\s+(?:should|must|needs?\s+to)\s+be)\s+"
        r"(?:\w+ly\s+)?(?:installed|present|running|available|enabled|configured|set\s+up|deployed|loaded)",
    ),
    # what the reader is left to do, told as a duty (scan_version 45): "The user is responsible for ensuring that the
    # toolchains are compatible", "It is the caller's responsibility to close the stream"; the role of a part of
    # the product ("The scheduler is responsible for placing jobs") is no duty of the reader's
    (
        "requirement",
        2,
        r"(?:you(?:'re|\s+are|\s+will\s+be|\s+remain)|(?:the\s+)?(?:users?|callers?|developers?|applications?|clients?)"
        r"\s+(?:is|are|remains?|will\s+be))\s+(?:(?:\w+ly|also|then|still|now)\s+)?responsible\s+for"
        r"|(?:your|the\s+(?:user|caller|developer|application|client)(?:'s|s')?)\s+responsibility\s+to",
    ),
    ("requirement", 3, r"should"),
    # condition or exception: when it does not hold
    ("condition", 1, r"unless|only\s+(?:if|when|after|before|once|while|within|for|with)"),
    ("condition", 2, r"except(?:\s+(?:for|when|if|that|in))?|as\s+long\s+as|provided\s+that"),
    # "as soon as" tells a time far more often than a condition (scan_version 39): "As soon as the service starts, it
    # performs a loop", "`flush()` returns as soon as the data is published"
    ("condition", 3, r"however|otherwise|but\s+(?:if|when|only)|as\s+soon\s+as"),
    # limitation: what does not work, is not applied, or costs
    # an adverb or a bracketed "yet" between (scan_version 38): "not (yet) fully supported", "not currently available"
    # a connective between (scan_version 46): "is thus not supported", which the tier-3 "is … not" took before
    (
        "limitation",
        1,
        r"(?:is|are)\s+(?:(?:thus|therefore|hence|also|still|then|now|so)\s+)?not\s+" + NOT_YET + r"supported"
        r"|not\s+" + NOT_YET + r"supported|unsupported",
    ),
    (
        "limitation",
        1,
        r"not\s+" + NOT_YET + r"(?:available|implemented|applicable|compatible)|unavailable|incompatible",
    ),
    # a negated verb; "is not" and "are not" only before what is withheld ("is not enabled"), else they describe
    (
        "limitation",
        2,
        r"(?:is|are)(?:\s*n't|\s+(?:(?:\w+ly|thus|therefore|hence|also|still|then|now|so)\s+)?not)\s+"
        + ADVERB
        + r"(?:supported|available|accepted|expected\s+to\s+(?:work|function|build|run|succeed)"
        r"|allowed|possible|applied|included|installed|enabled|propagated|persisted|preserved|respected|guaranteed"
        r"|compatible|thread(?:-|\s+)safe|safe|validated|checked|called|sent|followed|updated|removed|deleted|changed|reused"
        r"|used|run|executed|loaded|read|honou?red|recogni[sz]ed|detected|considered|affected|impacted|touched"
        r"|retried|cached|closed|reset|cleared|overwritten|synced|locked|trusted|inherited|forwarded|shared|saved|stored"
        r"|copied|merged|in\s+the\s+scope)(?![\w-])",
    ),
    # what is not there (scan_version 46): "On BSD targets, no vcpkg binary is provided for download"; not the case a
    # clause opens on ("In cases where no charset information is included, …")
    (
        "limitation",
        2,
        r"(?<!where\s)(?<!when\s)(?<!whenever\s)(?<!if\s)(?<!unless\s)(?<!case\s)(?<!because\s)no\s+"
        r"(?:[\w\x00-]+\s+){0,3}?(?:is|are)\s+(?:\w+ly\s+)?"
        r"(?:provided|available|supported|included|shipped"
        r"|offered|published|distributed)",
    ),
    # one thing does not stand for another (scan_version 40): "A card statement is not a substitute for a receipt"
    # (From 42 not "there is no substitute for", praise: a turn of phrase, ``NOT_A_LOSS_BEFORE``.)
    ("limitation", 2, r"(?:(?:is|are)\s+)?(?:not\s+an?|no)\s+substitute\s+for"),
    # what is not done unless asked for (scan_version 45), as the labels' "not enabled by default" is: "Custom targets
    # are not built by default", "The sidebar is not shown by default"
    # (scan_version 49) not an obligation removed: "This flag is not required by default" asks nothing of the reader
    (
        "limitation",
        2,
        r"(?:is|are)(?:\s*n't|\s+not)\s+"
        + ADVERB
        + r"(?!(?:required|needed|necessary|mandatory)\b)[a-z]+\s+by\s+default",
    ),
    # scan_version 52, from the misses of six held-out sets: what falls short ("the `View` alone is not sufficient",
    # "Logs aren't enough"), listed before the tier-3 "is not" that took them; not "more than enough"
    (
        "limitation",
        2,
        r"(?:is|are|was|were|be)(?:\s*n't|\s+(?:\w+ly\s+|also\s+|still\s+)?not)\s+(?:\w+ly\s+)?(?:sufficient|enough)"
        r"(?!\s+(?:of\s+)?(?:a\s+)?(?:reason|concern|worry))"
        # (scan_version 53) "is insufficient for"
        # a predicate, not a case told: "there is insufficient inventory"
        r"|(?:is|are|was|were|be)\s+(?:\w+ly\s+)?insufficient"
        r"(?=\s*(?:[:).,;]|(?<=\s)(?:for|to|when|if|in|on|and|or|but)\b|$))",
    ),
    # what the reader, a user or the product cannot do (scan_version 52): "you are not able to push images", "the pod
    # would not be able to start" ("is unable to" is left out: "If HTTPX is unable to connect …, a `ConnectTimeout` is
    # raised" tells the case an error is raised in)
    (
        "limitation",
        2,
        # (scan_version 53) not a reassurance: "You will not be able to miss the new button"
        r"(?:(?:is|are|am|will|would|could|may|might|shall|was|were)(?:\s*n't|\s+not)|won't|not)\s+(?:be\s+)?able\s+to"
        r"(?!\s+(?:miss|overlook)\b)",
    ),
    # support said to be partial (scan_version 52): "search on a key-value store, which is limited", "Windows support
    # is limited.", "has limited support for joins"; "limited to" is a cue of its own
    (
        "limitation",
        2,
        # (not "can be limited", which tells how: "the following can be limited for pub/sub components")
        r"(?:is|are|remains?|(?<!can\s)(?<!could\s)(?<!may\s)be)\s+(?:\w+ly\s+|very\s+|still\s+)?limited"
        r"(?=\s*(?:[:).,;]|(?<=\s)(?:and|or|but|in|on|for|at|with|when|if)\b|$))"
        r"|(?:has|have|offers?|provides?|with)\s+(?:only\s+|very\s+)?limited\s+"
        r"(?:support|functionality|capabilit(?:y|ies))",
    ),
    # what something is exposed to (scan_version 52): "writing spans is subject to large write amplification",
    # "requests are subject to rate limits"; "subject to change" is a version note of its own
    # (scan_version 53) only before what bounds or changes it, a few words between: not "subject to the sampling policy
    # you configure" or "to the terms of the license"
    (
        "limitation",
        2,
        r"(?:is|are|be)\s+(?:\w+ly\s+|also\s+)?subject\s+to\s+(?:[\w\x00-]+\s+){0,3}?"
        r"(?:limits?|limitations?|rate[\s-]+limit\w*|quotas?|throttling|amplification|restrictions?"
        r"|(?:breaking\s+)?changes|approval|availability|delays?|eviction"
        r"|access\s+controls?|regulations?|interruptions?|errors?|failures?|overhead|latency|contention)(?![\w-])",
    ),
    # a cost named as one (scan_version 52): "The downsides to this are …", "One drawback is that …", "this has some
    # downsides", "a disadvantage of this is" (53); not a pointer to a discussion of them ("a discussion with drawbacks
    # and alternatives in #4022")
    (
        "limitation",
        2,
        # (scan_version 53) had, counted or told of this: not "the benefits and drawbacks of each backend", "we compare
        # the drawbacks of both", "the downsides section below"
        r"(?:(?:has|have|had|one|main|major|biggest|primary|only|obvious|potential|known|some|several|two|three|few"
        r"|other|important|significant)\s+(?:[\w-]+\s+)?(?:drawbacks?|downsides?|disadvantages?)"
        r"|(?:drawbacks?|downsides?|disadvantages?)\s+"
        r"(?:is|are|to|of\s+(?:this|that|these|those|using|it|the\s+above)\b))",
    ),
    # a bound told as too much (scan_version 52): "it is too expensive to scan all the data", "the key gets too large
    # to store"; not a negated one ("it is not too hard to")
    (
        "limitation",
        2,
        # (scan_version 53) not a time told: "it is too early to tell"
        r"(?:is|are|be|gets?|becomes?)\s+(?:\w+ly\s+|far\s+|much\s+|way\s+)?too\s+(?!(?:early|late|soon)\b)[a-z]+\s+to"
        r"(?=\s+[a-z])",
    ),
    # kept for what came before (scan_version 52): "This API is kept for backwards compatibility", "is only maintained
    # for backward compatibility"; from 53 "exists for backward compatibility"
    (
        "deprecation",
        2,
        # (scan_version 53) at most three words between, "only" read by one branch alone: under 52 an open run in which
        # "only" matched two branches doubled the work with each "only" ("is only only … kept", 1.5 s at 22)
        r"(?:is|are|exists?)\s+(?:(?:(?!only\b)\w+ly|only|still|now)\s+){0,3}"
        r"(?:(?:kept|maintained|retained|preserved|supported|provided|there)\s+)?"
        r"(?:only\s+)?(?:for|to\s+(?:keep|preserve|maintain|ensure))\s+backwards?[\s-]+compatibility",
    ),
    # what is done on a best-effort basis (scan_version 52): "Flag parsing is best effort."
    ("limitation", 2, r"(?:is|are)\s+(?:\w+ly\s+|only\s+)?(?:a\s+)?best[\s-]+effort|best[\s-]+effort\s+basis"),
    # a view or a field the reader cannot change (scan_version 52): "The artifacts in this view are read only."
    ("limitation", 2, r"(?:is|are|be|becomes?|remains?)\s+(?:\w+ly\s+|now\s+|always\s+)?read[\s-]+only"),
    # what a part is not made for (scan_version 73; before the plain "is not", which would take it): "Linkerd is not
    # designed as a long-term historical metrics store", "The dev server is not intended for production use"
    (
        "limitation",
        2,
        # (74: also "isn't"; an apostrophe here is either, as in every cue)
        r"(?:is|are)(?:\s+not|n't)\s+(?:\w+ly\s+)?(?:designed|intended|meant|built)\s+(?:as|for|to)(?![\w-])"
        # (not a list's disclaimer: "This is not meant to be exhaustive")
        r"(?!\s+(?:be\s+)?(?:an?\s+)?(?:exhaustive|complete|comprehensive|definitive|full)\b)",
    ),
    ("limitation", 3, r"(?:is|are)\s*n't|(?:is|are)\s+(?:\w+\s+)?not"),
    ("limitation", 2, AUXILIARIES + r"\s*n't|won't|" + AUXILIARIES + r"\s+(?:\w+\s+)?not"),
    # one side allowed, the other denied (scan_version 52): "granularity is services only, not service endpoints";
    # who alone may do it: "Only the system administrator can edit quotas" (not "not only", "if only")
    ("limitation", 2, r"only(?:\s+[\w\x00-]+){0,4}?\s*,\s*(?:and\s+|but\s+)?not(?=\s)"),
    (
        "limitation",
        2,
        # (scan_version 53) not the reader's own choice: "Only you can decide which sampler fits"
        r"(?<!not\s)(?<!if\s)only\s+(?!(?:you|we)\b)(?:the\s+|an?\s+)?(?:[\w\x00-]+\s+){1,3}?(?:can|may|is\s+able\s+to"
        r"|are\s+able\s+to"
        r"|(?:has|have)\s+(?:access|permission))(?=\s)",
    ),
    (
        "limitation",
        2,
        r"(?:can|may|will|must|should|is|are)\s+only|(?<!not\s)only\s+(?:available|supported|applicable|works?"
        r"|applies|apply|affects?|valid|possible|allowed|accepted|accepts?|considered|respected|honou?red|recogni[sz]ed"
        r"|effective|takes?\s+effect|run|runs|be)|currently\s+only",
    ),
    # "only" before what alone is supported: "only the `bytes` range unit is supported"
    (
        "limitation",
        2,
        r"only\s+(?:[\w\x00-]+\s+){1,5}?(?:is|are)\s+(?:currently\s+)?(?:supported|available|allowed|accepted"
        r"|permitted|possible)",
    ),
    # "only" right before a verb of the present ("PDM only removes exact path entries"): all it does, no more
    (
        "limitation",
        2,
        r"(?<!the\s)(?<!not\s)(?<!if\s)(?<!of\s)(?<!for\s)(?<!to\s)(?<!with\s)(?<!in\s)(?<!and\s)(?<!or\s)(?<!on\s)"
        r"(?<!at\s)(?<!by\s)(?<!from\s)only\s+[a-z]{3,}(?:s|es)",
    ),
    ("limitation", 2, r"(?:is|are|be|gets?)\s+(?:silently\s+)?ignored|ignores|silently|(?:has|have)\s+no\s+effect"),
    ("limitation", 2, r"not\s+(?:all|every)(?=\s+[\w\x00])"),
    ("limitation", 2, r"limited\s+to|limitations?|at\s+present|not\s+in\s+the\s+scope|out\s+of\s+scope"),
    # a switch off unless set (scan_version 72), as "is not enabled by default" is: "By default, `NativeLB` is false.",
    # "`retries` defaults to false", "It is off by default"
    (
        "limitation",
        2,
        # (74) not what a call gives back: "By default, the result is false when no match is found"
        r"by\s+default,?\s+(?!(?:the\s+)?(?:result|return|returned|response|output|answer)\b)"
        r"(?:[\w\x00.-]+\s+){1,3}?(?:is|are)\s+(?:set\s+to\s+)?(?:false|off)(?![\w-])"
        r"|(?:is|are)\s+(?:set\s+to\s+)?(?:false|off)\s+by\s+default|defaults?\s+to\s+(?:false|off)(?![\w-])",
    ),
    # a change said to break what worked (scan_version 69): "This is a breaking change for users with plain HTTP
    # registries", "Removing a `moved` block is a generally breaking change"; not a policy about such changes ("If a
    # breaking change is needed it'll be announced", "We don't consider new rules to be a breaking change")
    (
        "limitation",
        2,
        r"(?:is|are|introduces?|introduced)\s+(?:(?!(?:hardly|rarely|seldom|barely|scarcely)\b)\w+ly\s+|also\s+)?"
        r"(?:an?\s+)?(?:(?!(?:hardly|rarely|seldom|barely|scarcely)\b)\w+ly\s+)?breaking\s+changes?",
    ),
    # switched off, the positive form of "not enabled" ("self-updates are disabled"); "can be disabled" instructs
    (
        "limitation",
        2,
        r"(?:is|are|gets?|will\s+be|(?:has|have)\s+been)\s+(?:\w+ly\s+)?(?:disabled|deactivated|turned\s+off)",
    ),
    ("limitation", 3, r"disables|deactivates"),
    ("limitation", 3, r"(?:to\s+not|not\s+to)(?=\s+[a-z])"),
    ("limitation", 2, r"(?:overrides?|replaces?|takes?\s+precedence\s+over)\s+(?:\w+(?:'s)?\s+){0,3}defaults?"),
    # something else wins (scan_version 14): "Default is overridden by the `setDefaultTimeout` option"; "can be
    # overridden" tells how to change it
    ("limitation", 2, r"(?:is|are)\s+(?:\w+ly\s+)?overridden\s+by"),
    ("limitation", 3, r"no\s+(?:\w+\s+){0,3}(?:will|would|is|are|can|gets?)(?!\w)"),
    ("limitation", 3, WEAK_AUXILIARIES + r"\s*n't|" + WEAK_AUXILIARIES + r"\s+not"),
    # a cost in performance told as one (scan_version 38): "Too many small partitions increases syscall overhead",
    # "can hurt write performance", "Deduplication is more expensive when:"; not a cost denied ("no performance
    # penalty") nor a price ("this option is expensive"), which stay "expensive" and "overhead" of tier 3
    (
        "limitation",
        2,
        r"(?:hurts?|degrades?|reduces?|impacts?|harms?)\s+(?:[\w-]+\s+){0,2}performance"
        r"|(?:introduces?|incurs?|causes?|carries|comes?\s+(?:at|with))\s+(?:an?\s+(?:[\w-]+\s+)?|some\s+)?"
        r"performance\s+(?:penalty|penalties|hit|cost|costs|degradation|impact)"
        r"|(?:increases?|adds?)\s+(?:[\w-]+\s+){0,2}overhead"
        # (73) "This will increase request latencies": latency grown, as overhead is
        r"|(?:increases?|increasing)\s+(?:[\w-]+\s+){0,2}latenc(?:y|ies)"
        r"|can\s+be\s+(?:\w+ly\s+)?expensive|(?:is|are|be|gets?|becomes?)\s+(?:\w+ly\s+)?more\s+expensive\s+"
        r"(?:than|when|if|for|to)",
    ),
    # a cost in resources or time told plainly (scan_version 55): "Transaction commit is much slower when using 2PC",
    # "it consumes more resources", "causing higher memory usage", "it also introduces additional latency", "is limited
    # by two physical constraints", "excessive CPU utilization"; not a cost spared or weighed (``COST_SPARED_BEFORE``)
    (
        "limitation",
        2,
        r"(?:much|significantly|considerably|noticeably|substantially|far)\s+slower"
        r"|consumes?\s+(?:more|significant|excessive)\s+(?:resources|memory|cpu|disk|bandwidth)"
        r"|higher\s+(?:memory|cpu|disk|resource)\s+(?:usage|consumption|utili[sz]ation)"
        # (from scan_version 56 "adds … overhead" is the cost in performance above, whose "adds" comes first)
        r"|(?:introduces?|adds?|incurs?)\s+(?:some\s+|an?\s+)?(?:additional|extra|significant)\s+latency"
        r"|(?:introduces?|incurs?)\s+(?:some\s+|an?\s+)?(?:additional|extra|significant)\s+overhead"
        r"|excessive\s+(?:cpu|memory|disk)\s+(?:usage|utili[sz]ation|consumption)"
        r"|(?:is|are)\s+(?:\w+ly\s+)?limited\s+by",
    ),
    ("limitation", 3, r"only|slow(?:er|ly|s)?|expensive|overhead|round-?trips?"),
    # error: what is raised or fails, in the present or future (not an error described in the past)
    ("error", 1, r"raises|throws|fails|" + MODALS + r"\s+(?:also\s+)?(?:raise|throw|fail|error|crash|break)"),
    ("error", 1, r"(?:is|are|be|gets?)\s+(?:rejected|refused)|rejects|refuses|fail\s+to"),
    # the plural of "raises" before what is raised ("The client's methods throw errors on failure", scan_version 14);
    # opening a clause it is an imperative ("Raise an error if …"), after "to" a purpose
    ("error", 2, r"(?:raise|throw)(?=\s+(?:an?\s+)?(?:[\w-]+\s+)?(?:errors?|exceptions?|\x00))"),
    # an exception named as raised ("a `ConnectTimeout` exception is raised") documents the API's errors, the
    # ones its checks exist to raise, as often as it warns
    ("error", 3, r"(?:is|are|be|gets?)\s+(?:raised|thrown)"),
    # an error or a warning the reader meets on an input: "You may see warnings if your API has duplicate names."
    ("error", 2, r"see\s+(?:an?\s+)?(?:\w+\s+)?(?:errors?|warnings?)(?=\s+(?:if|when|unless|whenever))"),
    ("error", 1, r"results?\s+in\s+(?:an?\s+)?(?:error|exception|failure)|start\s+failing|crash(?:es)?"),
    # the program stops on it (scan_version 52): "OBI exits and displays an error", "the command exits with an error";
    # an error shown on an input: "It returns an error if the key is missing"
    (
        "error",
        2,
        r"(?:exits?|stops?|aborts?|terminates?|quits?)\s+(?:immediately\s+)?"
        r"(?:with\s+(?:an?\s+)?(?:[\w-]+\s+)?(?:error|failure)"
        r"|and\s+(?:displays|prints|logs|reports|shows|returns|raises)\s+(?:an?\s+)?(?:[\w-]+\s+)?error)"
        # (scan_version 53) an error, one: not "returns errors when they occur, wrapped with context"; its name may be
        # code: "returns a `NotFound` error if"
        r"|(?:returns?|displays?|prints?|reports?|emits?|shows?)\s+an?\s+(?:[\w\x00-]+\s+)?error"
        r"(?=\s+(?:if|when|unless|whenever)(?![\w-]))",
    ),
    # the plural of "fails" before the case it fails in (scan_version 40): "Commands fail if data is missing"; from 69
    # before the error it fails with: "Plain HTTP registry operations then fail with `http: server gave …`"
    # (71) "with" only before what it fails with, an error or a code span: not "fail with grace", "pass or fail with a
    # summary"
    (
        "error",
        2,
        r"fail(?=\s+(?:if|when|whenever|unless)(?![\w-])"
        r"|\s+with\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?(?:errors?|exceptions?|\x00|status|code|messages?)(?![\w-]))",
    ),
    # what makes another part fail (scan_version 69): "having both flags on the same repo causes the chart pull to fail"
    # (71) not what makes it fail asked or denied: "Learn what causes pods to fail", "Nothing here causes it to fail"
    (
        "error",
        2,
        r"(?<!\bwhat\s)(?<!\bnothing\s)(?<!\bnever\s)(?<!\bnot\s)(?<!\bno\s)(?:causes?|caused|causing)\s+"
        r"(?:[\w\x00-]+\s+){1,5}?to\s+fail(?![\w-])",
    ),
    # deprecation or version availability
    ("deprecation", 1, r"deprecated|deprecates?|deprecation|no\s+longer|(?:will\s+be|(?:has|have)\s+been)\s+removed"),
    # a part left without upkeep (scan_version 73): "the extension is now unmaintained and may stop working"
    ("deprecation", 2, r"(?:is|are)\s+(?:now\s+)?unmaintained"),
    # (74) what may stop working is a risk, not a deprecation: "If you delete the token, the CI job will stop working."
    ("risk", 2, r"(?:may|might|could|will)\s+stop\s+working"),
    ("deprecation", 1, r"removed\s+in|obsolete|superseded"),
    (
        "version",
        2,
        r"(?:(?:before|prior\s+to|as\s+of|since|starting\s+(?:with|from|in)|until|up\s+to)"
        r"|(?:added|introduced|new|changed|available|supported)\s+(?:in|since))\s+"
        + VERSION_NAMED
        + r"|"
        + VERSION_BOUND,
    ),
    ("version", 2, r"from\s+" + VERSION_NAMED + r"\s+onwards"),
    # availability still to come (scan_version 38): "Index support for other types will be added over time", "is
    # planned for a future release"
    (
        "version",
        2,
        r"(?:will\s+be|to\s+be|is\s+planned\s+to\s+be)\s+(?:added|supported|implemented|introduced|made\s+available)"
        r"\s+(?:in\s+(?:a\s+)?(?:future|later|upcoming|coming|subsequent)"
        + RELEASE
        + r"|over\s+time|later|soon|eventually)"
        r"|(?:is|are)\s+(?:planned|coming)\s+(?:for\s+(?:a\s+)?(?:future|later|upcoming)" + RELEASE + r"|soon)",
    ),
    # "experimental" said of the feature ("Workspace support is experimental", "Experimental:") marks it; before a
    # noun it names a variant another sentence may mark ("the experimental HTTPX2 backend"), tier 3 (scan_version 13).
    # At most three words between (scan_version 16): "still" and "currently" open the phrase too, so unbounded, a run
    # of them was rescanned from each of its words, quadratic in the sentence. Closing a clause, "and" is looked for
    # after the run of space the lookahead's \s* takes (a space behind it), not by a \s+ tried from each of its places.
    (
        "version",
        2,
        r"in\s+preview|(?:is|are|remains?|still|currently|considered|marked\s+as)\s+(?:(?:an?|still|currently|highly"
        r"|very)\s+){0,3}experimental|experimental(?=\s*(?:[:).,;]|(?<=\s)(?:and|or|but)\b|$))|subject\s+to\s+change"
        r"|not\s+(?:yet\s+)?stable|unstable",
    ),
    # a release stage said of the feature (scan_version 51): "Usages are a beta feature", "Operations are an alpha
    # feature in Crossplane v2", "The API is in public beta"; not a word of a name ("the beta channel")
    (
        "version",
        2,
        r"(?:is|are)\s+(?:(?:an?|still|currently|now)\s+)*(?:alpha|beta)(?:\s+(?:features?|apis?|functionality"
        # without such a noun, only closing a clause: "This is beta." (not "is beta software")
        r"|capabilit(?:y|ies)|releases?)|(?=\s*(?:[:).,;]|(?<=\s)(?:in|and|or|but|for|since|from)\b|$)))"
        r"|(?:is|are)\s+(?:(?:still|currently|now)\s+)*in\s+(?:(?:public|private|open)\s+)?(?:alpha|beta)",
    ),
    # a feature still unsettled (scan_version 55): "The watch features are under active development", "may be dropped
    # at any time", "It is still in rapid development" ("has not been thoroughly tested" is "has not"); from 56 not
    # "changed at any time", which a reader may do ("Your plan can be changed at any time"), and "without notice" is a
    # risk
    (
        "version",
        2,
        r"under\s+(?:active|heavy|ongoing)\s+development|in\s+(?:rapid|active|early)\s+development"
        r"|(?:removed|dropped|withdrawn)\s+at\s+any\s+time",
    ),
    ("version", 3, r"experimental"),
    # risk: an explicit warning of harm
    # "careful" told of the reader ("be careful", "Careful:"), not of the library ("it is careful to enforce …")
    ("risk", 1, r"with\s+caution|be\s+careful|(?<!is\s)(?<!are\s)careful(?:ly)?|at\s+your\s+own\s+risk"),
    (
        "risk",
        2,
        r"(?:security\s+)?risks?|data\s+loss|broken|beware|be\s+aware|keep\s+in\s+mind|bear\s+in\s+mind"
        # a weakness told of what the reader runs (scan_version 54): "is vulnerable to replay", "a vulnerability in
        # the parser allows …", "this exposes a security vulnerability"; not a vulnerability scanner's own words ("the
        # Vulnerabilities column", "a detailed vulnerability report", "vulnerabilities found in the last scan")
        r"|vulnerable|vulnerabilit(?:y|ies)(?=\s+(?:in|to|that|which|allows?|lets?|could|can|may|might)\b)"
        r"|(?:introduces?|creates?|opens?|exposes?|causes?|leads?\s+to|results?\s+in)\s+"
        r"(?:an?\s+|the\s+)?(?:[\w-]+\s+)?"
        r"(?:security\s+)?vulnerabilit(?:y|ies)"
        r"|take\s+into\s+account",
    ),
    ("risk", 2, r"dangerous|unsafe|insecure(?:ly)?"),
    # what is lost for good (scan_version 40): "If the server is stopped, all state is lost", "changes will be lost"
    (
        "risk",
        2,
        r"(?:is|are|(?:will|would|can|could|may|might)\s+be|gets?|got|be)\s+(?:\w+ly\s+)?lost"
        r"|irreversible|irreversibly",
    ),
    ("risk", 2, MODALS + r"\s+(?:\w+\s+)?(?:result\s+in|cause|lead\s+to|expose|corrupt|overwrite|lose)"),
    # harm that may follow (scan_version 55): "compactions can impact etcd's performance", "the balancer may get stuck
    # with a partitioned node", "can conflict with the eBPF programs", "This can inadvertently prevent traffic", "it may
    # double the observed latency", "It might take up to 2 minutes". From 56 each verb only where it harms: "affect"
    # with a harm's adverb or what it harms ("can affect the whole cluster", not "can affect which file is chosen"),
    # "degrade" not "gracefully", "hang" not "on to", "consume more" a resource, "double the" latency or a cost,
    # "take up to" a time; "without notice" ("can be reclaimed without notice")
    (
        "risk",
        2,
        r"(?:can|could|may|might)\s+(?:also\s+|still\s+|potentially\s+|significantly\s+|severely\s+|negatively\s+"
        r"|adversely\s+|greatly\s+|seriously\s+|dramatically\s+)?"
        r"(?:impact|degrade(?!\s+gracefully))(?![\w-])"
        # (what the cost in performance above reads from its verb stays its own: "may degrade linting performance")
        r"(?!\s+(?:[\w-]+\s+){0,2}performance)"
        r"|(?:can|could|may|might)\s+(?:negatively|adversely|severely|seriously)\s+affect(?![\w-])"
        r"|(?:can|could|may|might)\s+(?:also\s+|still\s+|potentially\s+|significantly\s+|greatly\s+)?affect(?=\s+"
        r"(?:the\s+|its\s+|their\s+|your\s+|other\s+|all\s+)*(?:[\w-]+\s+){0,2}?"
        r"(?:performance|ability|stability|availability|reliability|experience|cluster|security|correctness|integrity)"
        r"(?![\w-]))"
        r"|(?:can|could|may|might)\s+(?:also\s+|still\s+|potentially\s+|significantly\s+|greatly\s+)?"
        r"(?:slow\s+down|conflict\s+with|interfere\s+with|get\s+stuck|hang(?!\s+on\b)|stall"
        r"|double\s+the(?=\s+(?:[\w-]+\s+)?(?:latency|memory|time|cost|size|load|usage)(?![\w-]))"
        r"|consume\s+(?:more|significant|a\s+lot\s+of|excessive)(?=\s+(?:[\w-]+\s+)?"
        r"(?:resources|memory|cpu|disk|bandwidth|storage|power|time)(?![\w-]))"
        r"|contribute\s+to\s+(?:excessive|increased|poor)"
        r"|take\s+up\s+to(?=\s+(?:[\w.]+\s+)?(?:seconds?|minutes?|hours?|days?|weeks?)(?![\w-])))(?![\w-])"
        r"|(?:can|could|may|might)\s+(?:inadvertently|accidentally|unintentionally)\s+[a-z][\w-]*"
        r"|without\s+(?:prior\s+|any\s+|further\s+)?notice",
    ),
    # an inline label
    ("label", 1, r"(?:warning|caution|danger|important|attention)\s*:"),
    # "Note that …" is of tier 2 from scan_version 33 (docs/caveats.md): measured on thirty-nine labelled sets, 0.59 of
    # the sentences it marks at tier 3 are caveats.
    ("label", 2, r"note\s+that"),
    ("label", 3, r"note\s*:|notably|nb\s*:|gotcha"),
)


# One pattern for every cue behind one shared word-start check: far faster than a pattern per entry. At one
# place the entry listed first wins. Each entry ends with an empty group named for it (``c0``, ``c1``, …), the
# last group a match closes, so ``lastgroup`` tells the entry: a group around the whole entry would be entered
# at every word start for every entry, where an entry that opens with a letter is passed over on one compare.
# The look ahead for the first letters the entries can start with (``anchors.opening_lookahead``) passes over
# every other word on a few compares.
CUE_ENTRIES = "|".join(
    f"(?:{fragment.replace(chr(39), APOSTROPHE)})(?P<c{number}>)" for number, (_, _, fragment) in enumerate(CUE_RULES)
)
CUE_PATTERN = re.compile(r"(?<![\w'’-])" + anchors.opening_lookahead(CUE_ENTRIES) + "(?:" + CUE_ENTRIES + r")(?![\w-])")
# Cues are matched in a copy of the sentence with A-Z lower-cased (same length, so offsets hold): twice as fast
# as matching case-insensitively. Cue words are ASCII, so no other letter can be part of one.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lowered(text: str) -> str:
    """``text`` with A-Z lower-cased (``ASCII_LOWER``): for ASCII text ``str.lower``, the same in a tenth of the time."""
    return text.lower() if text.isascii() else text.translate(ASCII_LOWER)


# --- turns of phrase that warn of nothing -------------------------------------------
#
# Each is tried on the text right after a cue (AFTER) or right before it (BEFORE);
# a cue so placed is passed over, and the sentence's other cues still count.
NEGATIONS = r"(?:must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|may\s+not|never|do\s+not|don't|does\s+not|doesn't|did\s+not|didn't|will\s+not|won't|is\s+not|isn't|are\s+not|aren't|not|no)"
HEDGES = r"(?:(?:even|really|necessarily|always|usually|actually|strictly|generally|normally|typically)\s+)?"
TURNS_AFTER = MappingProxyType(
    {
        # obligation removed: "you don't have to", "it never needs to", "is not required"
        "obligation removed": re.compile(
            r"\s+"
            + HEDGES
            + r"(?:(?:have|has)\s+to|needs?\b|requires?\b|be\s+(?:required|necessary|needed)|required|necessary|needed"
            r"|mandatory)",
            re.IGNORECASE,
        ),
        # reassurance and idiom: "don't worry", "don't hesitate", "if you just don't know"
        "reassurance": re.compile(
            r"\s+(?:(?:really|actually|even|necessarily)\s+)?(?:worry|panic|hesitate|mind|bother|fret|fear|know"
            r"|remember|understand"
            r"|care|matter|get\s+me\s+wrong|be\s+(?:afraid|scared|alarmed|confused)|forget(?!\s+to\b)|wait|stress|hurt|harm|affect"
            r"|impact|interfere|slow|cost|complain|have\s+to\s+worry|only|just"
            # "don't feel like you need to …" (scan_version 52); "you will not be able to miss it" (53)
            r"|feel\s+(?:like|that|as\s+if|obligated|compelled|pressured|forced)|be\s+able\s+to\s+(?:miss|overlook)"
            # "don't feel bad if you have trouble setting this up" (scan_version 61)
            r"|feel\s+(?:bad|discouraged|overwhelmed|intimidated|guilty|silly|stupid))\b",
            re.IGNORECASE,
        ),
        # figurative: "raises the question", "raises concerns"
        "figurative": re.compile(
            r"\s+(?:(?:the|a|some|many)\s+)?(?:questions?|concerns?|awareness|eyebrows)\b", re.IGNORECASE
        ),
        # expected outcome, not a requirement: "it should work", "you should see"
        "expected outcome": re.compile(
            r"\s+(?:now\s+|then\s+|also\s+)?(?:work|see|look|print|show|display|output|return\s+something|be\s+(?:able|fine|"
            r"enough|sufficient|similar|something|straightforward|easy|obvious|clear|available|installed|visible|listed"
            r"|displayed|printed|created|updated|ready|done|good))\b",
            re.IGNORECASE,
        ),
    }
)
# A clause that opens on "No" before its "are required" (scan_version 61): "No extra plugins are needed", "no
# account is required": nothing is asked of the reader. Within the clause only: "If no token is set, a login is
# required" asks for one.
NONE_REQUIRED_BEFORE = re.compile(
    r"(?:^|[.;:!?]\s+|^[\s\x00]+)[\s\x00]*no\s+(?!(?:more|less|fewer)\s+than\b)"
    # The subject's words alone: a verb or a conjunction starts another clause ("No token means a login is required").
    r"(?:(?!(?:and|or|but|so|because|since|if|when|unless|means?|meant|exists?|happens?|is|are|was|were|has|have|had"
    r"|does|do|did|gets?|makes?|leaves?|needs?)(?![\w'’/-]))"
    # a determiner opens another noun phrase, a clause's subject ("No token implies a login is required"), but
    # after a preposition it is the subject's own ("No part of the config is required", "No change to the config")
    r"(?!(?<!of\s)(?<!to\s)(?<!in\s)(?<!on\s)(?<!for\s)(?<!at\s)(?<!from\s)(?<!with\s)(?<!by\s)(?<!into\s)"
    r"(?:a|an|the|that)(?![\w'’/-]))[\w`\x00'’/-]+\s+){0,6}"
    r"(?:(?:is|are|will\s+be|be)\s+)?$",
    re.IGNORECASE,
)
# A verb of knowing after a negation: an idiom of the reader's ("if you just don't know"), but of a tool a limitation.
COGNITION_AFTER = re.compile(
    r"\s+(?:(?:really|actually|even|necessarily)\s+)?(?:know|understand|remember)\b", re.IGNORECASE
)
# The person a negated verb of knowing is said of, just before the negation: "you", "we", "users" (or nobody, an
# imperative: "Don't know which to pick? …", ``said_of_a_person``).
PERSON_BEFORE = re.compile(
    r"(?<![\w'’-])(?:you|we|i|they|one|users?|people|readers?|developers?)"
    r"(?:\s+(?:\w+ly|just|still|often|may|might|could|can|would|will|should))*\s*$",
    re.IGNORECASE,
)
LEADING_SPACE = re.compile(r"\s*")
# What the reader will see, after "expect" (scan_version 52): "expect to see", "expect to get a warning"; said of the
# reader (53: ``READER_BEFORE``), not of a server that "expects to receive a client certificate".
EXPECTED_SIGHT_AFTER = re.compile(r"\s+to\s+(?:see|get|find|notice|observe|receive)\b", re.IGNORECASE)
READER_BEFORE = re.compile(
    r"(?<![\w'’])(?:you|we)(?:\s+(?:\w+ly|should|will|can|may|might|would|also|then|now))*\s+$", re.I
)
# A feeling told to go, just before a requirement (scan_version 52): "don't feel like you need to", "do not feel
# obligated to".
FEELING_BEFORE = re.compile(
    r"(?:(?<!\w)not|n['’]t|(?<!\w)never)\s+feel\s+(?:like|that|as\s+if|obligated|compelled|pressured|forced)\s+"
    r"(?:you\s+|we\s+)?"
    r"(?:\w+\s+)?$",
    re.IGNORECASE,
)
# An image on its own ("![Download CSV file of vulnerability data](img.png)", a linked badge "[![Build](b.svg)](ci)",
# several side by side): its alt text describes a picture, neither instruction nor caveat (scan_version 52). Matched on
# the item's own text (from 53: 52 read the blanked view, which cannot tell where the image ends, and dropped a
# sentence after an icon, "![warning](warn.svg) Pushing to a mirror is not supported").
IMAGE_ONLY = re.compile(
    r"(?:\[?!\[[^\]\n]{0,500}\]\([^)\n]{0,500}\)(?:\]\([^)\n]{0,500}\))?(?:\{[^}\n]{0,200}\})?[ \t\n]*)+"
)
# A notice of the text's own legal terms (scan_version 57): a license or copyright footer ("Except as otherwise noted,
# the content of this page is licensed under the Creative Commons Attribution 4.0 License", the Apache boilerplate "you
# may not use this file except in compliance with the License"), whose "except" and "may not" restrict no API. (60, 62)
# Told by how such a notice opens, never by a word anywhere in it: "Licensed under", "Except as otherwise noted",
# "This work is released under", "Copyright (c)", "©", "SPDX-License-Identifier", the Apache boilerplate's own
# sentences; "All rights reserved" and '(the "License")' anywhere. A caveat that names a license ("Apps licensed under
# a trial license cannot call the export API", "Do not delete the License", "Packages published under a GPL license
# cannot be mirrored") is read as one.
LICENSE_NOTICE = re.compile(
    r"[\s\x00*_>#-]*(?:"
    r"(?:except|unless)\s+(?:as\s+)?otherwise\s+(?:noted|stated|indicated)\b"
    r"(?=[^.;]*?(?:licen[cs]ed\s+under|copyright\s+(?:\(c\)|©|\d{4})))"
    # "Licensed under" a license by name (64): not "Licensed under a trial key, the server cannot …"
    r"|licen[cs]ed\s+under\s+(?:the\s+|an?\s+)?(?:[^.;\n]|\.(?=\d)){0,60}?"
    r"(?:\b(?:apache|mit|bsd|[al]?gpl|mpl|creative\s+commons|cc[-\s]by|cc0)\b|(?-i:\bLicen[cs]e\b))"
    r"(?!(?:[^.;]|\.(?=\d))*?\b(?:cannot|can['’]t|must|never|only)\b)"
    r"|(?:[\w\"'“”/.\[\]-]+\s+){1,12}(?:is|are)\s+(?:\w+\s+)?"
    r"(?:licen[cs]ed|released|published|distributed)\s+under\b"
    r"(?![^.;]*?\b(?:cannot|can['’]t|must|never|only|disabled|not\s+(?:be|available|supported|allowed)))"
    r"|copyright\s+(?:\(c\)|©)|copyright\s+\d{4}(?:\s*[-–,]\s*\d{4})*,?\s+(?:by\s+)?(?-i:[A-Z])"
    r"|©|spdx-license-identifier"
    r"|unless\s+required\s+by\s+applicable\s+law|you\s+may\s+not\s+use\s+this\s+file\s+except"
    r"|you\s+may\s+obtain\s+a\s+copy\s+of\s+the\s+license|see\s+the\s+license\s+for\s+the\s+specific"
    r")"
    r"|all\s+rights\s+reserved|\(the\s+\W?license\W?\)",
    re.IGNORECASE,
)


def is_license_notice(reading: str) -> bool:
    """Whether a sentence is a notice of the text's own legal terms (``LICENSE_NOTICE``). Asked of every sentence, so
    first by the words every such notice holds one of, C calls that pass over the rest (the pattern alone, tried at
    each character of a docs set's prose, cost a tenth of a second on 454 pages)."""
    low = reading.lower()
    if not ("licen" in low or "copyright" in low or "©" in low or "reserved" in low or "otherwise" in low):
        return False
    match = LICENSE_NOTICE.match(reading)
    return match is not None or ("reserved" in low or "(the" in low) and LICENSE_NOTICE.search(reading) is not None


# Where a clause after a recommendation opens (scan_version 52): "Use of X is preferred, and Y will be deprecated".
# (53) Only "and", "but" and ";": a concession ("although HDDs are not supported") is weighed where it stands, and a
# condition of the recommendation's own ("but only if you run more than three replicas") is no clause of its own.
CLAUSE_AFTER = re.compile(
    r"\s*(?:[,;]\s*(?:and|but)|;)\s+(?!(?:only\s+)?(?:if|when|unless|once|whenever)\b)", re.IGNORECASE
)


def said_of_a_person(reading: str, start: int) -> bool:
    """Whether the negation at ``start`` is said of a person (``PERSON_BEFORE``) or opens the sentence (an imperative:
    "Don't know which to pick?"). Read within ``BEFORE_CUE_WINDOW`` characters, so a sentence of many such cues
    costs no more than one a cue (scan_version 49; 45 to 48 searched the whole sentence before each)."""
    if LEADING_SPACE.match(reading).end() >= start:
        return True
    return PERSON_BEFORE.search(reading, max(start - BEFORE_CUE_WINDOW, 0), start) is not None


# What a tool spares the reader, told as what it does not do (scan_version 13): "attrs doesn't force you to use
# type annotations", "they won't conflict with the user's packages", "your users won't notice a difference". Only
# after "does not", "do not" (not opening a clause) and "will not": "`<name>` cannot conflict with a built-in
# command" and "Don't force-push" are rules.
# "clash" and "collide" as "conflict" (scan_version 38): "names hold the shard number, so they will not clash".
SPARED_AFTER = re.compile(r"\s+(?:force|forces|conflict|clash|collide|notice)\b", re.IGNORECASE)
SPARING_NEGATIONS = frozenset({"does not", "doesn't", "do not", "don't", "will not", "won't"})
# Which rules each AFTER turn applies to, and to which cue words (None: every cue of those rules).
TURN_SCOPES = MappingProxyType(
    {
        "obligation removed": ("prohibition", "limitation", "requirement", "deprecation"),
        "reassurance": ("prohibition", "limitation"),
        "figurative": ("error",),
        "expected outcome": ("requirement",),
    }
)
# BEFORE a cue: purpose ("so that it never", "to avoid"), narration ("we don't use"), a rule removed
# ("not only", "no need to"), a conditional inversion ("should you need"), and "the only".
PURPOSE_BEFORE = re.compile(
    r"(?<!\w)(?:so\s+that(?:\s+[\w'’]+){1,3}|so\s+(?:you|we|they|it)|in\s+order\s+to|to)\s+$", re.IGNORECASE
)
# A connection lost (scan_version 40): its subject up to four words before "is lost", "connection to the server".
LOST_CONNECTION_BEFORE = re.compile(
    r"(?<!\w)(?:connection|connectivity|contact)s?(?:\s+[\w\x00]+){0,4}\s+$", re.IGNORECASE
)
# What lessens a risk, up to two words before it (scan_version 41): "reduces the risk", "mitigate these risks".
# From 42 only a determiner or a kind of risk between: "Lowering the timeout risks dropped connections" warns ("risks" a
# verb whose subject the lowering is).
AVERTED_BEFORE = re.compile(
    r"(?<![\w-])(?:reduc\w*|minimi[sz]\w*|lower(?:s|ed|ing)?|mitigat\w*|avoid\w*|eliminat\w*|decreas\w*|without|no"
    r"|low|less|fewer)\s+(?:(?:the|a|an|any|this|these|those|such|that|some|security|potential|possible|overall)\s+)?$",
    re.IGNORECASE,
)
# What spares or weighs a cost (scan_version 56): "without excessive memory consumption", "avoids excessive CPU usage",
# "a tradeoff between higher memory usage and …", "It is not much slower", "without any excessive memory usage"; a word
# between.
COST_SPARED_BEFORE = re.compile(
    r"(?:(?<![\w-])(?:without|avoids?|avoided|avoiding|prevents?|preventing|between|not|no)|n['’]t)(?:\s+[\w-]+)?\s+$",
    re.IGNORECASE,
)
# The cues of the cost told plainly (scan_version 55), as ``normalized_cue`` gives them.
PLAIN_COST = re.compile(
    r"(?:much|significantly|considerably|noticeably|substantially|far) slower|consumes? \w+ \w+|higher \w+ \w+"
    r"|(?:introduces?|adds?|incurs?) .*(?:latency|overhead)|excessive \w+ \w+"
)
# What is told lost by no one, or not at all (scan_version 42): "No data will be lost during the upgrade", "Nothing is
# lost when it restarts", "None of the data is lost", "never lost"; and "there is no substitute for", praise, and
# "there are lost" (a typo for "lots"): up to three words between.
NOT_A_LOSS_BEFORE = re.compile(
    r"(?<![\w-])(?:no|nothing|none|never|nobody|neither)\s+(?:[\w-]+\s+){0,3}$|(?<![\w-])there\s+$", re.IGNORECASE
)
# What takes a need away, before "the need to" (scan_version 70): "eliminates the need to", "removes any need to",
# "avoiding the need to", "saves you the need to".
NEED_LIFTED_BEFORE = re.compile(
    r"(?<![\w-])(?:eliminat\w*|remov\w*|avoid\w*|obviat\w*|reduc\w*|minimi[sz]\w*|lessen\w*|spar\w*|sav\w*"
    r"|prevent\w*|bypass\w*|skip\w*)\s+(?:(?:you|users|the\s+user|them)\s+)?(?:the|any|a)\s+$",
    re.IGNORECASE,
)
# A need said to be small, up to two words before what is needed (scan_version 71): "Less memory", "Only one flag".
SMALL_NEED_BEFORE = re.compile(r"(?<![\w-])(?:less|fewer|little|only|no)\s+(?:[\w\x00-]+\s+){0,2}$", re.IGNORECASE)
# What a part is not made for (``CUE_RULES``, scan_version 73), as a cue's words, and the subjects that tell a page's
# own scope with it: "This page is not intended to cover every case", "This guide is not meant as a tutorial"
# (scan_version 74).
NOT_MADE_FOR = re.compile(r"(?:is|are)(?:\s+not|n['’]t)\s+(?:\w+ly\s+)?(?:designed|intended|meant|built)\s")
SCOPE_SUBJECT_BEFORE = re.compile(
    r"(?<![\w-])(?:this|the|these)\s+(?:list|page|guide|section|document|documentation|doc|table|tutorial"
    r"|article|example|overview|chapter|reference|book|post|walkthrough)s?\s+$",
    re.IGNORECASE,
)
# A condition before "is unmaintained", up to four words (scan_version 74): "warns you when a dependency is".
UPKEEP_CONDITION_BEFORE = re.compile(
    r"(?<![\w-])(?:when|whenever|if|whether|once)\s+(?:[\w\x00'’-]+\s+){0,4}$", re.IGNORECASE
)
THERE_BEFORE = re.compile(r"(?<![\w-])there(?:['’]s|\s+(?:is|are|was|were))?\s+$", re.IGNORECASE)
# A clause of time or condition the cue stands in, up to four words after its opening word (scan_version 41): "when the
# manifest no longer loads", "until the context is no longer valid".
# From 42 a pronoun stands only as the clause's own subject, right after its opening word ("when it no longer has
# interest"), and no version or release is named in it: "After version 2 it is no longer supported", "If so it is no
# longer needed" open on a phrase, then the main clause tells the deprecation.
CONDITION_CLAUSE_BEFORE = re.compile(
    r"(?<![\w'’-])(?:when|whenever|once|if|while|after|until)\s+(?:(?:it|they|he|she|we|you|this|these|those)\s+)?"
    r"(?:(?!(?:it|they|he|she|we|you|this|these|those|so|then|version|versions|release|releases|v?\d[\w.]*)\b)"
    r"[\w\x00'’-]+\s+){0,4}$",
    re.IGNORECASE,
)
NARRATION_BEFORE = re.compile(r"(?<!\w)(?:we|I)\s+$", re.IGNORECASE)
STATED_LIMIT_AFTER = re.compile(
    r"\s+(?:support|supports|recommend|guarantee|promise|allow|accept|ship|provide)\b", re.IGNORECASE
)
NOT_A_RULE_BEFORE = re.compile(r"(?<!\w)(?:not|no|the|if\s+you|you|one)\s+$", re.IGNORECASE)
NOT_A_RULE_AFTER = re.compile(
    r"\s+(?:(?:just|only)\b|a\s+(?:few|couple|little|single)\b|one\s+(?:line|thing|step|command|difference)|takes?\b"
    r"|(?:need|needs|have|has)\s+to\b|difference\b|thing\b|way\b|reason\b|option\b|part\b|real\b"
    r"|(?:beneficial|useful|helpful|worth|recommended|needed|necessary|relevant|meaningful|interesting)\b)",
    re.IGNORECASE,
)
# After "have to", "need to": a determiner or a pronoun makes "to" a preposition ("have to my satisfaction").
PREPOSITION_TO = re.compile(
    r"\s+(?:the|a|an|my|your|our|their|his|her|its|this|that|these|those|me|him|them|us|it)\b", re.IGNORECASE
)
BEFORE_CUE_WINDOW = 60
# "should" is a requirement only when the reader is not its subject: "you should" gives an instruction.
SECOND_PERSON_BEFORE = re.compile(r"(?<!\w)(?:you|we|i|should\s+you)\s+(?:\w+\s+)?$", re.IGNORECASE)
# A sentence telling the reader to skip what follows warns of nothing: "You can probably skip this." (Skipping
# something else is a step: "You can skip them during resolution.")
SKIP_NOTICE = re.compile(
    r"(?<!\w)(?:can|may|could)\s+(?:\w+\s+)?skip\b(?=\s*[.!]|\s+(?:(?:this|that|it|ahead|over|the\s+(?:rest|next"
    r"|following|previous))\b|(?:\w+\s+){0,3}?(?:sections?|chapters?|parts?|pages?|steps?|paragraphs?|tutorials?"
    r"|details?)\b))|feel\s+free\s+to\s+skip|skip\s+(?:this|ahead)",
    re.IGNORECASE,
)
# Searched behind a quick look for the literals every match holds (anchors.Guarded): the same answers, sooner.
SKIP_NOTICE = anchors.Guarded(SKIP_NOTICE)

# --- admonitions ------------------------------------------------------------------------

# Block labels (an admonition's type, an alert's) that make a whole block a caveat. "warn" from scan_version 20:
# Fumadocs names its warning callout so (``<Callout type="warn">``, as Zod's docs write one).
CAUTIONARY_LABELS = frozenset({"attention", "caution", "danger", "error", "failure", "warning", "warn", "bug"})
# Labels of a version note: the block (or its marker line alone) is a caveat of availability.
VERSION_LABEL = re.compile(r"(?:version|deprecat|versionadded|versionchanged)", re.IGNORECASE)
# Labels of a note read for a caveat: a caveat sentence of tier 2 inside is of tier 1.
NOTE_LABELS = frozenset({"note", "tip", "info", "important", "hint", "notice", "remember", "check", "seealso"})


def is_admonition_label(label: str) -> bool:
    """Whether a MyST directive's name (```` ```{note} ````) is an admonition's: cautionary, a note, a version
    note, or the generic ``admonition``; ``{toctree}``, ``{code-block}`` and the rest are not."""
    return (
        label in CAUTIONARY_LABELS
        or label in NOTE_LABELS
        or label == "admonition"
        or VERSION_LABEL.search(label) is not None
    )


# --- instructions ----------------------------------------------------------------------

# A sentence or clause opening with one of these verbs gives an instruction (an imperative).
IMPERATIVE_VERBS = frozenset(
    """add adjust allow apply assign attach await build call change check choose clone close combine configure connect
    convert copy create declare decorate define delete deploy disable download edit enable ensure execute export extend
    fetch generate give grant implement import include inherit initialize insert install instantiate invoke keep launch
    list load log make mark migrate modify mount move open override pass pin place point provide publish push put raise
    register reinstall remove rename replace request require reset restart restrict return reuse run save select send
    set setup specify start stop store submit subclass supply switch tell try turn type uninstall unset update upgrade
    upload use validate verify wrap write yield follow go navigate click visit enter paste pick activate deactivate
    append prepend omit expose serve bind authenticate refresh reload share split inspect examine sync lock annotate
    catch handle commit combine acknowledge""".split()
)
# Verbs that open an imperative only before what an imperative takes next (scan_version 62, 64): an object's
# determiner, a pronoun, code, or a particle ("Bypass the checks", "Retry it", "Wait for the server", "Clean up").
# Each is a noun too, and a sentence that opens on the noun states something: "Get requests fail when …", "Review
# comments are limited to 500 characters", "Skip lists are not supported".
GUARDED_IMPERATIVE_VERBS = frozenset(
    """bypass skip rerun retry revoke rotate scale schedule sign trigger wait compile debug encrypt decrypt expand
    extract fill fix force ignore increase decrease merge monitor notify obtain prepare pull rebuild redeploy redirect
    refer render repeat resolve restore retrieve revert review clear clean reboot kill downgrade disconnect find get
    unpack unzip escape enclose""".split()
)
# A guarded verb that is a noun phrase's head, the clause reaching its verb before any comma: "Retry on failure is
# disabled by default", "Scale to zero is not supported".
NOUN_PHRASE_SUBJECT = re.compile(
    # (Words of the phrase only: a determiner, a pronoun or a subordinator opens the object or a clause of its own,
    # "Wait until the server is ready", "Fix the file that is broken".)
    r"(?:\s+(?!(?:the|a|an|it|its|them|they|you|your|we|this|these|that|those|which|what|who|when|if|until|once|while"
    r"|unless|after|before|because|whether|where)(?![\w'’/-]))[\w`\x00'’/-]+){0,3}"
    r"\s+(?:is|are|was|were)(?![\w'’-])",
    re.IGNORECASE,
)
GUARDED_IMPERATIVE_NEXT = re.compile(
    r"\s+(?:the|a|an|your|this|these|that|those|it|them|its|their|all|each|every|any|some|one|both|no|\x00"
    r"|for|until|to|on|in|with|up|out|down|off|back|over|into|from|through|again|once|\[)",
    re.IGNORECASE,
)
# Words that may lead into an imperative: "Then, run …", "Now add …", "Alternatively, use …".
LEAD_INS = frozenset(
    """then now next first second third finally lastly also alternatively instead optionally additionally afterwards
    just simply please and or so here""".split()
)
# A capitalised word and its object ("Acknowledge each parcel", "Rotate `key`"): an imperative the verb list lacks.
UNLISTED_IMPERATIVE = re.compile(
    r"(?P<word>[A-Z][a-z]{2,})\s+(?:the|a|an|each|every|all|any|your|this|these|that|those|it|them|\x00)", re.UNICODE
)
# After an unlisted imperative's object, a finite verb: the capitalised word was part of the subject.
OWN_VERB_AFTER = re.compile(
    r"[\s\x00]*(?:[\w-]+[\s\x00]+){0,2}(?:is|are|was|were|will|can|does|do|has|have|must|should|may)\b", re.IGNORECASE
)
# Words that open a sentence without being verbs.
FUNCTION_WORDS = (
    frozenset("""the this that these those there here then when where what which while who why how its our your their
    his her some any all each every both either neither many much most more few other another such only also
    even just not one two three first second last next some after before because since though although unless
    until once with without within from into onto upon about above below over under between among through
    during like unlike inside outside across along around near beside instead however therefore thus hence
    yes okay note notice observe imagine remember consider""".split())
    | frozenset(
        # scan_version 9: "For" opening a statement ("For an HTTP probe, the kubelet sends …") and a reminder
        # ("Recall that `kubectl` …") instruct nothing. (A word of two letters is never read as a verb here.)
        "for recall".split()
    )
)
# A clause's next word, with the spaces, code and commas before it: the lead-ins of an imperative.
CLAUSE_WORD = re.compile(r"[\s\x00,]*(?P<word>[A-Za-z]+)(?![\w'’-])")
# The words after which a clause starts ("so you can …", "then run …").
CLAUSE_JOINING_WORDS = tuple(
    """then so now and but also here instead alternatively finally first next or thus otherwise again just today later
    still however meanwhile""".split()
)
CLAUSE_START_BEFORE = re.compile(
    r"(?:^|[,;:(]|(?<![\w'’])(?:" + "|".join(CLAUSE_JOINING_WORDS) + r"))[\s\x00]*$", re.IGNORECASE
)
LONGEST_CLAUSE_WORD = max(map(len, CLAUSE_JOINING_WORDS))
# A word after the verb that makes it a noun ("Set of rules", "Update: …") rather than an imperative.
NOT_AN_IMPERATIVE_AFTER = re.compile(
    # "launch.json", "build.rs": a file's or a module's name, not a verb
    r"(?:\s*:|\s+(?:is|are|was|were|of|can|will|may|should|has|have|does|in\s+mind)\b|['’]s\b|\.[A-Za-z_])",
    re.IGNORECASE,
)
# Clauses that lead into the main clause: "To enable it, set …", "For a single run, pass …", "If you use X, add …".
INTRO_WORDS = frozenset(
    """to for in if when once after before on with from inside within under by using during while whenever as where
    depending instead alternatively optionally then now next first finally also here at""".split()
)
# "you are able to", "you're able to", "you'll be able to" tell what the reader can do, as "you can" does
# (scan_version 47).
SECOND_PERSON = re.compile(
    r"(?<!\w)you(?:['’]ll|['’]d|['’]re)?\s+(?:(?:also|then|now|just|simply|instead|first|still|easily|either"
    r"|optionally|even|always|probably)\s+)*"
    r"(?P<modal>(?:(?:can|could|should|may|might|will)\s+(?:(?:also|then|now|just|simply|still|probably|first"
    r"|only|usually|generally|typically)\s+)*)?(?:need|have|want)\s+to|can|could|should|may|might"
    r"|(?:(?:are|be|will\s+be)\s+(?:(?:now|also|then|still)\s+)?|(?<=['’]re\s))able\s+to)\s+"
    r"(?:(?:also|then|now|just|simply|instead|first|still|easily|either|optionally|even|always|further|safely)\s+"
    r"|[a-z]+ly\s+)*"
    r"(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
# After "you can", "you should": verbs that describe what the reader will observe or know, not an action.
NOT_ACTION_VERBS = frozenset(
    """see find notice expect imagine think guess wonder be have get feel know learn read skip ignore tell say
    understand recall remember hear agree argue consider not never""".split()
)
# "You can skip them during resolution", "you can ignore these warnings by adding …": leaving something out
# is an action, unless what is left out is the reading ("you can skip this section", "you can ignore it").
OMITTING_VERBS = frozenset({"skip", "ignore"})
READING_SKIPPED = re.compile(
    r"\s+(?:(?:this|that|it|ahead|over|the\s+(?:rest|next|following|previous))\b|(?:\w+\s+){0,2}?(?:sections?|chapters?"
    r"|parts?|pages?|steps?|paragraphs?|tutorials?|details?)\b)",
    re.IGNORECASE,
)
# The reader's step in the present tense, opening the sentence: "You pass the kwargs when …". Here and in the openings
# below, a connective's comma is "(?:\s*,)?\s+", the strings "\s*,?\s+" reads: that one split a run of spaces between
# its two quantifiers every way, quadratic in the run (37 s for "Now" and 20,000 spaces).
PRESENT_STEP = re.compile(r"(?:(?:then|now|next|first|here|so)(?:\s*,)?\s+)?you\s+(?P<verb>[a-z]+)\b(?!\s*:)", re.I)
# The verb ending a lead-in before code: "In your `settings.py` add:".
LAST_WORD_BEFORE_COLON = re.compile(r"(?<![\w'’-])(?P<word>[A-Za-z]+)\s*:$")
TUTORIAL_STEP = re.compile(
    r"(?<!\w)(?:we|let['’]s|let\s+us)\s+(?:(?:now|then|also|first|can|will|['’]ll|just|need\s+to|are\s+going\s+to|want\s+to"
    r"|simply|finally|next)\s+)*(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
API_USAGE = re.compile(
    r"(?<!\w)(?:can|could|may|should)\s+(?:(?:also|optionally|instead|then|now|still|easily|either|additionally)\s+)*be\s+"
    r"(?:enabled|disabled|configured|set|changed|used|passed|specified|provided|overridden|customi[sz]ed|controlled"
    r"|installed|added|included|excluded|selected|declared|defined|registered|imported|called|invoked|created|loaded"
    r"|updated|upgraded|replaced|turned|toggled|adjusted|modified|extended|combined|mounted|accessed|retrieved|done"
    r"|achieved|accomplished|run|found|read|requested|supplied|given|opted|activated|deactivated|silenced|managed"
    r"|handled|generated|published|stored|listed|pinned|restricted|filtered)\b"
    r"|(?<!\w)(?:is|are)\s+(?:usually\s+|typically\s+|also\s+)?(?:configured|managed|set|enabled|disabled|controlled"
    r"|specified|defined|declared|installed|added|done|changed|customi[sz]ed)\s+(?:using|via|through|in\s+(?:the|your|a)\s)"
    r"|(?<!\w)(?:is|are)\s+as\s+(?:simple|easy)\s+as\b|(?<!\w)makes?\s+(?:this|it|that)\s+(?:easy|simple)\b"
    r"|(?<!\w)(?:is|are)\s+(?:also\s+)?(?:available|exposed|provided|installable|accessible)\s+(?:via|through|from|as|by|with"
    r"|using|on)\b|(?<!\w)(?:it\s+is|it['’]s)\s+(?:also\s+)?possible\s+to\s+[a-z]"
    r"|(?<!\w)(?:way|option|approach|alternative|solution|method)\s+(?:to\s+[^,.;:]{1,80}?\s+)?(?:is|would\s+be)\s+"
    r"(?:to\s+[a-z]|that\s+you|using|by)"
    # the API named for a purpose: "Starlette provides a `set_cookie` method to …", "X allows you to install …"
    r"|(?<!\w)(?:provides|offers|exposes)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?\x00+(?:\s+\w+){0,2}\s+(?:to|for|that|which)\s+[a-z]"
    r"|(?<!\w)(?:allows|lets|enables)\s+you\s+to\s+[a-z]",
    re.IGNORECASE,
)
# Searched behind a quick look for the literals every match holds (anchors.Guarded): the same answers, sooner.
API_USAGE = anchors.Guarded(API_USAGE)
# A sentence whose subject is a name given as code, then its verb (scan_version 28): "`preload` is a Route property for
# preparing route data", "The `uvx` command invokes a tool": the API named, and what it does for the reader who uses
# it. Read at the sentence's start only.
API_SUBJECT_NOUNS = (
    r"(?:command|subcommand|option|function|method|setting|flag|field|property|parameter|hook|component|class|module"
    r"|directive|key|attribute|argument|prop|variable|api|endpoint|backend|plugin|helper|type|interface|decorator|macro"
    r"|config|configuration|file|package|tool|task|event|header|value)s?"
)
API_SUBJECT_VERBS = (
    r"(?:is|are|was|can|will|does|do|returns?|takes?|accepts?|sets?|gets?|creates?|makes?|runs?|invokes?|calls?|lets?"
    r"|allows?|enables?|adds?|removes?|defines?|configures?|specifies?|controls?|determines?|tells?|provides?|gives?"
    r"|reads?|writes?|loads?|starts?|stops?|opens?|closes?|sends?|uses?|works?|applies?|renders?|registers?|exports?"
    r"|imports?|installs?|builds?|generates?|prints?|shows?|lists?|checks?|validates?|parses?|converts?|wraps?|holds?"
    r"|keeps?|changes?|updates?|triggers?|handles?|resolves?|matches?|marks?)"
)
API_SUBJECT = re.compile(
    r"\s*(?:(?:the|a|an)\s+)?\x00+(?:\s*(?:and|or|,)\s*\x00+)*(?:\s+"
    + API_SUBJECT_NOUNS
    + r")?\s+"
    + API_SUBJECT_VERBS
    + r"\b",
    re.IGNORECASE,
)
# "Be sure that …", "Please be sure to …": an imperative whose verb the list cannot hold alone.
BE_SURE = re.compile(r"(?:(?:please|just|also|and|then)\s+)*be\s+sure\b", re.IGNORECASE)
# A pointer elsewhere is no instruction: "See the reference", "For more details, read …".
POINTER = re.compile(
    # "Check here for pitfalls", "Click here to …" (scan_version 41): where the link is, said of it; from 42 after
    # "please" too ("Please see the reference")
    r"(?:please\s+)?(?:see|refer|learn|read\s+more|check\s+out|find\s+out|(?:check|click|look|go)\s+here"
    r"|for\s+(?:more|further|details|detailed)|more\s+(?:details|information|on)"
    r"|you\s+(?:can|could|may|will)\s+(?:also\s+)?(?:see|find|read|learn|check\s+out))\b",
    re.IGNORECASE,
)
# Where a community meets, after "join the" (scan_version 38: "Join the cluster with `kubeadm join`" and "Join the
# `orders` table" instruct), and what makes "create an issue" an API's use: "with `tracker.create_issue()`".
COMMUNITY_PLACES = (
    r"(?:community|communities|discussions?|conversation|chat|forums?|mailing\s+lists?|discord|slack|server|channels?"
    r"|newsletter|team|project)\b"
)
WITH_CODE = r"(?:with|using|via|through|by\s+(?:calling|running))\s+\x00"
# A call on the docs' community is no instruction either (scan_version 37): "Give us feedback at [the discussion](…)",
# "Let us know", "Join our Discord", "Open an issue", "Report a bug": it asks the reader to talk to the project, and
# tells nothing of how to use what the page documents.
COMMUNITY_CALL = re.compile(
    r"(?:(?:please|also|feel\s+free\s+to|do|then|and)\s+)*(?:give\s+us\s+(?:your\s+)?feedback|let\s+us\s+know"
    r"|join\s+(?:us|our|the\s+(?:[\w-]+\s+)?" + COMMUNITY_PLACES + r")|star\s+(?:us|the\s+repo)"
    r"|(?:open|file|submit|create|raise)\s+an?\s+(?:issue|bug|ticket|discussion)(?!\s+" + WITH_CODE + r")"
    r"|report\s+(?:a\s+bug|bugs|an\s+issue|issues)|reach\s+out|contact\s+us|follow\s+us|share\s+your\s+(?:feedback|thoughts)"
    r"|send\s+us|tell\s+us|get\s+in\s+touch|chat\s+with\s+us|come\s+(?:chat|say))\b",
    re.IGNORECASE,
)
# The first word of a step that shows its code: "And then instantiating a client:" (before a fence).
GERUND_STEP = re.compile(
    r"(?:(?:and|then|now|next|first|finally|for\s+example,?|e\.g\.,?)\s+)*[a-z]+ing\b", re.IGNORECASE
)
CONDITION_OPENING = re.compile(
    r"(?:(?:similarly|however|but|also|and|so|now|then|finally|otherwise|alternatively|additionally|likewise)"
    r"(?:\s*,)?\s+)?"
    r"(?:if|when|whenever|unless|once|in\s+case|should\s+you)\b",
    re.IGNORECASE,
)
# The main clause of a conditional sentence that makes something available only then.
CONDITIONAL_AVAILABILITY = re.compile(
    r"(?<!\w)(?:will|would)\s+(?:also\s+)?be\s+(?:supported|available|enabled|allowed|possible)\b", re.IGNORECASE
)
# A sentence that opens by reassuring warns of nothing: "Don't worry if some of this makes no sense yet."
REASSURANCE_OPENING = re.compile(
    r"[\s\x00]*(?:(?:but|and|so|just)\s+)?(?:don['’]t|do\s+not|never)\s+(?:worry|panic|fret|be\s+(?:afraid|scared|alarmed))\b"
    r"|[\s\x00]*no\s+(?:worries|need\s+to\s+worry)\b",
    re.IGNORECASE,
)
# A sentence that gives a reason or a recommendation states no caveat (and no instruction):
# "This is because …", "We recommend setting up a helper instead."
RATIONALE = re.compile(r"[\s\x00]*(?:(?:this|that|it)(?:\s+is|['’]s)\s+(?:because|why)|the\s+reason)\b", re.IGNORECASE)
# A sentence opening with its reason ("Because `get_object()` is not called, permissions are not applied"):
# the reason explains, the main clause after its comma still states what it states.
REASON_OPENING = re.compile(r"[\s\x00]*because\b[^,.;:]*,", re.IGNORECASE)
# A cue in what someone knows or decides ("FastAPI will know that it has to solve …", "Maintainers decide if
# backports are required") is reported, not laid on the reader.
REPORTED_BEFORE = re.compile(
    r"(?<!\w)(?:knows?|decides?|determines?|reali[sz]es?|understands?|wonders?|figures?\s+out)\s+(?:that|if|whether)\b"
    r"[^,.;:]*$",
    re.IGNORECASE,
)
# A cue in a reason clause inside a sentence (", since installers expect", "because it is slow") explains.
REASON_BEFORE = re.compile(r"(?:,[\s\x00]*since|(?<!\w)because)\b[^,.;:]*$", re.IGNORECASE)
RECOMMENDATION = re.compile(
    r"(?<!\w)(?:we|I)\s+(?:\w+\s+)?(?:recommend|suggest|encourage|advise)|(?:is|are)\s+(?:\w+\s+)?(?:recommended|preferred"
    r"|encouraged|advised|preferable|advisable)\b|(?:it\s+is|it['’]s)\s+(?:\w+\s+)?(?:better|best)\s+to\b"
    # a preference told the reader: "you may be better off not …", "you probably want to stick with …"
    r"|(?<!\w)better\s+off\b|(?<!\w)(?:probably|likely)\s+want\s+to\b"
    # when to choose it: "This permission is suitable if you want …"
    r"|(?:is|are)\s+(?:\w+\s+)?(?:suitable|a\s+good\s+(?:fit|choice))\s+(?:if|when)\s+you\b",
    re.IGNORECASE,
)
# Searched behind a quick look for the literals every match holds (anchors.Guarded): the same answers, sooner.
RECOMMENDATION = anchors.Guarded(RECOMMENDATION)
# A sentence that points at what the example shows warns of nothing: "Notice that we only declare one dependency."
OBSERVATION_OPENING = re.compile(
    r"[\s\x00]*(?:(?:and|but|now|here|again|also)(?:\s*,)?\s+)?(?:notice|observe|as\s+you\s+(?:can\s+)?see"
    # what an example does: "The following example will only route to `list`"
    r"|(?:the|this)\s+(?:following\s+|above\s+)?example(?:\s+(?:above|below))?\s+(?:will|would|does|shows)"
    # what a command printed (scan_version 9): "The output shows that the Container cannot be scheduled"
    r"|(?:the|this)\s+(?:above\s+)?(?:output|result)(?:\s+(?:above|below))?\s+(?:(?:will|should|would|may)\s+)?"
    r"(?:shows?|displays?|indicates?|confirms?|looks?\s+like|is\s+similar))\b",
    re.IGNORECASE,
)
# A page whose front matter dates it (``date: 2023-12-11``) is a post: news and history, told as a story. The front
# matter ends at its "---", or at YAML's "..." as "blocks-10" reads it (scan_version 49; before, a page closed by "..."
# was read on into its body, where a "date:" line in a code sample dated it).
DATED_FRONT_MATTER = re.compile(r"---[ \t]*\n(?:(?!---|\.\.\.[ \t]*(?:\n|$))[^\n]*\n){0,50}?date[ \t]*:", re.IGNORECASE)


def is_dated_post(text: str) -> bool:
    """Whether a page opens with front matter that holds a ``date:`` (a blog post, a release announcement)."""
    return DATED_FRONT_MATTER.match(text) is not None


# A sentence that gives an example: "For example, …", "For instance, …", "e.g. …".
EXAMPLE_OPENING = re.compile(r"[\s\x00]*(?:for\s+(?:example|instance)|e\.g\.|as\s+an\s+example)\b", re.IGNORECASE)
# Before a requirement: a hedge or a hypothesis ("almost always has to", "would expect").
HEDGED_BEFORE = re.compile(r"(?:(?<!\w)(?:almost|would|could)|\w['’]d)\s+(?:\w+\s+)?$", re.IGNORECASE)
# A cue in a concessive clause ("Even if the dependencies are not added") concedes more than it restricts.
CONCESSIVE_BEFORE = re.compile(r"(?<!\w)(?:even\s+if|even\s+though|although|though|whereas)\b[^,.;:]*$", re.IGNORECASE)
# The outcome a check exists to give: a failed check after the cue, or the application's user or request as the
# one the rule applies to ("require the user to have", "if the user is not allowed").
# "if the test fails", "when any permission check fails": a check failing, the condition of the outcome it exists for.
FAILED_CHECK = (
    r"(?:if|when|whenever|unless|should)\s+(?:(?:the|a|an|any|its|their)\s+)?(?:[\w\x00-]+\s+){0,3}?(?:tests?|checks?"
    r"|validation)\s+(?:\w+\s+)?fail(?:s|ed)?(?!\w)"
)
CHECK_FAILS_AFTER = re.compile(r"(?<!\w)" + FAILED_CHECK, re.IGNORECASE)
# The same condition opening the sentence: "If any permission check fails, … will be raised".
CHECK_FAILS_OPENING = re.compile(r"[\s\x00]*" + FAILED_CHECK, re.IGNORECASE)
END_USER = r"(?:the|a|an)\s+(?:user|request|client)(?!\w)"
END_USER_AFTER = re.compile(
    r"(?:\s+\w+){0,3}?\s+(?:if|when|unless|only\s+if)\s+" + END_USER + r"|\s+" + END_USER + r"\s+to\b", re.I
)
END_USER_BEFORE = re.compile(r"(?<!\w)(?:if|when|unless)\s+" + END_USER + r"[^,;:]*$", re.IGNORECASE)
# A comparison before "except": "X is the same as Y, except that …" tells how two things differ.
COMPARISON_BEFORE = re.compile(r"(?<!\w)(?:same|similar|identical|equivalent|like|as\s+with|just\s+as)(?!\w)", re.I)
# A cue that opens a relative clause ("responses that do not load …") describes more than it restricts.
RELATIVE_BEFORE = re.compile(r"(?<!\w)(?:that|which|who|whose)\s+(?:\w+ly\s+)?$", re.IGNORECASE)

# --- links between a caveat and its instruction -------------------------------------------

# Openings that point back to what came before; longest first so "This call" wins over "This".
ANAPHORS = (
    "this operation",
    "this endpoint",
    "this function",
    "this command",
    "this setting",
    "this parameter",
    "this option",
    "this method",
    "this feature",
    "this field",
    "this call",
    "this flag",
    "this approach",
    "this mode",
    "the above",
    "the operation",
    "the function",
    "the command",
    "the method",
    "the call",
    "doing so",
    "in that case",
    "in this case",
    "these",
    "this",
    "that",
    "they",
    "it",
)
ANAPHOR_PATTERN = re.compile(
    r"(?:(?:however|but|also|note\s+that|otherwise|then)(?:\s*,)?\s+)?(?P<anaphor>"
    + "|".join(re.escape(anaphor).replace(r"\ ", r"\s+") for anaphor in ANAPHORS)
    + r")(?!\w)",
    re.IGNORECASE,
)
CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\((?!s\))")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# The words of ``WORD`` of three characters or more, and of four: a shorter word ends its run of word characters, so
# no match starts inside one and the long words are found without a length test of every word.
LONG_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
TERM_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
# A prose word that reads as code: snake_case or camelCase; or a dotted name (``client.open``); or an option.
DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# What every dotted name holds: a dot between a word character and a letter or "_". Opening on the dot, a literal
# the engine looks for quickly, it passes over a sentence whose only dot ends it, where ``DOTTED`` tries every word.
DOTTED_JOINT = re.compile(r"\.(?<=\w\.)[A-Za-z_]")
IDENTIFIER_LIKE = re.compile(r"[A-Za-z0-9]*(?:_[A-Za-z0-9_]*|[a-z][A-Z][A-Za-z0-9]*)")
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
# Words too common to link two sentences ("term" links use the rest, four letters or more).
COMMON_WORDS = frozenset(
    """this that these those with from into your they them their there then than when what which will would should could
    have been being were also only just more most some such other each every must need needs used uses using use make
    makes made like well very much many does done doing here where while about above below after before because since
    until unless however instead otherwise example following default defaults instance value values file files time
    first second next last same different available support supported able following want wants case cases note
    sure thing things way ways work works working specific certain possible already always never still even again""".split()
)

# --- Markdown markup, blanked ------------------------------------------------------------

# Hugo shortcodes ({{< note >}}, {{% warning %}}) and, from scan_version 43, Liquid tags ({% hint style="danger" %}),
# emphasis marks, link targets, reference labels and HTML tags become spaces (same length), so "**not**" reads as "not"
# and a "deprecated" in a URL is no cue.
MARKUP = re.compile(
    r"\{\{[<%][^\n]{0,300}?[%>]\}\}|\{%[^\n]{0,300}?%\}|\]\([^)\n]{0,500}\)|\]\[[^\]\n]{0,100}\]|<[^<>\n]{0,300}>"
    r"|[*~]+|(?<![A-Za-z0-9])_+"
    r"|_+(?![A-Za-z0-9])|[\[\]]"
)


# Every match of MARKUP starts with one of these characters (read off the pattern): a sentence without any has no
# markup. (Were they not known, the empty pattern would send every sentence to MARKUP.)
MARKUP_START = re.compile(anchors.first_character_class(MARKUP.pattern) or "")


def prose_view(masked_sentence: str) -> str:
    """``masked_sentence`` with Markdown markup blanked (same length): ``"**not** [a](u)"`` -> ``"  not    a    "``."""
    if MARKUP_START.search(masked_sentence) is None:
        return masked_sentence
    return LED_MARKUP.sub(lambda match: " " * len(match.group(0)), masked_sentence)


@dataclass(frozen=True)
class Cue:
    """Why a sentence is a caveat: the rule, the cue as written (lower case, spaces collapsed), its tier, where."""

    rule: str
    cue: str
    tier: int
    start: int


def normalized_cue(text: str) -> str:
    """``"Must\\n  NOT"`` -> ``"must not"``; ``"don’t"`` -> ``"don't"``; masked code -> ``"`…`"``."""
    return " ".join(re.sub("\x00+", "`…`", text).lower().replace("’", "'").split())


def turn_of_phrase(reading: str, rule: str, start: int, end: int) -> str | None:
    """The turn of phrase that makes the cue at ``[start, end)`` warn of nothing, or ``None``."""
    word = normalized_cue(reading[start:end])
    for turn, pattern in TURNS_AFTER.items():
        if rule in TURN_SCOPES[turn] and pattern.match(reading, end):
            if turn == "reassurance" and not re.search(r"(?:not|n't|never)$", word):
                continue
            if turn == "reassurance" and COGNITION_AFTER.match(reading, end) and not said_of_a_person(reading, start):
                # "If you just don't know" is an idiom; "Meson cannot know about link dependencies" and "the `moc`
                # tool does not know about any macros" tell what a tool does not take into account (scan_version 45).
                continue
            if turn == "expected outcome" and not word.startswith("should"):
                # "It should be available" foretells; "it must be available" and "it needs to be installed" ask
                # for what has to hold first (scan_version 13).
                continue
            return turn
    if (
        word in SPARING_NEGATIONS
        and SPARED_AFTER.match(reading, end)
        and (rule == "limitation" or not at_clause_start(reading, start))
    ):
        return "reassurance"
    before = reading[max(start - BEFORE_CUE_WINDOW, 0) : start]
    if (
        rule == "prohibition"
        and PURPOSE_BEFORE.search(before)
        and word in ("do not", "don't", "never", "avoid", "avoiding")
    ):
        return "purpose"
    if word == "avoiding" and before.strip(" \t\n\x00"):
        # "…, thus avoiding conflicts": the result of what the sentence does, not a prohibition.
        return "purpose"
    if word == "avoid" and not re.fullmatch(
        r"[\s\x00]*(?:(?:so|and|or|also|please|then|always|to)\s+)?", before.lower()
    ):
        # "Avoid X" at a clause start warns; "to avoid", "helps avoid" is a purpose.
        if not re.search(r"(?:^|[.;:,]\s*|[,;]\s*(?:and|or|but)\s+)$", before):
            return "purpose"
    if word in ("do not", "don't") and NARRATION_BEFORE.search(before) and not STATED_LIMIT_AFTER.match(reading, end):
        return "narration"
    if rule == "limitation" and (
        (word == "only" and NOT_A_RULE_BEFORE.search(before))
        or (word.endswith("only") and NOT_A_RULE_AFTER.match(reading, end))
    ):
        return "not a limit"
    if rule == "limitation" and re.match(r"\s+(?:only|just)\b", reading[end:]) and word.endswith("not"):
        return "not a limit"
    if rule == "requirement" and word == "should" and SECOND_PERSON_BEFORE.search(before):
        return "instruction"
    if (
        rule == "requirement"
        and re.fullmatch(r"(?:(?:is|are)\s+)?(?:required|needed|necessary)(?:\s+(?:to|by|for|in|on))?", word)
        and NONE_REQUIRED_BEFORE.search(before)
    ):
        # "No third-party ingress controllers are required by default": the obligation removed (scan_version 61).
        return "obligation removed"
    if (
        rule == "requirement"
        and re.match(r"(?:need|needs|have|has)\s+to", word)
        and re.search(r"(?<!\w)only\s+$", before, re.IGNORECASE)
    ):
        return "instruction"
    if (
        rule == "requirement"
        and word == "expect"
        and EXPECTED_SIGHT_AFTER.match(reading, end)
        and READER_BEFORE.search(before)
    ):
        # "you should expect to see the request rate increase": what the reader will observe, no precondition
        # (scan_version 52).
        return "expected outcome"
    if rule == "requirement" and FEELING_BEFORE.search(before):
        # "don't feel like you need to keep them named this way": an obligation lifted (scan_version 52).
        return "obligation removed"
    if (
        rule == "requirement"
        and word.endswith(("needed for", "needed by", "needed so", "needed if", "needed when"))
        and (SMALL_NEED_BEFORE.search(before))
    ):
        # "Less memory is needed for the new index", "Only one flag is needed for most setups": a need said to be
        # small, which reassures (scan_version 71).
        return "obligation removed"
    if rule == "error" and word.startswith("caus") and NOT_A_LOSS_BEFORE.search(before):
        # "Nothing here causes the deploy to fail": a failure denied (scan_version 71).
        return "not an error"
    if rule == "requirement" and word in ("need to", "needs to") and NEED_LIFTED_BEFORE.search(before):
        # "This eliminates the need to download binaries": the need taken away, asked of no one (scan_version 70).
        return "obligation removed"
    if rule == "requirement" and word.endswith(" to") and PREPOSITION_TO.match(reading, end):
        # "I have to my satisfaction solved it": "to" before a determiner is a preposition, no obligation.
        return "not a requirement"
    if rule == "requirement" and re.search(
        r"(?<!\w)(?:not|no|never|without|\w+n['’]t)\s+(?:\w+\s+)?$", before, re.IGNORECASE
    ):
        return "obligation removed"
    if rule == "requirement" and re.search(
        r"(?<!\w)(?:(?:if|when|unless|whenever|once)\s+(?:you|we)|(?:you|we)\s+(?:\w+\s+)?(?:might|may|could))\s+$|(?<!\w)(?:we|let['’]s)(?:['’]ll|\s+will|\s+would|['’]d)?\s+(?:\w+\s+)?$|(?<!\w)we$",
        before,
        re.IGNORECASE,
    ):
        # "you might need to", "we need to add": a step of the text, not a requirement.
        return "instruction"
    if (
        rule == "risk"
        and word in ("risk", "risks", "security risk", "security risks")
        and AVERTED_BEFORE.search(before)
    ):
        # "to reduce the risk of drift", "mitigates these risks", "without a risk": a risk averted, no warning
        # (scan_version 41).
        return "a risk averted"
    if rule == "limitation" and PLAIN_COST.fullmatch(word) and COST_SPARED_BEFORE.search(before):
        # "without excessive memory consumption", "It is not much slower": a cost spared, no limitation (scan_version
        # 56; 55 looked one word back, and not past markup: "without *excessive* memory consumption").
        return "a cost spared"
    if rule == "deprecation" and word == "no longer" and CONDITION_CLAUSE_BEFORE.search(before):
        # "which will disappear when no longer subscribed to", "even if the cask is no longer installed": a time or a
        # case told, no deprecation (scan_version 41).
        return "a time told"
    if rule == "risk" and word.endswith("lost") and NOT_A_LOSS_BEFORE.search(before):
        # "No data will be lost", "there are lost more cases" (scan_version 42): nothing is lost.
        return "a guarantee"
    if rule == "limitation" and "no substitute" in word and THERE_BEFORE.search(before):
        # "There is no substitute for testing": praise of what the text recommends, no limit (scan_version 42).
        return "praise"
    if rule == "risk" and word.endswith(" lost") and LOST_CONNECTION_BEFORE.search(before):
        # "the library detects that the connection to the server is lost": an event the API reports, not data lost.
        return "event"
    if word == "never" and re.search(r"(?<!\w)(?:almost|nearly|hardly|practically|rarely)\s+$", before, re.IGNORECASE):
        # "You almost never use them": how often, not a prohibition.
        return "not a limit"
    if re.search(r"(?<!\w)(?:may|might|can|could)\s+or\s+$", before, re.IGNORECASE):
        # "may or may not": either way, no limit.
        return "not a limit"
    if (word in ("ensure that", "make sure", "be sure") or word.startswith("ensure ")) and (
        PURPOSE_BEFORE.search(before)
        or re.search(
            r"(?<!\w)(?:will|would|can|['’]ll)\s+(?:(?:also|always|automatically)\s+)?$", before, re.IGNORECASE
        )
    ):
        # "to ensure that it closes": a purpose; "FastAPI will make sure it runs", from scan_version 74 "uv will always
        # ensure the lockfile is up to date": a promise, not a requirement.
        return "purpose"
    if rule == "limitation" and "latenc" in word and COST_SPARED_BEFORE.search(before):
        # "Batch the writes to avoid increasing latency": a cost spared (scan_version 74).
        return "cost spared"
    if rule == "limitation" and NOT_MADE_FOR.match(word) and SCOPE_SUBJECT_BEFORE.search(before):
        # "This page is not intended to cover every case": a page telling its own scope (scan_version 74).
        return "not a limit"
    if rule == "deprecation" and "unmaintained" in word and UPKEEP_CONDITION_BEFORE.search(before):
        # "The tool warns you when a dependency is unmaintained": the case a feature handles (scan_version 74).
        return "not a deprecation"
    return None


# "I" as a sentence's word: a person's own account ("I move on if it doesn't work", a survey's quote, an author's
# aside), not a rule laid on the reader; its cues are of tier 3 (scan_version 15). "I/O" is no pronoun, nor, from
# scan_version 18, the "I" of "I.e.".
FIRST_PERSON = re.compile(r"(?<![\w'’/-])I(?:['’](?:m|ve|ll|d))?(?![\w'’/-]|\.[ \t]*[eE]\.)")


class CheckSearch:
    """``pattern.search(text, position, end)`` for positions that never decrease, each answered from the last search
    when it can: the leftmost match from ``p`` is the leftmost from any later place up to its start, and no
    match from ``p`` means none from any later place. Linear in the text however many places ask. ``end`` is
    where the text is read to (its end if ``None``)."""

    def __init__(self, pattern: re.Pattern, text: str, end: int | None = None) -> None:
        self.pattern = pattern
        self.text = text
        self.end = len(text) if end is None else end
        self.searched = -1
        self.found: re.Match | None = None

    def search(self, position: int) -> re.Match | None:
        if self.searched < 0 or position < self.searched or (self.found is not None and self.found.start() < position):
            self.found = self.pattern.search(self.text, position, self.end)
            self.searched = position
        return self.found


def sentence_cues(reading: str) -> list[Cue]:
    """Every cue of one sentence's prose view that no turn of phrase cancels, in text order.

    ``sentence_cues("It never fails.")`` -> ``[Cue("prohibition", "never", 1, 3), Cue("error", "fails", 1, 9)]``.
    Cues do not overlap: the leftmost is taken, and at one place the one listed first in ``CUE_RULES``
    ("must not" before "must").
    """
    found: list[Cue] = []
    # What the weighing below asks of the whole sentence, asked once (each cue asking anew made a sentence of
    # many cues quadratic): where the leading blanks end, the first comparison word, and a failed check after
    # a place, the places only growing (``checks_from``).
    leading = re.match(r"[ \t\n\x00]*", reading).end()
    # (The first comparison word is looked for only in a sentence with an "except" cue, which asks.)
    comparison = CheckSearch(COMPARISON_BEFORE, reading)
    checks_from = CheckSearch(CHECK_FAILS_AFTER, reading)
    first_person = FIRST_PERSON.search(reading) is not None
    for match in CUE_PATTERN.finditer(ascii_lowered(reading)):
        rule, tier, _ = CUE_RULES[int(match.lastgroup[1:])]
        start, end = match.span()
        if turn_of_phrase(reading, rule, start, end) is not None:
            continue
        before = reading[max(start - BEFORE_CUE_WINDOW, 0) : start]
        word = normalized_cue(match.group(0))
        if word in ("raise", "throw") and (
            at_clause_start(reading, start) or re.search(r"(?<!\w)(?:to|than)\s+$", before, re.IGNORECASE)
        ):
            # "Raise an error if …" instructs; "to raise errors", "rather than throw exceptions" say what for.
            continue
        if rule == "prohibition" and word in ("do not", "don't") and not at_clause_start(reading, start):
            # "Don't share it" forbids; "clients don't send a body" says what something does: a limitation.
            rule, tier = "limitation", 2
        if (
            first_person
            or RELATIVE_BEFORE.search(before)
            or CONCESSIVE_BEFORE.search(before)
            or REASON_BEFORE.search(before)
            or REPORTED_BEFORE.search(before)
            or re.search(r"\w\s+you\s+$", before)
        ):
            # "responses that do not load", "the platforms you need to support": a description.
            tier = 3
        elif rule in ("error", "limitation", "condition", "requirement") and (
            checks_from.search(max(start - BEFORE_CUE_WINDOW, 0))
            or CHECK_FAILS_OPENING.match(reading)
            or END_USER_AFTER.match(reading, end)
            or END_USER_BEFORE.search(before)
        ):
            # "It will raise `PermissionDenied` if the test fails", "Authorization will only be granted if the
            # user is authenticated", "`POST` requests require the user to have …": what a check exists to do,
            # told of the application's user and requests, not a restriction on the reader.
            tier = 3
        elif (
            rule == "condition"
            and word.startswith("except")
            and comparison.search(0) is not None
            and comparison.search(0).end() <= start
        ):
            # "the same type as the `url` field, except that it points to …": a difference told, no exception.
            tier = 3
        elif word == "however" and leading >= start:
            # "However, --only-group also excludes default groups": a sentence opening on a contrast qualifies
            # what came before.
            tier = 2
        elif rule == "requirement" and HEDGED_BEFORE.search(before):
            # "it almost always has to", "FastAPI would expect": a habit or a hypothesis, not a requirement.
            tier = 3
        found.append(Cue(rule, word, tier, start))
    return found


def condition_clause_end(reading: str) -> int | None:
    """Where a leading condition ("If you need X, …") ends (at its comma), or ``None`` when the sentence opens otherwise."""
    opening = re.match(r"[\s\x00]*", reading).end()
    if not CONDITION_OPENING.match(reading, opening):
        return None
    comma = reading.find(",", opening)
    return None if comma == -1 else comma


def is_lead_in(reading: str) -> bool:
    """Whether a sentence is a marker or a lead-in: three words at most, ending with ``:`` (``"Deprecation
    notice:"``, ``"You must write:"``, ``"To install ruff:"``)."""
    stripped = reading.rstrip(" \t\n\x00")
    return stripped.endswith(":") and len(WORD.findall(stripped)) <= 3


def strongest_cue(cues: list[Cue]) -> Cue | None:
    """The cue that names the caveat: the lowest tier, then the leftmost."""
    return min(cues, key=lambda cue: (cue.tier, cue.start)) if cues else None


# --- instructions -------------------------------------------------------------------------


def opening_imperative(reading: str, position: int = 0) -> str | None:
    """The imperative verb a clause opens with at ``position`` (lead-ins skipped), or ``None``.

    ``opening_imperative("Then, run it.")`` -> ``"run"``; ``opening_imperative("Set of rules.")`` -> ``None``.
    """
    while True:
        match = CLAUSE_WORD.match(reading, position)
        if match is None:
            return None
        word = match.group("word").lower()
        if word in LEAD_INS:
            position = match.end()
            continue
        if word in IMPERATIVE_VERBS and not NOT_AN_IMPERATIVE_AFTER.match(reading, match.end()):
            return word
        if (
            word in GUARDED_IMPERATIVE_VERBS
            and GUARDED_IMPERATIVE_NEXT.match(reading, match.end())
            and not NOUN_PHRASE_SUBJECT.match(reading, match.end())
        ):
            return word
        return None


def opens_sentence(reading: str, position: int) -> bool:
    """Whether only lead-ins (Then, Now, Please, …) and markup come before ``position``: ``"Please be sure"``, 7."""
    return all(word.lower() in LEAD_INS for word in WORD.findall(reading, 0, position))


def unlisted_imperative(reading: str, opening: int) -> bool:
    """Whether a sentence opens with a verb the list lacks, told by its shape: a capitalised word that reads as a
    base form, then an object (a determiner or code), in a sentence that names code.

    ``"Acknowledge each parcel with `ack()`."`` -> ``True``; ``"Uvicorn with `--workers`"`` -> ``False``.
    """
    match = UNLISTED_IMPERATIVE.match(reading, opening)
    if match is None or "\x00" not in reading and not CALL.search(reading):
        return False
    word = match.group("word").lower()
    if OWN_VERB_AFTER.match(reading, match.end()):
        # "Package `source` keys are not inherited": the word names the subject's kind, the sentence has its verb.
        return False
    return word not in FUNCTION_WORDS and not re.search(r"(?:s|ed|ing|ly|tion|ment|ness)$", word)


def at_clause_start(reading: str, position: int) -> bool:
    """Whether ``position`` opens a clause: the sentence's start, after a comma, a semicolon or a colon, after
    a word that joins clauses ("so", "then", "and", "but", "that", …), or after a short opening phrase
    ("For large downloads you may want to …")."""
    # A match ends at ``position`` and its mark or word right before the space and code there, so it is looked for
    # from the longest word's length before them: searched from the sentence's start, each call was linear in it, and
    # a sentence of many cues that ask (2,000 "they raise errors") quadratic.
    space_start = position
    while space_start > 0 and (reading[space_start - 1].isspace() or reading[space_start - 1] == "\x00"):
        space_start -= 1
    if CLAUSE_START_BEFORE.search(reading, max(space_start - LONGEST_CLAUSE_WORD, 0), position) is not None:
        return True
    opening = CLAUSE_WORD.match(reading)
    return (
        opening is not None
        and opening.group("word").lower() in INTRO_WORDS
        and position - opening.end() <= 80
        and not re.search(r"[,.;:]", reading[opening.end() : position])
    )


def is_pointer(reading: str, opening: int | None = None) -> bool:
    """Whether a sentence points elsewhere (``POINTER``: "See the reference.", "Learn more about X.", "For more
    details, read …") or, from scan_version 37, calls on the docs' community (``COMMUNITY_CALL``: "Give us feedback
    at …", "Open an issue"), its opening blanks (``opening``, where its first word starts) passed over."""
    if opening is None:
        opening = re.match(r"[\s\x00]*", reading).end()
    return POINTER.match(reading, opening) is not None or COMMUNITY_CALL.match(reading, opening) is not None


def instruction_form(reading: str, before_fence: bool, reference_entry: bool) -> str | None:
    """How a sentence gives an instruction, or ``None``: the forms of ``docs/caveats.md``, "The instruction".

    ``"imperative"`` (``Run uv sync.``), ``"to-clause"`` (``To enable it, set X.``, ``To install ruff:``),
    ``"second person"`` (``You can pass a timeout.``), ``"tutorial step"`` (``Now we return the scopes.``,
    ``Let's add a route.``), ``"api usage"`` (``Strict mode can be enabled with …``, ``It is available via
    pip.``) and ``"step before code"`` (a sentence opening with an -ing word and ending in ``:`` right before
    a code block). A question, a pointer (``See …``) and a reference entry give none.
    """
    stripped = reading.rstrip()
    if reference_entry or stripped.endswith("?"):
        return None
    opening = re.match(r"[\s\x00]*", reading).end()
    if is_pointer(reading, opening):
        return None
    if (
        opening_imperative(reading, opening) is not None
        or unlisted_imperative(reading, opening)
        or BE_SURE.match(reading, opening)
    ):
        return "imperative"
    first = WORD.match(reading, opening)
    first_word = "" if first is None else first.group(0).lower()
    if first_word == "to" and (stripped.endswith(":") or "," in reading or SECOND_PERSON.search(reading)):
        return "to-clause"
    if first_word in INTRO_WORDS:
        # "For example, to route …, located at …, pass a dict": an imperative after any comma of the opening.
        comma = reading.find(",", opening, opening + 250)
        while comma != -1:
            if opening_imperative(reading, comma + 1) is not None:
                return "to-clause" if first_word == "to" else "imperative"
            comma = reading.find(",", comma + 1, opening + 250)
        # "In your `settings.py` add:": a short opening, then the verb that the code after it carries out.
        # (Only a sentence ending on its colon can: the pattern is tried at each of its words.)
        last = LAST_WORD_BEFORE_COLON.search(stripped) if stripped.endswith(":") else None
        if last is not None and last.group("word").lower() in IMPERATIVE_VERBS and len(stripped) <= 120:
            return "imperative"
    present = PRESENT_STEP.match(reading, opening)
    if present is not None and present.group("verb").lower() in IMPERATIVE_VERBS:
        # "You pass the kwargs when declaring the instance": the reader's step told in the present.
        return "second person"
    for match in SECOND_PERSON.finditer(reading):
        verb = match.group("verb").lower()
        acts = verb not in NOT_ACTION_VERBS or (
            verb in OMITTING_VERBS and not READING_SKIPPED.match(reading, match.end())
        )
        if acts and at_clause_start(reading, match.start()):
            return "second person"
    for match in TUTORIAL_STEP.finditer(reading):
        if not at_clause_start(reading, match.start()):
            continue
        verb = match.group("verb").lower()
        stem = verb[:-1] if verb.endswith("s") and verb[:-1] in IMPERATIVE_VERBS else verb
        if stem in IMPERATIVE_VERBS or (
            verb.endswith("ed") and (verb[:-2] in IMPERATIVE_VERBS or verb[:-1] in IMPERATIVE_VERBS)
        ):
            return "tutorial step"
    if API_USAGE.search(reading):
        return "api usage"
    if before_fence and stripped.endswith(":") and GERUND_STEP.match(reading, opening):
        return "step before code"
    return None


# A term is masked code (a run of blanks and NULs that holds a NUL) or a word. Written so that no two quantifiers
# can share a character: ``[\s\x00]*\x00+[\s\x00]*`` matches the same runs, but tries a run of n NULs that
# no colon ends in about n**3 ways (a masked code block as a list item's text took 20 ms to tell).
REFERENCE_ENTRY = re.compile(r"(?:\s*\x00[\s\x00]*|[\s\x00]*[A-Za-z][\w.-]*[\s\x00]*)(?::|\s[-–—]\s)|\s*\x00[\s\x00]*$")


def is_reference_entry(reading: str) -> bool:
    """Whether a list item's text is a term and its description (``--quiet: Do not print.``, ```` `x` - the x ````)."""
    return REFERENCE_ENTRY.match(reading) is not None


# --- what a sentence names -------------------------------------------------------------------


# A reference back to what came just before, anywhere in a sentence: "the above configuration will fail".
BACK_REFERENCE = re.compile(
    r"(?<!\w)(?:the\s+above(?:\s+(?:example|configuration|command|code|snippet|setting|setup))?"
    r"|the\s+(?:example|configuration|command|code|snippet|setting|setup)\s+above)(?!\w)",
    re.IGNORECASE,
)


def back_reference(reading: str) -> str | None:
    """A reference back anywhere in a sentence, as written: ``"…, the above configuration fails."`` ->
    ``"the above configuration"``."""
    match = BACK_REFERENCE.search(reading)
    return None if match is None else " ".join(match.group(0).split())


def opening_anaphor(reading: str) -> str | None:
    """The anaphor a sentence opens with, as written: ``"This operation refuses …"`` -> ``"This operation"``."""
    match = ANAPHOR_PATTERN.match(reading, re.match(r"[\s\x00]*", reading).end())
    return None if match is None else " ".join(match.group("anaphor").split())


# A sentence of links alone, inline (with a title or not) or by reference, between list markers, commas or bars:
# an index of a page's methods (Laravel's "[unless](#method-unless) [where](#method-where) …") whose link texts are
# names, no prose.
LINKS_ONLY = re.compile(
    r"(?:[\s,;·|*+-]*\[[^\]\n]{0,200}\](?:\([^)\s]{0,500}(?:[ \t]+\"[^\"\n]{0,200}\")?\)|\[[^\]\n]{0,100}\]))+"
    r"[\s,;·|.]*"
)


def is_links_only(masked_sentence: str) -> bool:
    """Whether a sentence is links alone (``LINKS_ONLY``): no caveat, whatever its link texts say (scan_version 29).
    ``is_links_only("[unless](#method-unless) [where](#method-where)")`` -> ``True``."""
    return masked_sentence.lstrip(" \t\n,;·|*+-")[:1] == "[" and LINKS_ONLY.fullmatch(masked_sentence) is not None


def sentence_identifiers(text: str, masked: str, start: int, end: int, code_spans: list[tuple[int, int]]) -> frozenset:
    """The names a sentence gives as code: call names, code-span words, snake_case/dotted/camelCase words, options.

    A URL's host names no code: outside code spans the names are read with every URL's scheme and host left
    out (in a link's target, an autolink, a bare ``https://…``), so ``https://cmake.org/download`` gives no
    ``org``; its path still counts, but for a placeholder between its slashes (``/docs/<K6_VERSION>/``).
    """
    prose = masked[start:end]
    if "://" in prose:
        prose = URL.sub(" ", prose)
    if "/<" in prose or "/{" in prose:
        # A path's placeholder (``/docs/k6/<K6_VERSION>/``, ``/{version}/``) is filled in when the site is built: it
        # names no code, and a site whose every link holds one would link every sentence to every other
        # (scan_version 26).
        prose = PATH_PLACEHOLDER.sub(" ", prose)
    # A call needs its "(", a dotted name its dot between words, an option its "-": a pattern is searched only where
    # what it needs is.
    names = set()
    if "(" in prose:
        names.update(part for match in CALL.finditer(prose) for part in WORD.findall(match.group(1)))
    for code_start, code_end in spans_within(code_spans, start, end):
        names.update(LONG_WORD.findall(text, code_start, code_end))
        if text.find("-", code_start, code_end) != -1:
            names.update(OPTION.findall(text, code_start, code_end))
    names.update(word for word in WORD.findall(prose) if (not word.islower() or "_" in word) and identifier_like(word))
    if DOTTED_JOINT.search(prose) is not None:
        names.update(part for match in DOTTED.finditer(prose) for part in LONG_WORD.findall(match.group(0)))
    if "-" in prose:
        names.update(OPTION.findall(prose))
    return frozenset(names)


# A URL's scheme and host, bare or in a link's target: its path may name a package (``/pytest-asyncio/``), its
# host names a site.
URL = re.compile(r"[A-Za-z][\w+.-]*://[^/\s)<>\]]*")
# A placeholder between a path's slashes: ``<NAME>``, ``{name}`` or ``{{ name }}``; from scan_version 28 also one that
# ends the path (``…/k6/<K6_VERSION>)``, before a query, a fragment or the link's end).
PATH_PLACEHOLDER = re.compile(
    r"(?<=/)(?:<[A-Za-z_][\w.-]{0,60}>|\{\{?[ \t]*[A-Za-z_.$][\w.-]{0,60}[ \t]*\}?\})(?=[/)#?\]\s]|$)"
)


def identifier_like(word: str) -> bool:
    """Whether a word reads as code (``IDENTIFIER_LIKE``): snake_case or camelCase. A word in lower case without
    ``_`` never does, and most words are one, so the pattern is tried on the others only."""
    return ("_" in word or not word.islower()) and IDENTIFIER_LIKE.fullmatch(word) is not None


def sentence_words(text: str, start: int, end: int) -> frozenset:
    """Every word of three or more characters in ``text[start:end]``, code included, as written; and its options."""
    words = frozenset(LONG_WORD.findall(text, start, end))
    # An option needs its "-": most sentences have none, and the search is left out.
    return words | frozenset(OPTION.findall(text, start, end)) if text.find("-", start, end) != -1 else words


def sentence_terms(reading: str) -> frozenset:
    """The content words of a sentence's prose, lower-cased, a plural ``s`` dropped: what a "term" link shares.

    ``sentence_terms("Upgrades respect constraints.")`` -> ``{"upgrade", "respect", "constraint"}``.
    """
    # (A word is ASCII: lower-cased, it keeps its length.)
    return frozenset(
        [
            word[:-1] if word[-1] == "s" and word[-2] != "s" else word
            for word in TERM_WORD.findall(ascii_lowered(reading))
            if word not in TERM_STOP_WORDS
        ]
    )


# The words no term link is made by: the common ones and the verbs of an instruction.
TERM_STOP_WORDS = COMMON_WORDS | IMPERATIVE_VERBS


def spans_within(spans: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a sorted, disjoint list that lie inside ``[start, end)``."""
    position = bisect_right(spans, (start, -1))
    found = []
    while position < len(spans) and spans[position][1] <= end:
        if spans[position][0] >= start:
            found.append(spans[position])
        position += 1
    return found


# --- blocks ------------------------------------------------------------------------------


RELEASE_TITLE = re.compile(
    r"\W*(?:v(?:ersion)?\s*)?\d+(?:\.\d+)+|.*\b\d{4}-\d{2}-\d{2}\b|\W*(?:unreleased|release\s+notes|changelog)\W*$",
    re.IGNORECASE,
)


# Titles that open on a version number and are no release's notes (scan_version 68): an upgrade guide's, a range of
# versions ("v3.4 to 3.5", "1.8 -> 2.0", "2.x – 3.0"), whose breaking changes are what a reader must do and mind; and a
# section number of two parts before a capitalised word ("4.1 Persistent Volume", "1.1 Build and push"), which a
# release's title never is but for the words a release is named by ("2.0 Release Notes", "1.5 Beta").
VERSION_RANGE = re.compile(
    r"\W*(?:v(?:ersion)?\s*)?\d+(?:\.(?:\d+|x))+\s*(?:to|→|->|[-–—])\s*v?\d+\.(?:\d+|x)"
    # (71) or a migration or an upgrade named by its version: "Version 2.0 Migration", "2.0 upgrade notes"
    r"|\W*(?:v(?:ersion)?\s*)?\d+(?:\.(?:\d+|x))+\b.*\b(?:migrat\w*|upgrad\w*)",
    re.IGNORECASE,
)
# From 71 the words after a section number are anything but a release's ("4.1 API Gateway", "2.3.1 Configure the
# storage", "4.1 `kubectl` setup"), any number of parts, where 68 took only two parts before a capitalised word; a
# release's words keep the title a release's ("2.0 What's New", "1.5 Breaking Changes", "1.10 Bug fixes").
RELEASE_WORDS = (
    r"(?:release[sd]?|notes|what['’]s\s+new|new\b|features?|changes|change\s*log|changelog|fixes|fixed|bug\s*fix\w*"
    r"|hot\s*fix\w*|deprecat\w*|breaking|highlights|beta|alpha|rc\d*|lts|preview|unreleased|improvements|enhancements"
    r"|updates?|patch\w*|known\s+issues|security\s+(?:fixes|updates|advisories))\b"
)
SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)+\s+(?!" + RELEASE_WORDS + r")(?=[A-Za-z`])", re.IGNORECASE)


def is_release_notes(title: str) -> bool:
    """Whether a section is a release's notes (titled by a version number or a date): history, read for nothing; from
    scan_version 68 not an upgrade guide's range of versions nor a section number (``VERSION_RANGE``,
    ``SECTION_NUMBER``)."""
    if RELEASE_TITLE.match(title) is None:
        return False
    return VERSION_RANGE.match(title) is None and SECTION_NUMBER.match(title) is None


def block_kind_word(block: grammars.Block) -> str:
    """What a labelled block is called in a cue: ``"alert"`` for a quote, ``"component"`` for an HTML or JSX element
    (``<Aside type="caution">``), else its kind (``"admonition"``)."""
    return {"quote": "alert", "html": "component"}.get(block.kind, block.kind)


def cautionary_cue(block: grammars.Block) -> str | None:
    """``"warning admonition"`` or ``"caution alert"`` for a cautionary block; ``None`` for any other.

    Read from the block's label whatever its kind, so a block kind a grammar adds later (a shortcode,
    an HTML block) that carries a label is read alike.
    """
    if block.kind in ("fence", "tab", "table", "list", "paragraph") or block.label not in CAUTIONARY_LABELS:
        return None
    return f"{block.label} {block_kind_word(block)}"


def version_cue(block: grammars.Block) -> str | None:
    """``"version-added admonition"`` for a version note's block; ``None`` for any other."""
    if block.kind in ("fence", "tab", "table", "list", "paragraph") or not VERSION_LABEL.search(block.label):
        return None
    return f"{block.label} {block_kind_word(block)}"


def is_aside(block: grammars.Block) -> bool:
    """Whether a block is an admonition or alert of any label: an aside to the text around it."""
    return block.kind not in ("fence", "tab", "table", "list", "paragraph") and bool(block.label)


def is_note(block: grammars.Block) -> bool:
    """Whether a block is a note, tip, info or important admonition or alert, read for a caveat."""
    return block.kind not in ("fence", "tab", "table", "list", "paragraph") and block.label in NOTE_LABELS


# --- searched sooner ---------------------------------------------------------------------
#
# The patterns searched through the sentences the rules read, each behind a look ahead for the characters a match
# can start with (``anchors.first_character_led``): the same matches, found without trying the whole pattern at
# every place. The markup and the condition that makes a sentence a caveat stay as written, since ``pairing``
# reads its anchors off them (and the markup's edges), and are searched through led copies.
TUTORIAL_STEP = anchors.first_character_led(TUTORIAL_STEP)
SECOND_PERSON = anchors.first_character_led(SECOND_PERSON)
COMPARISON_BEFORE = anchors.first_character_led(COMPARISON_BEFORE)
CHECK_FAILS_AFTER = anchors.first_character_led(CHECK_FAILS_AFTER)
REPORTED_BEFORE = anchors.first_character_led(REPORTED_BEFORE)
BACK_REFERENCE = anchors.first_character_led(BACK_REFERENCE)
END_USER_BEFORE = anchors.first_character_led(END_USER_BEFORE)
LED_MARKUP = anchors.first_character_led(MARKUP)
LED_CONDITIONAL_AVAILABILITY = anchors.first_character_led(CONDITIONAL_AVAILABILITY)
# Searched for their first character, the look behind after it (``anchors.literal_first``): "I", an option's "-".
FIRST_PERSON = anchors.literal_first(FIRST_PERSON)
OPTION = anchors.literal_first(OPTION)
