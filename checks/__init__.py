"""What the lab checks on the chunks a policy cut: instruction/qualifier pairs and the caveats behind them.

``span_checks`` compares the declared pairs (the main job's result),
``caveats`` proposes pairs, ``context_windows`` measures the neighbours
that bring a split qualifier back, and ``size_sweep`` varies the sizes.
"""
