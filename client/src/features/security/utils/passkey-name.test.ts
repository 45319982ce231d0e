import { describe, expect, it } from 'vitest';
import { defaultPasskeyName, passkeyNameError } from './passkey-name';

const UA = {
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:130.0) Gecko/20100101 Firefox/130.0',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
  chromeIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/140.0 Mobile/15E148 Safari/604.1',
};

describe('defaultPasskeyName', () => {
  it('names the browser and system from client hints, skipping the made-up brand and Chromium beside its browser', () => {
    const brands = [{ brand: 'Not)A;Brand' }, { brand: 'Chromium' }, { brand: 'Google Chrome' }];
    expect(defaultPasskeyName({ userAgentData: { brands, platform: 'Linux' } })).toBe('Chrome on Linux');
    expect(defaultPasskeyName({ userAgentData: { brands: [{ brand: 'Microsoft Edge' }, { brand: 'Chromium' }], platform: 'Windows' } })).toBe('Edge on Windows');
    expect(defaultPasskeyName({ userAgentData: { brands: [{ brand: 'Chromium' }, { brand: 'Not=A?Brand' }], platform: 'Chrome OS' } })).toBe('Chromium on ChromeOS');
    expect(defaultPasskeyName({ userAgentData: { brands: [{ brand: 'Google Chrome' }], platform: 'macOS' } })).toBe('Chrome on macOS');
  });

  it('reads the user agent string where there are no client hints', () => {
    expect(defaultPasskeyName({ userAgent: UA.chromeLinux })).toBe('Chrome on Linux');
    expect(defaultPasskeyName({ userAgent: UA.edgeWindows })).toBe('Edge on Windows');
    expect(defaultPasskeyName({ userAgent: UA.firefoxMac })).toBe('Firefox on macOS');
    expect(defaultPasskeyName({ userAgent: UA.safariIphone })).toBe('Safari on iOS');
    expect(defaultPasskeyName({ userAgent: UA.chromeAndroid })).toBe('Chrome on Android');
    expect(defaultPasskeyName({ userAgent: UA.chromeIos })).toBe('Chrome on iOS');
  });

  it('fills a blank platform hint from the user agent string', () => {
    expect(defaultPasskeyName({ userAgent: UA.chromeAndroid, userAgentData: { brands: [{ brand: 'Google Chrome' }], platform: '' } })).toBe('Chrome on Android');
  });

  it('falls back to what it knows, and to "Passkey"', () => {
    expect(defaultPasskeyName({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Strange/1.0' })).toBe('Passkey on Linux');
    expect(defaultPasskeyName({ userAgent: 'Firefox/130.0' })).toBe('Firefox');
    expect(defaultPasskeyName({})).toBe('Passkey');
  });

  it('stays within the 64 characters a name may have', () => {
    const name = defaultPasskeyName({ userAgentData: { brands: [{ brand: 'B'.repeat(80) }], platform: 'Linux' } });
    expect(name).toHaveLength(64);
  });
});

describe('passkeyNameError', () => {
  it("uses the server's rules and words", () => {
    expect(passkeyNameError('   ')).toBe('Passkey name is required');
    expect(passkeyNameError('a'.repeat(65))).toBe('Passkey name must be at most 64 characters');
    expect(passkeyNameError(` ${'a'.repeat(64)} `)).toBeUndefined();
    expect(passkeyNameError('🔑'.repeat(64))).toBeUndefined();
  });
});
