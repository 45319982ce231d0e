// Prerenders the site (after `vite build` and `vite build --ssr src/entry-server.tsx`): each
// page of PAGES becomes dist/pages/<file> — the built index.html with the page's markup in
// #root, its title, description and canonical link — and dist/pages/manifest.json tells the
// server (api/src/http/site.rs) which file answers which path.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const out = path.join(dist, 'pages');
const { render, PAGES, NOT_FOUND, PLACEHOLDERS } = await import(pathToFileURL(path.join(root, '.ssr', 'entry-server.js')).href);

const escapeHtml = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
const TITLE = /<title>[^<]*<\/title>/;
const DESCRIPTION = /<meta name="description" content="[^"]*" \/>/;
const ROOT = '<div id="root"></div>';
for (const [what, pattern] of [['title', TITLE], ['description', DESCRIPTION], ['root', ROOT]]) {
  if (!template.match(pattern)) throw new Error(`dist/index.html has no ${what} to fill`);
}

async function page(renderPath, { canonical }) {
  const { html, title, description } = await render(renderPath);
  if (/<script/i.test(html)) throw new Error(`${renderPath}: the markup holds a script, which the CSP would block`);
  const head = [
    `<title>${escapeHtml(title)}</title>`,
    canonical === null
      ? '<meta name="robots" content="noindex" />'
      : `<link rel="canonical" href="${PLACEHOLDERS.main}${canonical}" />`,
  ].join('\n    ');
  return template
    .replace(TITLE, () => head)
    .replace(DESCRIPTION, () => `<meta name="description" content="${escapeHtml(description)}" />`)
    .replace(ROOT, () => `<div id="root" data-prerendered>${html}</div>`);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const routes = {};
for (const { path: route, file, indexed } of PAGES) {
  const renderPath = route.replace(/:[a-z]+/gi, 'x');
  writeFileSync(path.join(out, file), await page(renderPath, { canonical: indexed ? (route === '/' ? '/' : route) : null }));
  routes[route] = file;
}
writeFileSync(path.join(out, NOT_FOUND.file), await page(NOT_FOUND.path, { canonical: null }));
writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify({ routes, notFound: NOT_FOUND.file }, null, 2)}\n`);
console.log(`prerendered ${Object.keys(routes).length + 1} pages into ${path.relative(root, out)}/`);
