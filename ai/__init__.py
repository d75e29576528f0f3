"""Solstis bots (random, greedy, minimax, mcts, expert) and the arena that measures them.

Installed as ``solstis_tui.ai`` (the repository keeps it in ``ai/``). Bots import
``solstis_tui.core`` only. Start with ``solstis_tui.ai.registry.make_bot("mcts", seed)``.
"""
