// A stand-in OpenID Connect identity provider for the Google e2e tests, on 127.0.0.1:
// /authorize redirects straight back to redirect_uri with a code and the state; /token trades
// the code for an RS256-signed ID token carrying the nonce of the authorize request; /jwks
// publishes the public key. `nextIdentity` decides who "signs in" next.
import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';

const base64url = (value) => Buffer.from(value).toString('base64url');

export async function startFakeIdp({ clientId }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `e2e-${randomUUID().slice(0, 8)}`;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map();
  const requests = [];
  const idp = {
    origin: '',
    requests,
    nextIdentity: { sub: 'google-sub-1', email: 'someone@example.com', name: 'Someone' },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };

  const sign = (claims) => {
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
    const payload = base64url(JSON.stringify(claims));
    const signer = createSign('RSA-SHA256');
    signer.update(`${header}.${payload}`);
    return `${header}.${payload}.${signer.sign(privateKey).toString('base64url')}`;
  };

  const readBody = (req) =>
    new Promise((resolve) => {
      let data = '';
      req.on('data', (chunk) => {
        data += chunk;
      });
      req.on('end', () => resolve(data));
    });

  const json = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, idp.origin);
    requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    if (url.pathname === '/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri');
      if (!redirectUri || url.searchParams.get('client_id') !== clientId) {
        res.writeHead(400).end('bad authorize request');
        return;
      }
      const code = randomUUID();
      codes.set(code, { nonce: url.searchParams.get('nonce'), identity: { ...idp.nextIdentity } });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { Location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      requests.at(-1).body = Object.fromEntries(form);
      const entry = codes.get(form.get('code'));
      if (!entry) {
        json(res, 400, { error: 'invalid_grant' });
        return;
      }
      codes.delete(form.get('code'));
      const now = Math.floor(Date.now() / 1000);
      const idToken = sign({
        iss: idp.origin,
        aud: clientId,
        sub: entry.identity.sub,
        email: entry.identity.email,
        email_verified: true,
        name: entry.identity.name,
        nonce: entry.nonce,
        iat: now,
        exp: now + 600,
      });
      json(res, 200, { access_token: randomUUID(), token_type: 'Bearer', expires_in: 600, id_token: idToken });
      return;
    }
    if (url.pathname === '/jwks') {
      json(res, 200, { keys: [jwk] });
      return;
    }
    res.writeHead(404).end('not found');
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  idp.origin = `http://127.0.0.1:${server.address().port}`;
  return idp;
}

/** The server settings that point its Google flow at this stand-in. */
export const googleEnv = (idp, clientId) => ({
  GOOGLE_CLIENT_ID: clientId,
  GOOGLE_CLIENT_SECRET: 'e2e-secret',
  GOOGLE_ISSUER: idp.origin,
  GOOGLE_AUTH_URL: `${idp.origin}/authorize`,
  GOOGLE_TOKEN_URL: `${idp.origin}/token`,
  GOOGLE_JWKS_URL: `${idp.origin}/jwks`,
});
