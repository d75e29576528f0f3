"""What the host and the client both speak: the protocol's lines and limits, the typed
messages a client sends (parsed once: ``messages``), names and how they are checked, and
where a host's socket and data live. Nothing here imports either side (only the engine)."""
