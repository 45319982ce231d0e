/** Passkey names: the default one a new passkey gets, and the rules of a rename (API.md). */

export const PASSKEY_NAME_MAX = 64;

type Brand = { brand: string };
/** What the name is made from: `navigator`, or a stand-in in tests. */
export type DeviceHints = { userAgent?: string; userAgentData?: { brands?: Brand[]; platform?: string } };

// Client-hint brands as a person calls the browser. Chromium itself is listed beside the
// browser built on it, and a made-up "Not A Brand" entry is mixed in on purpose.
const BRAND_NAMES: Record<string, string> = {
  'Google Chrome': 'Chrome',
  HeadlessChrome: 'Chrome',
  'Microsoft Edge': 'Edge',
  'Opera GX': 'Opera',
  'Samsung Internet': 'Samsung Internet',
};
const GREASE = /not.?a.?brand/i;

const PLATFORM_NAMES: Record<string, string> = { 'Chrome OS': 'ChromeOS', 'Chromium OS': 'ChromeOS', macOS: 'macOS', Windows: 'Windows' };

const UA_BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/CriOS\/|Chrome\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const UA_SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

function browserFromBrands(brands: Brand[] | undefined): string | undefined {
  const named = (brands ?? []).map(({ brand }) => brand).filter((brand) => brand && !GREASE.test(brand));
  const brand = named.find((name) => name !== 'Chromium') ?? named[0];
  return brand ? (BRAND_NAMES[brand] ?? brand) : undefined;
}

const firstMatch = (table: [RegExp, string][], text: string) => table.find(([pattern]) => pattern.test(text))?.[1];

/** "Chrome on Linux": what a new passkey is called until the person renames it. */
export function defaultPasskeyName(device: DeviceHints): string {
  const userAgent = device.userAgent ?? '';
  const hinted = device.userAgentData;
  const browser = browserFromBrands(hinted?.brands) ?? firstMatch(UA_BROWSERS, userAgent);
  const platform = hinted?.platform ? (PLATFORM_NAMES[hinted.platform] ?? hinted.platform) : undefined;
  const system = platform || firstMatch(UA_SYSTEMS, userAgent);
  const name = browser && system ? `${browser} on ${system}` : (browser ?? (system ? `Passkey on ${system}` : 'Passkey'));
  return [...name].slice(0, PASSKEY_NAME_MAX).join('');
}

/** The server's rules for a name, with its messages, so a bad one is caught before the call. */
export function passkeyNameError(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Passkey name is required';
  if ([...trimmed].length > PASSKEY_NAME_MAX) return `Passkey name must be at most ${PASSKEY_NAME_MAX} characters`;
  return undefined;
}
