// Starts the site for the end-to-end suite.
//
// The real run spawns the Rust server binary (API_BIN, default ../target/debug/api relative to
// client/) serving the built client from client/dist against a fresh SQLite file, and waits for
// GET /healthz. E2E_PREVIEW=1 is a developer convenience for working on the client before the
// server binary exists: it serves client/dist with `vite preview` instead (the config plugin in
// vite.config.ts writes the runtime configuration into index.html, like the server does, and
// /api calls fail, so the header shows the signed-out state). CI must not set E2E_PREVIEW.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoRoot = path.resolve(clientDir, '..');
export const distDir = path.join(clientDir, 'dist');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForOk(url, child, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The app process exited with code ${child.exitCode} before ${url} answered.\n${output.join('')}`);
    }
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${url}.\n${output.join('')}`);
}

// The platforms are origins of their own (the server refuses anything else). Chromium resolves
// every *.localhost name to this machine, so a link to a platform still reaches this server.
function platformUrls(baseURL) {
  const { port } = new URL(baseURL);
  return {
    main: baseURL,
    hire: `http://hire.localhost:${port}`,
    campus: `http://campus.localhost:${port}`,
    career: `http://career.localhost:${port}`,
  };
}

function spawnServer(port, baseURL, extraEnv) {
  const binary = path.resolve(clientDir, process.env.API_BIN ?? '../target/debug/api');
  if (!existsSync(binary)) {
    throw new Error(
      `Server binary not found at ${binary}. Build it first (cargo build -p api) or point API_BIN at it. ` +
        'For client-only work before the server exists, run with E2E_PREVIEW=1.',
    );
  }
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'talent-suite-e2e-'));
  const urls = platformUrls(baseURL);
  const serverEnv = {
      ...process.env,
      APP_ENV: 'local',
      // The loopback address, whatever name the site is served under (startApp's `host`).
      BIND_ADDR: `127.0.0.1:${port}`,
      DATABASE_URL: `sqlite://${path.join(tmpDir, 'e2e.db')}?mode=rwc`,
      JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-1234',
      CLIENT_DIST_DIR: distDir,
      MAIN_PLATFORM_URL: urls.main,
      HIRE_PLATFORM_URL: urls.hire,
      CAMPUS_PLATFORM_URL: urls.campus,
      CAREER_PLATFORM_URL: urls.career,
      ...extraEnv,
  };
  const child = spawn(binary, [], { cwd: repoRoot, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, binary, serverEnv, healthUrl: `http://127.0.0.1:${port}/healthz`, cleanup: () => rmSync(tmpDir, { recursive: true, force: true }) };
}

function spawnPreview(port, baseURL) {
  const urls = platformUrls(baseURL);
  const viteBin = path.join(clientDir, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [viteBin, 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: clientDir,
    env: {
      ...process.env,
      VITE_ENV: 'local',
      VITE_MAIN_PLATFORM_URL: urls.main,
      VITE_HIRE_PLATFORM_URL: urls.hire,
      VITE_CAMPUS_PLATFORM_URL: urls.campus,
      VITE_CAREER_PLATFORM_URL: urls.career,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, healthUrl: `${baseURL}/`, cleanup: () => {} };
}

/**
 * Starts the app and resolves to { baseURL, mode, platformUrls, stop }. `env` adds server
 * settings (e.g. the GOOGLE_* URLs of the stand-in identity provider). `host: 'localhost'`
 * serves the site as http://localhost:<port> (baseURL and MAIN_PLATFORM_URL) while the server
 * still binds 127.0.0.1: WebAuthn needs a host name for its relying party id, never an IP.
 */
export async function startApp({ env = {}, host = '127.0.0.1' } = {}) {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`No built client at ${distDir}. Run \`npm run build\` before \`npm run e2e\`.`);
  }
  const port = await freePort();
  const baseURL = `http://${host}:${port}`;
  if (process.env.E2E_PREVIEW === '1' && process.env.CI) {
    // Preview mode skips five of the seven suites: under CI that would pass as a no-op.
    throw new Error('E2E_PREVIEW=1 is refused under CI: the browser suite runs against the real server');
  }
  const mode = process.env.E2E_PREVIEW === '1' ? 'preview' : 'server';
  const { child, binary, serverEnv, healthUrl, cleanup } = mode === 'preview' ? spawnPreview(port, baseURL) : spawnServer(port, baseURL, env);

  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    cleanup();
  };

  try {
    await waitForOk(healthUrl, child, output, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  /** Runs the server binary's CLI against this app's database (e.g. `create-admin`); returns its output. */
  const cli = (args, extraEnv = {}) =>
    execFileSync(binary, args, { cwd: repoRoot, env: { ...serverEnv, ...extraEnv }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { baseURL, mode, platformUrls: platformUrls(baseURL), stop, output, cli };
}
