#!/usr/bin/env python3
"""Session tokens for sessions that were seeded straight into the database.

Reads lines of "<session id hex>|<user id hex>" on stdin and writes one signed session token
per line (HS256 with the benchmark server's JWT_SECRET, the claims the server issues), so a
benchmark can check sessions it never signed in.

    mint_tokens.py SECRET < pairs > tokens
"""

import base64
import hashlib
import hmac
import json
import sys
import time
import uuid


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(secret, session_id, user_id, now):
    header = b64(json.dumps({"typ": "JWT", "alg": "HS256"}, separators=(",", ":")).encode())
    claims = {"sub": user_id, "sid": session_id, "role": "career", "iat": now, "exp": now + 86400}
    payload = b64(json.dumps(claims, separators=(",", ":")).encode())
    signature = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64(signature)}"


def main():
    secret = sys.argv[1]
    now = int(time.time())
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        session_hex, user_hex = line.split("|")
        print(token(secret, str(uuid.UUID(hex=session_hex)), str(uuid.UUID(hex=user_hex)), now))


if __name__ == "__main__":
    main()
