import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { clientDir } from './app-server.mjs';

export const artifactsDir = path.join(clientDir, 'e2e', 'artifacts');

/** Debian's Chromium; never a Playwright browser download. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

const fileName = (name) => `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}.png`;

export async function screenshot(page, name) {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, fileName(name));
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Runs `fn` with a fresh context and page; on failure a full-page screenshot named after the
 * test is kept in e2e/artifacts/ before the error is rethrown. `colorScheme` is the system
 * setting the page sees (prefers-color-scheme), which a visitor's theme follows.
 */
export async function withPage(browser, baseURL, name, fn, { viewport = DESKTOP, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ baseURL, viewport, colorScheme });
  const page = await context.newPage();
  // A prerendered page is on screen before the app has taken it over, and a button does
  // nothing until then; a test, like a person, waits for the page to be live (the app sets
  // `tsAppReady`) before it acts. `waitUntil: 'commit'` opts out, to act on the bare HTML.
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await untilAppReady(page);
    return response;
  };
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  try {
    await fn(page);
    if (pageErrors.length > 0) throw pageErrors[0];
  } catch (error) {
    try {
      const file = await screenshot(page, `failure-${name}`);
      console.error(`Screenshot of the failure: ${file}`);
    } catch {
      // The page may already be gone; the original error matters more.
    }
    throw error;
  } finally {
    await context.close();
  }
}

/** Waits until the app has the page (no-op for a page that is not the app). */
export async function untilAppReady(page) {
  // A page of the app that never says it is ready is a failure, not something to wait past.
  await page.waitForFunction(() => !document.getElementById('root') || window.tsAppReady === true, null, { timeout: 10_000 });
}

/**
 * The toast that reads exactly `text`. A spec text can also stand elsewhere on the page (a
 * field's error, a heading): only the toast counts here.
 */
export const toast = (page, text) => page.locator('.Toastify').getByText(text, { exact: true });

/** The axe rules a theme can change the outcome of: colours only. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Which axe rules a page scanned in each theme needs in `theme`: all of them in the first
 * (light), and in the other only those of colour: names, roles, landmarks and labels are the
 * same DOM in both themes, and scanning them again cost a second or two of a slow machine per
 * page.
 */
export const axeRulesFor = (theme) => ({ colorsOnly: theme !== 'light' });

/**
 * The serious violations of a page in both themes, from one page load: every rule in the light
 * theme, then, once the system setting is dark (the site follows it live), the colour rules
 * (`axeRulesFor`); the page is back in light at the end. Each violation names its theme.
 */
export async function seriousA11yViolationsInEitherTheme(page) {
  const showIn = async (theme) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((expected) => document.documentElement.dataset.theme === expected, theme);
  };
  const found = [];
  for (const theme of ['light', 'dark']) {
    await showIn(theme);
    for (const violation of await seriousA11yViolations(page, axeRulesFor(theme))) found.push({ theme, ...violation });
  }
  await showIn('light');
  return found;
}

/**
 * axe-core on the whole page; returns only serious and critical violations. It waits for
 * running animations (a toast sliding in) to finish first: half-faded text is measured as
 * low contrast, which says nothing about the page as a person reads it. `colorsOnly` runs the
 * colour rules alone (see `axeRulesFor`).
 */
export async function seriousA11yViolations(page, { colorsOnly = false } = {}) {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || String(a.effect?.target?.className).includes('progress-bar')),
      null,
      { timeout: 5000 },
    )
    .catch(() => {});
  // Legacy mode runs `axe.run` in the page itself. The default runs `axe.runPartial` in every
  // frame, then `axe.finishRun` in a blank page it opens for the purpose, injecting axe-core's
  // 580 kB three times. Only the violations are collected: axe then keeps one node of each
  // passed rule instead of every node, and the results cross to Node as 50 kB instead of
  // 180 kB. A scan of /about on a slow host: 1.7 s by default, 0.6 s in legacy mode, 0.45 s
  // with violations only, with the same violations found. What legacy mode leaves out is
  // cross-origin frames, and the site has no frames.
  const builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
  if (colorsOnly) builder.withRules(COLOUR_RULES);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}
