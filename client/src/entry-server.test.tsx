// @vitest-environment node
// The build runs the prerender in Node (scripts/prerender.mjs), not in a browser.
import { describe, expect, it } from 'vitest';
import { NOT_FOUND, PAGES, PLACEHOLDERS, render } from './entry-server';

describe('the prerender', () => {
  it('renders a page whole, with its title and description, and no script', async () => {
    const page = await render('/about');
    expect(page.title).toBe(`About Us | ${PLACEHOLDERS.appName}`);
    expect(page.description).not.toBe('');
    expect(page.html).toMatch(/<h1[^>]*>About Us<\/h1>/);
    // A visitor's header, the footer's platform links as placeholders for the server to fill.
    expect(page.html).toContain('>Sign In</a>');
    expect(page.html).toContain(`href="${PLACEHOLDERS.career}"`);
    expect(page.html).not.toContain('<script');
    expect(page.html).not.toContain('>Loading<');
  });

  it('renders the home page with the app name as its whole title', async () => {
    const page = await render('/');
    expect(page.title).toBe(PLACEHOLDERS.appName);
    expect(page.html).toContain('Next-Gen AI Talent Solutions');
  });

  it('renders the 404 page for a path no route has', async () => {
    const page = await render(NOT_FOUND.path);
    expect(page.title).toBe(`Page Not Found | ${PLACEHOLDERS.appName}`);
    expect(page.html).toMatch(/<h1[^>]*>Page not found<\/h1>/);
  });

  it('renders every listed page without a loading state left in it', async () => {
    for (const { path } of PAGES) {
      const page = await render(path.replace(/:[a-z]+/gi, 'x'));
      expect(page.html, path).toContain('<h1');
      expect(page.title, path).toContain(PLACEHOLDERS.appName);
    }
  });
});
