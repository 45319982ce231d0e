// The peer of bench/token.sh: panva's oidc-provider (the version pinned in package.json),
// configured to do what our token endpoint does, so the two can be loaded side by side.
//
//   PORT=18201 KEY_PEM=key.pem KID=bench [ALG=EdDSA] CLIENT_ID=… CLIENT_SECRET=… REDIRECT_URI=… node server.mjs
//
// What is the same as ours (api/src/oidc/): a confidential client authenticated with
// client_secret_basic, the code flow with PKCE S256 (required), scopes `openid email profile`,
// ID tokens signed RS256 (or EdDSA with ALG=EdDSA) with the very key our server signs with
// (KEY_PEM, the PEM bench/token.sh generated and gave our server, exported here as a JWK with
// the same kid), the same claims in the ID token (sub, email, email_verified, name,
// talent_role, sid, nonce, auth_time), opaque access and refresh tokens stored server side,
// refresh tokens issued with every code and rotated on every use, the same lifetimes (code
// 60 s, access and ID token 10 min, refresh 30 days), refresh tokens tied to the sign-in
// (session) they came from.
//
// What favours the peer, on purpose and said here so nobody reads the ratio wrongly:
// - Storage is a JavaScript Map in this process (the adapter below). Ours writes every code
//   and token to SQLite or PostgreSQL and reads the session and account back per request.
//   A real deployment of oidc-provider needs a shared adapter (Redis, PostgreSQL, …), and
//   pays its round trips.
// - Accounts are a constant table in memory (findAccount); ours joins the session and the
//   account from the database on every exchange (a suspended account must stop refreshing).
// - It is one Node process (one core): the in-memory store cannot be shared by a cluster.
//   Ours uses both cores of the machine (which it shares with wrk and PostgreSQL); the bench
//   prints the CPU each answer cost, which does not depend on how many cores a side used.
// - Its ID tokens carry no at_hash or c_hash (OpenID Connect makes them optional at the token
//   endpoint); ours hashes the access token and the code into every ID token (two SHA-256).
// Against it: every code and token of the run stays in this process's heap (1.4 GB by the
// end of a full run), so V8's major collections pause the one thread and show in its p99.
// oidc-provider 9 asks for Node 22 or later and warns on Node 20 (this machine's); it runs.
//
// Sign-in: oidc-provider leaves the login screen to the application (its "interactions").
// This server's interaction logs in the account named by the authorization request's
// login_hint and grants the requested scopes, with the documented interactionDetails /
// Grant / interactionFinished calls; no form. After that one interaction per account, every
// authorization code bench/token.sh uses comes from the real authorize endpoint (/auth)
// with the session cookie, as ours come from /oauth2/authorize with a session.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

import Provider from 'oidc-provider';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable: ${name}`);
  return value;
};
const port = Number(env('PORT'));
const issuer = `http://127.0.0.1:${port}`;

// Our server's key (RSA as PKCS#1 PEM, Ed25519 as PKCS#8) as a private JWK, with our kid and
// our algorithm.
const alg = process.env.ALG || 'RS256';
const jwk = {
  ...createPrivateKey(readFileSync(env('KEY_PEM'), 'utf8')).export({ format: 'jwk' }),
  kid: env('KID'),
  alg,
  use: 'sig',
};

// An unbounded Map adapter with the interface of oidc-provider's adapters (upsert, find,
// findByUid, findByUserCode, consume, destroy, revokeByGrantId). The library's own default
// memory adapter keeps at most 1,000 entries (an LRU), which would evict the codes and refresh
// tokens minted before a run, and re-scans a grant's whole token list on every save; this one
// keeps everything and indexes grants in O(1). It is the fastest storage the peer could have.
const store = new Map(); // `${model}:${id}` -> { payload, expiresAt }
const byUid = new Map(); // session uid -> session id
const byUserCode = new Map();
const grants = new Map(); // grantId -> Set of keys
const grantable = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode',
  'BackchannelAuthenticationRequest']);
