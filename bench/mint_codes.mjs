// Codes and refresh tokens for bench/token.sh, each from a real authorize request (Node's
// standard library only).
//
//   node bench/mint_codes.mjs codes   BASE AUTH_PATH TOKEN_PATH CLIENT_ID REDIRECT_URI SESSIONS COUNT        > bodies
//   node bench/mint_codes.mjs refresh BASE AUTH_PATH TOKEN_PATH CLIENT_ID REDIRECT_URI SESSIONS COUNT BASIC  > bodies
//
// SESSIONS is a file of header lines ("authorization: Bearer ..." or "cookie: ..."), one a
// session; the requests go round them. Output: one token-request form body a line, in the order
// the codes were issued (codes: with the PKCE verifier of that code's own challenge).
//
// Written in Node rather than Python because a pool must be minted well inside a code's 60 s
// lifetime, and the minter shares the two cores with the server: Python's eight threads took
// 56 s for a pool of 140,000 codes on a fast host, while Node mints 3,000 codes a second on a
// slow one with under half a core, the server's authorize endpoint taking the rest.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const IN_FLIGHT = 16;

const [what, base, authPath, tokenPath, clientId, redirectUri, sessionsFile, countText, basic] =
  process.argv.slice(2);
if (!['codes', 'refresh'].includes(what) || !countText || (what === 'refresh' && !basic)) {
  console.error('usage: mint_codes.mjs codes|refresh BASE AUTH_PATH TOKEN_PATH CLIENT_ID REDIRECT_URI SESSIONS COUNT [BASIC]');
  process.exit(2);
}
const count = Number(countText);
const sessions = readFileSync(sessionsFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const { hostname, port } = new URL(base);

const token = (bytes) => randomBytes(bytes).toString('base64url');

function send(method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, hostname, port, method, path, headers }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode, headers: answer.headers, text: Buffer.concat(chunks).toString() }));
      answer.on('error', reject);
    });
    request.setTimeout(60_000, () => request.destroy(new Error(`${method} ${path} timed out`)));
    request.on('error', reject);
    request.end(body);
  });
}

async function mintOne(n) {
  const verifier = token(36);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: redirectUri,
    scope: 'openid email profile', state: token(9), nonce: token(9),
    code_challenge: challenge, code_challenge_method: 'S256',
  });
  const [name, value] = sessions[n % sessions.length];
  const authorized = await send('GET', `${authPath}?${query}`, { [name]: value });
  if (authorized.status !== 302 && authorized.status !== 303) {
    throw new Error(`the authorize endpoint answered ${authorized.status}: ${authorized.text.slice(0, 300)}`);
  }
  const code = new URL(authorized.headers.location ?? '', base).searchParams.get('code');
  if (!code) throw new Error(`the authorize endpoint answered no code: ${(authorized.headers.location ?? '').slice(0, 300)}`);
  const exchange = new URLSearchParams({
    grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier,
  }).toString();
  if (what === 'codes') return exchange;
  const answer = await send('POST', tokenPath, {
    authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded',
  }, exchange);
  if (answer.status !== 200) throw new Error(`the token endpoint answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return new URLSearchParams({ grant_type: 'refresh_token', refresh_token: JSON.parse(answer.text).refresh_token }).toString();
}

// IN_FLIGHT workers take the next index in turn, so the output's order is the order of issue
// to within IN_FLIGHT codes.
const out = new Array(count);
let next = 0;
async function worker() {
  while (next < count) {
    const n = next++;
    out[n] = await mintOne(n);
  }
}
try {
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
} catch (err) {
  console.error(`mint: ${err.message}`);
  process.exit(1);
}
agent.destroy();
process.stdout.write(out.join('\n') + '\n');
