"""The command line: the main job (``main_job``), the parsers (``parser``) and one module per command.

Each command module holds its options (``register``), its help and its
handler. ``run.py`` imports ``main_job`` alone; the parsers and the other
commands are imported only when the command line is not the plain main job.
"""
