import { screen, within } from '@testing-library/react';
import { siGithub, siX, siYoutube } from 'simple-icons';
import { describe, expect, it } from 'vitest';
import { LINKEDIN_IN, LINKEDIN_SQUARE } from '@/components/brand-paths';
import { renderWithApp } from '@/test/render';
import indexHtml from '../../../index.html?raw';
import { Footer } from './footer';

/** The path of `<symbol id="{id}">` in index.html, which the footer draws with <use>. */
function symbolPath(id: string): string | undefined {
  const template = document.createElement('template');
  template.innerHTML = indexHtml.slice(indexHtml.indexOf('<body'));
  return template.content.querySelector(`symbol#${id} path`)?.getAttribute('d') ?? undefined;
}

describe('Footer social links', () => {
  it("keep their names and draw each network's own mark from the page's symbols", () => {
    renderWithApp(<Footer />);
    const social = screen.getByRole('list', { name: 'Social media' });
    const links = within(social).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual(
      ['Twitter', 'LinkedIn', 'GitHub', 'YouTube', 'Instagram'].map((name) => `${name} (opens in a new tab)`),
    );
    for (const link of links) {
      const id = link.querySelector('use')?.getAttribute('href')?.slice(1) ?? '';
      expect(symbolPath(id), id).toMatch(/^M/);
    }
  });

  it("use simple-icons' marks where it has them, and brand-paths.ts's LinkedIn", () => {
    expect(symbolPath('mark-github')).toBe(siGithub.path);
    expect(symbolPath('mark-twitter')).toBe(siX.path);
    expect(symbolPath('mark-youtube')).toBe(siYoutube.path);
    expect(symbolPath('mark-linkedin')).toBe(LINKEDIN_SQUARE + LINKEDIN_IN);
  });
});
