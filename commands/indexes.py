"""What the commands that judge pairs share: the indexes the main job would build (or their outlines), and the collector kept off them."""

from __future__ import annotations

import contextlib
import gc

import chunk_index


def manifest_indexes(manifest, progress=None, section_cache: dict | None = None) -> dict:
    """The indexes the main job would build from ``manifest`` (its grammar, sizes and pairs), by policy name.

    ``section_cache`` as in ``chunk_index.document_sections_once``: sections another step read are not read again.
    """
    configs = chunk_index.manifest_policy_configs(manifest)
    return chunk_index.build_indexes(manifest.sources, configs, progress, section_cache)


def manifest_outlines(manifest, section_cache: dict | None = None, progress=None, source_ids=None) -> dict:
    """Where each chunk of those indexes lies (``chunk_index.build_outlines``), by policy name: no text, hashes or ids.

    ``progress(1, size)`` after each document, as in ``chunk_index.build_policy_indexes``. With ``source_ids``, only
    those sources' chunks: each document is cut on its own, so they are the chunks the whole build gives them.
    """
    sources = manifest.sources
    if source_ids is not None:
        sources = [source for source in sources if source["source_id"] in source_ids]
    return chunk_index.build_outlines(chunk_index.manifest_policy_configs(manifest), sources, progress, section_cache)


@contextlib.contextmanager
def collector_skips_what_exists():
    """Keep the cyclic garbage collector off every object alive now (the indexes) until the block ends.

    ``scan`` and ``retrieve`` allocate a little per pair while hundreds of
    thousands of index objects stay alive; left in view, the collector walks
    them again and again, and the commands grow faster than the corpus.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
