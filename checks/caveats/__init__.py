"""Find instruction/caveat pairs in pinned sources by fixed rules: ``run.py scan``.

A real docs set holds hundreds of instructions followed by a caveat; nobody
declares them by hand. This package finds candidate pairs deterministically
(no model, no network), checks each against the manifest's policies, and
turns the pairs into span checks for the manifest. The rules, their word lists
and their limits are stated in ``docs/caveats.md``. One module per step:

- ``masking``: fenced code and code spans, masked before anything is read;
- ``sentences``: where a sentence of a block begins and ends;
- ``rules``: what makes a sentence a caveat or an instruction;
- ``findings``: the found pair and the unpaired caveat, their names and tiers (all a cached scan needs);
- ``pairing``: each caveat's instruction, section by section;
- ``verdicts``: what each policy does with a pair, and which are declared;
- ``report``: the JSON report and the terminal table;
- ``declare``: found pairs as manifest ``span_checks`` entries.
"""
