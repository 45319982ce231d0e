"""A platform site (Hire, Campus, Career or a partner) that signs people in through
Talent Suite with Authlib, a maintained OpenID Connect client for Python.

    python3 -m venv .venv && .venv/bin/pip install -r requirements.txt
    TALENT_ISSUER=http://localhost:8080 CLIENT_ID=… CLIENT_SECRET=… \
        BASE_URL=http://localhost:5000 .venv/bin/python app.py

Register it first (see docs/sso.md):

    cargo run -p api -- oauth-client create --name "Python platform" \
        --redirect-uri http://localhost:5000/callback \
        --post-logout-redirect-uri http://localhost:5000/ --first-party
"""

import os
import secrets
from urllib.parse import urlencode

from authlib.integrations.flask_client import OAuth
from flask import Flask, redirect, session, url_for
from markupsafe import escape

ISSUER = os.environ["TALENT_ISSUER"].rstrip("/")
BASE_URL = os.environ.get("BASE_URL", "http://localhost:5000").rstrip("/")

app = Flask(__name__)
app.secret_key = os.environ.get("SESSION_SECRET") or secrets.token_hex(32)

oauth = OAuth(app)
oauth.register(
    "talent",
    client_id=os.environ["CLIENT_ID"],
    client_secret=os.environ.get("CLIENT_SECRET"),
    # Discovery gives every endpoint and the signing keys.
    server_metadata_url=f"{ISSUER}/.well-known/openid-configuration",
    # PKCE S256 is required by Talent Suite; Authlib adds state and nonce itself.
    client_kwargs={"scope": "openid email profile", "code_challenge_method": "S256"},
)


@app.get("/")
def home():
    user = session.get("user")
    if user:
        return (
            f"<h1>Signed in as {escape(user['name'])} ({escape(user['email'])}), "
            f"role {escape(user.get('talent_role', ''))}</h1><a href='/logout'>Sign out</a>"
        )
    return "<a href='/login'>Sign in with Talent Suite</a>"


@app.get("/login")
def login():
    return oauth.talent.authorize_redirect(f"{BASE_URL}/callback")


@app.get("/callback")
def callback():
    # Exchanges the code (with the PKCE verifier), validates the ID token against the
    # published JWKS, its issuer, audience, expiry and nonce.
    token = oauth.talent.authorize_access_token()
    claims = token["userinfo"]
    profile = oauth.talent.userinfo(token=token)
    session["user"] = {**claims, **profile}
    session["id_token"] = token["id_token"]
    return redirect(url_for("home"))


@app.get("/logout")
def logout():
    id_token = session.pop("id_token", "")
    session.clear()
    metadata = oauth.talent.load_server_metadata()
    query = urlencode({"id_token_hint": id_token, "post_logout_redirect_uri": f"{BASE_URL}/"})
    return redirect(f"{metadata['end_session_endpoint']}?{query}")


if __name__ == "__main__":
    app.run(port=int(BASE_URL.rsplit(":", 1)[-1]) if BASE_URL.count(":") > 1 else 5000)
