"""What sshd tells the program it starts about the login (``ExposeAuthInfo``): the client
reads it and states the key to the host, which believes it only from a trusted account."""

from __future__ import annotations


def exposed_key(auth_info: str) -> str | None:
    """The public key in sshd's ``ExposeAuthInfo`` file (``$SSH_USER_AUTH``): its line
    ``publickey <type> <base64>``; None if the login used none."""
    for line in auth_info.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "publickey":
            return f"{words[1]} {words[2]}"
    return None
