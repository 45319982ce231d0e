// A stand-in platform site (Hire, Campus, Career or a partner) that signs people in through
// Talent Suite with openid-client, the certified OpenID Connect library for Node: discovery,
// code + PKCE, state and nonce, the ID token checked against the provider's keys, userinfo,
// RP-initiated logout and a back-channel logout endpoint. docs/sso.md shows it as the Node
// example; the browser tests run it against the real server.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import * as oidc from 'openid-client';

const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function cookie(request, name) {
  const pair = (request.headers.cookie ?? '').split(';').map((c) => c.trim().split('=')).find(([key]) => key === name);
  return pair?.[1];
}

/**
 * Starts the platform on a free port. `register(baseURL)` must register it with the provider
 * (redirect URI `${baseURL}/callback`, post-logout `${baseURL}/`, back-channel
 * `${baseURL}/backchannel`) and resolve to { clientId, clientSecret }.
 */
export async function startPlatform({ name, issuer, register }) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${server.address().port}`;
  const { clientId, clientSecret } = await register(baseURL);
  // http is for this test machine only; a real platform talks to https://.
  const config = await oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });

  const pending = new Map(); // state -> { verifier, nonce }
  const sessions = new Map(); // our session id -> { claims, idToken }
  const loggedOut = []; // logout tokens received by back-channel (the JWTs, unverified)
  // Cookies do not keep ports apart: each stand-in on 127.0.0.1 needs its own cookie name.
  const sessionCookie = `${name.toLowerCase().replace(/\W+/g, '_')}_session`;

  server.on('request', async (request, response) => {
    const url = new URL(request.url, baseURL);
    const send = (status, html, headers = {}) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      response.end(html);
    };
    try {
      const sid = cookie(request, sessionCookie);
      const session = sid ? sessions.get(sid) : undefined;
      if (url.pathname === '/') {
        if (session) {
          const { claims } = session;
          return send(200, page(name, `<p>Signed in as ${escapeHtml(claims.name)} (${escapeHtml(claims.email)}), role ${escapeHtml(claims.talent_role)}</p><a href="/logout">Sign out</a>`));
        }
        return send(200, page(name, '<a href="/login">Sign in with Talent Suite</a>'));
      }
      if (url.pathname === '/login') {
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        pending.set(state, { verifier, nonce });
        const target = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${baseURL}/callback`,
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        return send(302, '', { location: target.href });
      }
      if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const expected = pending.get(state);
        pending.delete(state);
        if (!expected) return send(400, page(name, '<p>Unknown sign-in attempt</p>'));
        const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: expected.verifier, expectedState: state, expectedNonce: expected.nonce });
        const claims = tokens.claims();
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        const id = randomBytes(16).toString('hex');
        sessions.set(id, { claims: { ...claims, ...info }, idToken: tokens.id_token });
        return send(302, '', { location: '/', 'set-cookie': `${sessionCookie}=${id}; Path=/; HttpOnly; SameSite=Lax` });
      }
      if (url.pathname === '/logout') {
        if (sid) sessions.delete(sid);
        const target = oidc.buildEndSessionUrl(config, { id_token_hint: session?.idToken ?? '', post_logout_redirect_uri: `${baseURL}/` });
        return send(302, '', { location: target.href, 'set-cookie': `${sessionCookie}=; Path=/; Max-Age=0` });
      }
      if (url.pathname === '/backchannel' && request.method === 'POST') {
        let body = '';
        for await (const chunk of request) body += chunk;
        const token = new URLSearchParams(body).get('logout_token');
        // OpenID Connect Back-Channel Logout 1.0 section 2.8: a request without a logout token is refused.
        if (!token) {
          response.writeHead(400);
          return response.end();
        }
        loggedOut.push(token);
        response.writeHead(200);
        return response.end();
      }
      return send(404, page(name, '<p>Not found</p>'));
    } catch (error) {
      return send(500, page(name, `<p role="alert">Sign-in failed: ${escapeHtml(error.message)}</p>`));
    }
  });

  return { baseURL, clientId, loggedOut, stop: () => new Promise((resolve) => server.close(resolve)) };
}
