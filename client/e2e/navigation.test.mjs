// The header's menus in a real browser: the Platforms dropdown by mouse and by keyboard, the
// mobile menu at phone width, and screenshots of the home page for review.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp } from './support/app-server.mjs';
import { DESKTOP, launchBrowser, PHONE, screenshot, seriousA11yViolations, withPage } from './support/browser.mjs';

let app;
let browser;

before(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.stop();
});

const mainNav = (page) => page.getByRole('navigation', { name: 'Main' });
const platformsButton = (page) => mainNav(page).getByRole('button', { name: 'Platforms' });
const panelOf = async (button) => button.page().locator(`[id="${await button.getAttribute('aria-controls')}"]`);
const expanded = async (locator) => (await locator.getAttribute('aria-expanded')) === 'true';

async function waitExpanded(locator, value) {
  await locator.page().waitForFunction(
    ([el, want]) => el.getAttribute('aria-expanded') === want,
    [await locator.elementHandle(), String(value)],
    { timeout: 3000 },
  );
}

describe('Platforms dropdown (desktop)', () => {
  test('opens on hover, lists the three themed platforms and closes after the pointer leaves', async () => {
    await withPage(browser, app.baseURL, 'dropdown mouse', async (page) => {
      await page.goto('/');
      const button = platformsButton(page);
      await button.hover();
      await waitExpanded(button, true);
      const panel = (await panelOf(button));
      for (const [name, href] of [['Hire', '/platforms/hire'], ['Campus', '/platforms/campus'], ['Career', '/platforms/career']]) {
        const link = panel.getByRole('link', { name: new RegExp(`^${name}`) });
        assert.ok(await link.isVisible(), `${name} is listed`);
        assert.equal(await link.getAttribute('href'), href);
      }
      // Moving from the button down into the panel keeps it open.
      await panel.getByRole('link', { name: /^Campus/ }).hover();
      await page.waitForTimeout(400);
      assert.ok(await expanded(button), 'still open while the pointer is over the panel');

      // The close waits a moment after the pointer leaves: both moments are taken in the page
      // (the leaving move's event and the attribute's change), so the gap does not depend on
      // how fast this test process polls.
      await page.evaluate((el) => {
        window.dropdownTimes = {};
        document.addEventListener('pointermove', () => { window.dropdownTimes.leftAt = performance.now(); }, { capture: true });
        new MutationObserver(() => {
          if (el.getAttribute('aria-expanded') === 'false') window.dropdownTimes.closedAt ??= performance.now();
        }).observe(el, { attributes: true, attributeFilter: ['aria-expanded'] });
      }, await button.elementHandle());
      await page.mouse.move(640, 600);
      await waitExpanded(button, false);
      const { leftAt, closedAt } = await page.evaluate(() => window.dropdownTimes);
      assert.ok(typeof leftAt === 'number' && typeof closedAt === 'number', 'both moments were seen');
      assert.ok(closedAt - leftAt >= 150, `not closed at once: ${closedAt - leftAt} ms after the pointer left`);
      assert.ok(closedAt - leftAt < 1000, `closed about 200 ms after the pointer left, not ${closedAt - leftAt} ms`);
      assert.equal(await panel.isVisible(), false);
    });
  });

  test('closes on an outside click and navigates from an item', async () => {
    await withPage(browser, app.baseURL, 'dropdown click', async (page) => {
      await page.goto('/');
      const button = platformsButton(page);
      await button.focus();
      await page.keyboard.press('Enter');
      await waitExpanded(button, true);
      await page.mouse.click(640, 500);
      await waitExpanded(button, false);

      await button.hover();
      await waitExpanded(button, true);
      await (await panelOf(button)).getByRole('link', { name: /^Career/ }).click();
      await page.waitForURL('**/platforms/career');
      await page.getByRole('heading', { level: 1, name: 'Career Platform' }).waitFor();
      await waitExpanded(button, false);
    });
  });

  test('is fully usable by keyboard', async () => {
    await withPage(browser, app.baseURL, 'dropdown keyboard', async (page) => {
      await page.goto('/');
      await page.locator('h1').waitFor();
      await page.locator('header').getByRole('link', { name: 'Sign In' }).first().waitFor({ state: 'attached' });
      // Skip link, brand, then the Platforms button.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Skip to main content');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      const button = platformsButton(page);
      assert.ok(await button.evaluate((el) => el === document.activeElement), 'Platforms button has focus');

      await page.keyboard.press('ArrowDown');
      await waitExpanded(button, true);
      // Focus moves in effects after a render: wait for it instead of sampling one instant.
      const expectFocused = (href) =>
        page.waitForFunction((h) => document.activeElement?.getAttribute('href') === h, href, { timeout: 5000 });
      await expectFocused('/platforms/hire');
      await page.keyboard.press('ArrowDown');
      await expectFocused('/platforms/campus');
      await page.keyboard.press('Tab');
      await expectFocused('/platforms/career');

      await page.keyboard.press('Escape');
      await waitExpanded(button, false);
      // Focus returns to the button.
      await page.waitForFunction((el) => el === document.activeElement, await button.elementHandle(), { timeout: 5000 });
      // The keyboard focus ring is visible.
      assert.notEqual(await button.evaluate((el) => getComputedStyle(el).outlineStyle), 'none');

      // Enter toggles it, Tab walks into the items, Enter follows a link.
      await page.keyboard.press('Enter');
      await waitExpanded(button, true);
      await page.keyboard.press('Tab');
      await expectFocused('/platforms/hire');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/platforms/hire');
      await waitExpanded(button, false);

      // After a client-side navigation focus starts at the new page's main landmark (set by an
      // effect once the new route renders, so wait for it rather than sample one instant).
      await page.waitForFunction(() => document.activeElement?.id === 'main', null, { timeout: 5000 });
    });
  });

  test('the Resources and Company groups link their overview to /{label}', async () => {
    await withPage(browser, app.baseURL, 'groups', async (page) => {
      await page.goto('/');
      for (const [label, href] of [['Resources', '/resources'], ['Company', '/company']]) {
        const button = mainNav(page).getByRole('button', { name: label });
        await button.click();
        await waitExpanded(button, true);
        const overview = (await panelOf(button)).locator(`a[href="${href}"]`);
        assert.ok(await overview.isVisible());
        await page.keyboard.press('Escape');
        await waitExpanded(button, false);
      }
    });
  });

  test('signed out, the header offers Sign In and Get Started after the session check', async () => {
    await withPage(browser, app.baseURL, 'signed out header', async (page) => {
      await page.goto('/');
      const header = page.locator('header');
      assert.equal(await header.getByRole('link', { name: 'Sign In' }).first().getAttribute('href'), '/login');
      assert.equal(await header.getByRole('link', { name: 'Get Started' }).first().getAttribute('href'), '/register');
      await page.waitForTimeout(300);
      await page.screenshot({ path: (await screenshot(page, 'home-desktop')).replace('.png', '-viewport.png') });
    });
  });
});

