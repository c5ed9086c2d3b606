"""What a person reads: the summary table, the terminal view of ``show`` and the HTML report.

Every view shows untrusted source text escaped, never interpreted.
"""