class MapAdapter {
  constructor(model) { this.model = model; }

  key(id) { return `${this.model}:${id}`; }

  async upsert(id, payload, expiresIn) {
    const key = this.key(id);
    const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
    store.set(key, { payload, expiresAt });
    if (this.model === 'Session') byUid.set(payload.uid, id);
    if (payload.userCode) byUserCode.set(payload.userCode, id);
    if (grantable.has(this.model) && payload.grantId) {
      let members = grants.get(payload.grantId);
      if (!members) grants.set(payload.grantId, (members = new Set()));
      members.add(key);
    }
  }

  async find(id) {
    const entry = store.get(this.key(id));
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(this.key(id));
      return undefined;
    }
    return entry.payload;
  }

  async findByUid(uid) { return byUid.has(uid) ? this.find(byUid.get(uid)) : undefined; }

  async findByUserCode(code) { return byUserCode.has(code) ? this.find(byUserCode.get(code)) : undefined; }

  async consume(id) {
    const entry = store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id) {
    const key = this.key(id);
    const entry = store.get(key);
    store.delete(key);
    if (entry?.payload.grantId) grants.get(entry.payload.grantId)?.delete(key);
  }

  async revokeByGrantId(grantId) {
    for (const key of grants.get(grantId) ?? []) store.delete(key);
    grants.delete(grantId);
  }
}

// The accounts bench/token.sh signs in (login_hint), with the claims ours puts in its ID
// token for `openid email profile`.
const account = (id) => ({
  accountId: id,
  async claims() {
    return {
      sub: id,
      email: `${id}@bench.example.com`,
      email_verified: true,
      name: 'Bench',
      talent_role: 'career',
    };
  },
});

const provider = new Provider(issuer, {
  adapter: MapAdapter,
  clients: [{
    client_id: env('CLIENT_ID'),
    client_secret: env('CLIENT_SECRET'),
    redirect_uris: [env('REDIRECT_URI')],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: alg,
    // Ours always puts auth_time and sid (for back-channel logout, which it offers) in the ID
    // token; oidc-provider does when the client asks for them like this.
    require_auth_time: true,
    backchannel_logout_uri: 'http://127.0.0.1:9/backchannel-logout',
    backchannel_logout_session_required: true,
  }],
  jwks: { keys: [jwk] },
  enabledJwsAlgorithms: [alg],
  findAccount: (ctx, sub) => account(sub),
  claims: {
    openid: ['sub', 'talent_role'],
    email: ['email', 'email_verified'],
    profile: ['name'],
  },
  // The scope's claims in the ID token itself, as ours does (the default keeps them for
  // userinfo only when an access token is issued, which would make the peer's tokens smaller).
  conformIdTokenClaims: false,
  // Ours issues a refresh token with every code (no offline_access) and rotates it on every
  // use; the defaults would issue none without offline_access and rotate only late.
  issueRefreshToken: (ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: true,
  pkce: { required: () => true },
  ttl: {
    AuthorizationCode: 60,
    AccessToken: 600,
    IdToken: 600,
    RefreshToken: 30 * 24 * 60 * 60,
    Grant: 30 * 24 * 60 * 60,
    Session: 30 * 24 * 60 * 60,
    Interaction: 60 * 60,
  },
  cookies: { keys: ['bench-cookie-key-bench-cookie-key'] },
  features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
});

const callback = provider.callback();
http.createServer(async (req, res) => {
  if (req.url === '/healthz') {
    res.end('ok');
    return;
  }
  if (req.method === 'GET' && req.url.startsWith('/interaction/')) {
    // The sign-in stand-in: the account of login_hint, the requested scopes granted.
    try {
      const { params } = await provider.interactionDetails(req, res);
      const accountId = String(params.login_hint || 'user-1');
      const grant = new provider.Grant({ accountId, clientId: params.client_id });
      grant.addOIDCScope(params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false });
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
    return;
  }
  callback(req, res);
}).listen(port, '127.0.0.1');
