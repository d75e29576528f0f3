"""Online play: a game host that owns the tables, and the client side of its protocol."""
