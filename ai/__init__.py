"""Solstis bots (random, greedy, minimax, mcts, expert) and the arena that measures them.

Bots import ``solstis_tui.core`` only. Start with ``ai.registry.make_bot("mcts", seed)``.
"""
