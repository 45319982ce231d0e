// How a page looks, theme-wise, to a person: the attribute the palette keys on, and whether
// the page's surfaces and text are drawn dark or light (measured from computed colours, so it
// fails if a part of the page does not follow the theme).
import assert from 'node:assert/strict';

export async function themeLook(page) {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    // Relative luminance of a CSS colour as painted over white (lab()/oklch() included).
    const luminance = (color) => {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      const linear = (value) => {
        const v = value / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const tone = (element, property) => (element ? (luminance(getComputedStyle(element)[property]) < 0.2 ? 'dark' : 'light') : 'absent');
    return {
      theme: document.documentElement.dataset.theme ?? null,
      colorScheme: document.querySelector('meta[name="color-scheme"]')?.getAttribute('content') ?? null,
      page: tone(document.body, 'backgroundColor'),
      text: tone(document.body, 'color'),
      header: tone(document.querySelector('header'), 'backgroundColor'),
      main: tone(document.querySelector('main'), 'color'),
    };
  });
}

/** The look of a whole page in `theme`: light surfaces with dark text, or the reverse. */
export function lookOf(theme) {
  const surface = theme;
  const ink = theme === 'dark' ? 'light' : 'dark';
  return { theme, colorScheme: theme, page: surface, text: ink, header: surface, main: ink };
}

export async function expectLook(page, theme, message) {
  assert.deepEqual(await themeLook(page), lookOf(theme), message);
}
