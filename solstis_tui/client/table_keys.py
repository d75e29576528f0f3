"""The help's words on the keys of a table at the game host (``solstis online``)."""

TABLE_KEYS = """\
## At a table of the game host

| key | does |
|---|---|
| `q` | back to the lobby. Your seat stays yours: the game waits for you (your move \\
clock runs on while it is your decision) and you come back to it from the lobby |
| `f` | leave the table for good, after a `y` to confirm: before anyone has joined, \\
the table closes; during a game, the game ends as your loss (as resigning does). In the \\
footer only while it does more than `q` |
| `x` | resign, after a `y` to confirm: the game ends now as your loss |
| `o` | claim the game when the other player's move clock has run out (the top line \\
says "their time is up"); the game ends as their loss. The clocks run only once both \\
players have made a first decision: a player who never played never loses on time |
| `c` | say something to everyone at the table |
| `r` | once the game is over: its review, from the record the host keeps for those \\
who played or watched the game. The score sheet at the game's end (Enter) offers it too, \\
with `m`: a rematch, offered to the other player (a new table, a new secret deal, seats \\
swapped), and `n`: the lobby. Online there is no undo and no same deal |

A rated game counts only once each player has made 5 decisions: ended before that (a
resignation, leaving for good, a claim), it is an abandoned game, not a result, and moves
nobody's rating. Between two people, a rated game is played unrated when both ratings are
provisional, or when the same two have had 3 rated games count in 24 hours (1 while either
rating is provisional): both are told when the second sits down.

The top line shows each player's rating at a rated table (`?` while it is provisional),
and at its right end the move clock of the player to move when two people play, with their
time bank beside it: it counts down each second and changes its look under 30 seconds.
Each decision's time comes out of the bank (5 seconds back for each tile played); with
the bank empty the player is out of time, as with the move clock. No clock runs before
both players have made a first decision. A bot is never out of time.
"""