describe('mobile menu (375px)', () => {
  test('the desktop nav is hidden, the toggle opens the same links and a link closes it', async () => {
    await withPage(
      browser,
      app.baseURL,
      'mobile menu',
      async (page) => {
        await page.goto('/');
        assert.equal(await mainNav(page).isVisible(), false);
        const toggle = page.getByRole('button', { name: 'Open menu' });
        await toggle.click();
        const close = page.getByRole('button', { name: 'Close menu' });
        assert.equal(await close.getAttribute('aria-expanded'), 'true');
        const menu = page.getByRole('navigation', { name: 'Mobile' });
        await menu.waitFor(); // its code loads on the first open
        for (const name of ['Hire', 'Campus', 'Career', 'Solutions', 'News', 'About Us', 'Jobs', 'Contact Us', 'Sign In', 'Get Started']) {
          assert.ok(await menu.getByRole('link', { name, exact: true }).isVisible(), `${name} in the mobile menu`);
        }
        await screenshot(page, 'mobile-menu-open');
        assert.deepEqual(await seriousA11yViolations(page), []);

        await page.keyboard.press('Escape');
        assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

        await toggle.click();
        await menu.getByRole('link', { name: 'About Us', exact: true }).click();
        await page.waitForURL('**/about');
        await page.getByRole('heading', { level: 1, name: 'About Us' }).waitFor();
        assert.equal(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded'), 'false');
        assert.equal(await menu.isVisible(), false);
      },
      { viewport: PHONE },
    );
  });

  for (const width of [360, 375]) {
    test(`nothing overflows horizontally at ${width}px`, async () => {
      await withPage(
        browser,
        app.baseURL,
        `no overflow ${width}`,
        async (page) => {
          for (const path of ['/', '/news', '/platforms/campus', '/missing']) {
            await page.goto(path);
            await page.locator('h1').waitFor();
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            assert.ok(overflow <= 0, `${path} overflows by ${overflow}px`);
          }
          if (width === 375) await screenshot(page, 'home-phone');
        },
        { viewport: { width, height: 800 } },
      );
    });
  }
});

test('desktop home screenshot for review', async () => {
  await withPage(browser, app.baseURL, 'home desktop', async (page) => {
    await page.goto('/');
    await page.locator('h1').waitFor();
    await screenshot(page, 'home-desktop-full');
  }, { viewport: DESKTOP });
});

test('every form field shows the keyboard focus ring', async () => {
  await withPage(browser, app.baseURL, 'field focus ring', async (page) => {
    for (const path of ['/login', '/register']) {
      await page.goto(path);
      const email = page.getByLabel('Email', { exact: false }).first();
      await email.waitFor();
      await email.focus();
      const ring = await email.evaluate((el) => {
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: style.outlineWidth };
      });
      assert.notEqual(ring.style, 'none', `${path}: the focused email field has no visible outline`);
      assert.equal(ring.width, '3px', path);
    }
  });
});
