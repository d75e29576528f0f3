"""The game host: it owns the online tables (asyncio, no Textual; see docs/protocol.md)."""
