"""What is done with a saved result or index: re-deriving it (``validate``), comparing and exporting it (``reembed``)."""
