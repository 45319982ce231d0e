#!/usr/bin/env bash
# Lighthouse (mobile, the default emulation) in Debian's Chromium on the five public routes of
# issue 10: performance, accessibility, best practices and SEO, one table row per route.
# Prints figures and asserts nothing.
#   bench/lighthouse.sh                        # builds and starts its own release server
#   BASE=http://127.0.0.1:18080 bench/lighthouse.sh   # against a running server
#   BUILD=0 bench/lighthouse.sh                # no cargo build: the release server as built
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUTES=(${ROUTES:-/ /login /register /platforms/hire /about})
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

[ -x "$CHROMIUM" ] || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
[ -x bench/lighthouse/node_modules/.bin/lighthouse ] || npm ci --prefix bench/lighthouse --no-audit --no-fund --silent

if [ -z "${BASE:-}" ]; then
  PORT="${PORT:-18090}"
  BASE="http://127.0.0.1:$PORT"
  [ -f client/dist/pages/manifest.json ] || make build-client >/dev/null
  bench_build
  bench_database sqlite lighthouse
  bench_env
  # The site as production serves it: the production mode and its own secret, platforms on
  # https, sealed keys, a mail server, and the per-address limit at its default (an empty
  # RATE_LIMIT_PER_IP is unset to the server, api/src/config.rs).
  bench_serve "$PORT" APP_ENV=production JWT_SECRET=lighthouse-secret-lighthouse-secret-lh \
    HIRE_PLATFORM_URL=https://hire.example.com CAMPUS_PLATFORM_URL=https://campus.example.com \
    CAREER_PLATFORM_URL=https://career.example.com RATE_LIMIT_PER_IP= \
    KEY_ENCRYPTION_KEY="$(openssl rand -hex 32)" SMTP_URL=smtps://127.0.0.1:1 MAIL_FROM="Talent Suite <no-reply@example.com>"
fi

echo "Lighthouse $(node -p "require('./bench/lighthouse/node_modules/lighthouse/package.json').version"), mobile, $("$CHROMIUM" --version 2>/dev/null | head -1), $BASE"
echo
# Lighthouse's own measure of the machine's speed, taken before each run: TBT (30% of the
# performance score) scales with it, and it can move by half within minutes on a shared host.
echo "| route | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | CPU index | below 1 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for route in "${ROUTES[@]}"; do
  CHROME_PATH="$CHROMIUM" bench/lighthouse/node_modules/.bin/lighthouse "$BASE$route" --quiet \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync" \
    --only-categories=performance,accessibility,best-practices,seo \
    --output=json --output-path="$work/report.json" >/dev/null 2>"$work/lighthouse.log" \
    || { echo "| \`$route\` | lighthouse failed: $(tail -1 "$work/lighthouse.log") |"; continue; }
  node - "$work/report.json" "$route" <<'JS'
const report = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const score = (id) => Math.round(report.categories[id].score * 100);
const metric = (id) => report.audits[id].displayValue ?? '—';
// The audits that cost points, so a score below the goal says why.
const failing = Object.values(report.categories).flatMap((category) =>
  category.auditRefs
    .filter((ref) => ref.weight > 0 && report.audits[ref.id].score !== null && report.audits[ref.id].score < 1)
    .map((ref) => ref.id),
);
console.log(`| \`${process.argv[3]}\` | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${metric('first-contentful-paint')} | ${metric('largest-contentful-paint')} | ${metric('total-blocking-time')} | ${metric('cumulative-layout-shift')} | ${Math.round(report.environment.benchmarkIndex)} | ${failing.join(', ') || '—'} |`);
JS
done
echo
echo "goal: ≥ 98 / 100 / 100 / 100 on every route"
