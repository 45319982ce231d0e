// Stand-in identity providers for the e2e tests, on 127.0.0.1.
//
// startFakeIdp, OpenID Connect (Google): /authorize redirects straight back to redirect_uri
// with a code and the state; /token trades the code for an RS256-signed ID token carrying the
// nonce of the authorize request; /jwks publishes the public key.
//
// startFakeGitHub, GitHub's OAuth 2.0 and REST API: /login/oauth/authorize redirects back the
// same way; /login/oauth/access_token (a form POST) answers an access token, as JSON when asked
// to (Accept: application/json) and form-encoded otherwise, checking the PKCE verifier when the
// authorize request had a challenge; /user and /user/emails answer for that token's person, and
// refuse a call without a User-Agent, as GitHub's API does.
//
// On both, `nextIdentity` decides who "signs in" next.
import { createHash, createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';

const base64url = (value) => Buffer.from(value).toString('base64url');

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

/** Redirects an authorize request back to its redirect_uri with a new code and its state; null when the request is not for `clientId`. */
function redirectWithCode(url, res, clientId) {
  const redirectUri = url.searchParams.get('redirect_uri');
  if (!redirectUri || url.searchParams.get('client_id') !== clientId) {
    res.writeHead(400).end('bad authorize request');
    return null;
  }
  const code = randomUUID();
  const back = new URL(redirectUri);
  back.searchParams.set('code', code);
  back.searchParams.set('state', url.searchParams.get('state') ?? '');
  res.writeHead(302, { Location: back.href }).end();
  return code;
}

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

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

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, idp.origin);
    requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    if (url.pathname === '/authorize') {
      const code = redirectWithCode(url, res, clientId);
      if (code) codes.set(code, { nonce: url.searchParams.get('nonce'), identity: { ...idp.nextIdentity } });
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

  idp.origin = await listen(server);
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

/**
 * A stand-in for GitHub's OAuth app flow and the two API calls a sign-in needs. `nextIdentity`
 * is GitHub's user (`id`, `login`, `name`) with the `email` it lists as primary and verified.
 */
export async function startFakeGitHub({ clientId, clientSecret }) {
  const codes = new Map();
  const tokens = new Map();
  const requests = [];
  const github = {
    origin: '',
    requests,
    nextIdentity: { id: 4242, login: 'octocat', name: 'Octo Cat', email: 'octo@example.com' },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };

  /** The person an API call's `Authorization: Bearer|token …` header stands for. */
  const personOf = (req) => tokens.get(/^(?:bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1]);

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, github.origin);
    requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    if (url.pathname === '/login/oauth/authorize' && req.method === 'GET') {
      const code = redirectWithCode(url, res, clientId);
      if (code) codes.set(code, { identity: { ...github.nextIdentity }, challenge: url.searchParams.get('code_challenge') });
      return;
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      requests.at(-1).body = Object.fromEntries(form);
      // The client's credentials come in the form or as HTTP Basic, as GitHub takes either.
      const basic = /^basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [];
      const entry = codes.get(form.get('code'));
      const verifier = form.get('code_verifier');
      const pkceOk = !entry?.challenge || (verifier !== null && createHash('sha256').update(verifier).digest('base64url') === entry.challenge);
      const answer = (body) => {
        if (/json/i.test(req.headers.accept ?? '')) json(res, 200, body);
        else res.writeHead(200, { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' }).end(new URLSearchParams(body).toString());
      };
      if ((form.get('client_id') ?? basicId) !== clientId || (form.get('client_secret') ?? basicSecret) !== clientSecret || !entry || !pkceOk) {
        // GitHub answers a bad exchange with 200 and an error body.
        answer({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        return;
      }
      codes.delete(form.get('code'));
      const accessToken = `gho_${randomUUID().replaceAll('-', '')}`;
      tokens.set(accessToken, entry.identity);
      answer({ access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' });
      return;
    }
    if ((url.pathname === '/user' || url.pathname === '/user/emails') && req.method === 'GET') {
      if (!req.headers['user-agent']) {
        json(res, 403, { message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.' });
        return;
      }
      const person = personOf(req);
      if (!person) {
        json(res, 401, { message: 'Requires authentication' });
        return;
      }
      if (url.pathname === '/user') json(res, 200, { id: person.id, login: person.login, name: person.name });
      else json(res, 200, [{ email: person.email, primary: true, verified: true, visibility: 'private' }]);
      return;
    }
    res.writeHead(404).end('not found');
  });

  github.origin = await listen(server);
  return github;
}

/** The server settings that point its GitHub flow at this stand-in. */
export const githubEnv = (github, { clientId, clientSecret }) => ({
  GITHUB_CLIENT_ID: clientId,
  GITHUB_CLIENT_SECRET: clientSecret,
  GITHUB_AUTH_URL: `${github.origin}/login/oauth/authorize`,
  GITHUB_TOKEN_URL: `${github.origin}/login/oauth/access_token`,
  GITHUB_API_URL: github.origin,
});
