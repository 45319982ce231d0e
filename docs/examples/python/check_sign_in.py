"""Drives app.py the way a browser would, against a running Talent Suite (APP_ENV=local,
mail kept for /dev/mailbox): registers and verifies a person, signs in on Talent Suite, then
signs in to the Python platform through the provider and checks who it says is signed in.
scripts/check-python-example.sh runs it; it exits non-zero on any failure."""

import os
import re
import sys
import uuid

import requests

ISSUER = os.environ["TALENT_ISSUER"].rstrip("/")
PLATFORM = os.environ["BASE_URL"].rstrip("/")
API = f"{ISSUER}/api"

browser = requests.Session()
email = f"py-{uuid.uuid4().hex[:8]}@example.com"
person = {"name": "Pia Python", "email": email, "countryCode": "+91", "phone": "+919876543210", "password": "quietRiver42", "role": "campus"}
assert browser.post(f"{API}/auth/register", json=person).status_code == 201
assert browser.post(f"{API}/auth/send-otp-email", json={"email": email}).status_code == 200
mailbox = requests.get(f"{ISSUER}/dev/mailbox").text
code = re.findall(r"\b(\d{6})\b", mailbox[mailbox.find(email):])[0]
assert browser.post(f"{API}/auth/verify-otp-email", json={"email": email, "otp": code}).status_code == 200

start = browser.get(f"{PLATFORM}/login", allow_redirects=False)
assert start.headers["location"].startswith(f"{ISSUER}/oauth2/authorize?"), start.headers
page = browser.get(start.headers["location"], allow_redirects=True)
expected = f"Signed in as Pia Python ({email}), role campus"
if expected not in page.text:
    sys.exit(f"the platform did not sign the person in: {page.status_code} {page.text[:300]}")
print("Python example: " + expected)
