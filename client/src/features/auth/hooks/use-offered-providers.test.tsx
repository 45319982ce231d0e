import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ConfigProvider } from '@/lib/config-context';
import { testConfig } from '@/test/render';
import { useOfferedProviders } from './use-offered-providers';

function Probe() {
  const providers = useOfferedProviders();
  return <p>{providers.length > 0 ? providers.join(',') : 'none'}</p>;
}

describe('useOfferedProviders', () => {
  it('offers none in the prerendered HTML, then the configured ones once hydrated, with no mismatch', async () => {
    const tree = (
      <ConfigProvider config={testConfig({ VITE_SIGN_IN_PROVIDERS: 'github,microsoft' })}>
        <Probe />
      </ConfigProvider>
    );
    const html = renderToString(tree);
    expect(html).toContain('none');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    const root = await act(async () => hydrateRoot(container, tree, { onRecoverableError: recoverable }));
    expect(container.textContent).toBe('github,microsoft');
    expect(recoverable).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });
});
