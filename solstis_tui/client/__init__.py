"""``solstis online``: the app that plays at a game host (lobby, table screens) and the
client side of the host's protocol. It imports the host's pure modules (protocol, names,
paths), never the reverse."""
