// The JavaScript budget of issue 10: the scripts the home page loads (its entry and every
// module it preloads) stay within 100 KiB gzip. Run by `npm run build`, after the prerender,
// so a change that outgrows it fails the build instead of shipping.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const BUDGET_KIB = 100;
const dist = path.resolve(import.meta.dirname, '..', 'dist');
const html = readFileSync(path.join(dist, 'pages', 'home.html'), 'utf8');
const scripts = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map(([, file]) => file))];
let gzip = 0;
let brotli = 0;
for (const file of scripts) {
  const code = readFileSync(path.join(dist, file));
  gzip += gzipSync(code, { level: 9 }).length;
  brotli += brotliCompressSync(code).length;
}
const kib = (bytes) => (bytes / 1024).toFixed(1);
console.log(`JavaScript for /: ${kib(gzip)} KiB gzip (${kib(brotli)} KiB brotli, as sent) in ${scripts.length} files; budget ${BUDGET_KIB} KiB gzip`);
if (gzip > BUDGET_KIB * 1024) {
  console.error(`Over budget by ${kib(gzip - BUDGET_KIB * 1024)} KiB: load something on demand (see src/app/routes.tsx) instead.`);
  process.exit(1);
}
