"""The lab's input and output: its errors, the strict JSON reader, the result writer, the one write path, progress.

Nothing here knows about chunks or policies; every other package reads and
writes through these modules, so a refusal looks alike wherever it comes from.
"""
