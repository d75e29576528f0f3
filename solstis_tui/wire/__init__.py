"""What the host and the client both speak: the protocol's messages and limits, names and how
they are checked, and where a host's socket and data live. Nothing here imports either side."""
