#!/usr/bin/env python3
"""How fast a logout on one instance is refused by another instance under load.

Each round signs in on instance A, keeps instance B busy checking that session from several
threads, logs out on A, and keeps checking on B a little longer. A check sent to B after A
answered the logout and still let in is a stale answer: there must be none. The refusal delay
is the time from A's answer to B's first refusal, which is at most one check's round trip.

Prints one line: RESULT rounds=… checks=… checks_after_logout=… stale=… delay_p50_ms=… delay_max_ms=…
"""

import argparse
import http.client
import json
import threading
import time
import urllib.parse


def connection(base):
    url = urllib.parse.urlparse(base)
    return http.client.HTTPConnection(url.hostname, url.port, timeout=30)


def call(conn, method, path, body=None, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, data


def round_trip(args, a):
    status, body = call(a, "POST", "/api/auth/login", {"email": args.email, "password": args.password})
    if status != 200:
        raise SystemExit(f"sign-in on A answered {status}: {body[:200]!r}")
    token = json.loads(body)["data"]["token"]
    stop = threading.Event()
    seen = []
    lock = threading.Lock()

    def check():
        conn = connection(args.b)
        mine = []
        while not stop.is_set():
            sent = time.monotonic()
            status, _ = call(conn, "GET", "/api/auth/verify", token=token)
            mine.append((sent, time.monotonic(), status))
        with lock:
            seen.extend(mine)

    threads = [threading.Thread(target=check) for _ in range(args.threads)]
    for t in threads:
        t.start()
    time.sleep(args.before)
    status, body = call(a, "POST", "/api/auth/logout", {}, token=token)
    logged_out = time.monotonic()
    if status != 200:
        raise SystemExit(f"logout on A answered {status}: {body[:200]!r}")
    time.sleep(args.after)
    stop.set()
    for t in threads:
        t.join()
    after = [(sent, answered, status) for sent, answered, status in seen if sent > logged_out]
    stale = sum(1 for _, _, status in after if status == 200)
    refusals = [answered for _, answered, status in seen if status == 401 and answered >= logged_out]
    delay = (min(refusals) - logged_out) * 1000 if refusals else float("nan")
    let_in_before = sum(1 for sent, _, status in seen if sent <= logged_out and status == 200)
    return len(seen), len(after), stale, delay, let_in_before


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="instance A, e.g. http://127.0.0.1:18080")
    parser.add_argument("--b", required=True, help="instance B, on the same database")
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--before", type=float, default=0.2, help="seconds of checks before the logout")
    parser.add_argument("--after", type=float, default=0.1, help="seconds of checks after it")
    args = parser.parse_args()

    a = connection(args.a)
    totals = {"checks": 0, "after": 0, "stale": 0, "before": 0}
    delays = []
    for _ in range(args.rounds):
        checks, after, stale, delay, before = round_trip(args, a)
        totals["checks"] += checks
        totals["after"] += after
        totals["stale"] += stale
        totals["before"] += before
        delays.append(delay)
    delays.sort()
    p50 = delays[len(delays) // 2]
    print(
        f"RESULT rounds={args.rounds} checks={totals['checks']} let_in_before_logout={totals['before']} "
        f"checks_after_logout={totals['after']} stale={totals['stale']} "
        f"delay_p50_ms={p50:.2f} delay_max_ms={delays[-1]:.2f}"
    )


if __name__ == "__main__":
    main()
