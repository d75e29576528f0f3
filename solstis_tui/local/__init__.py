"""The local game: the turn loop (who decides next), its bots in worker processes, the seats,
and the autosave. The local app and the tutorial use it; the host and the client do not."""
