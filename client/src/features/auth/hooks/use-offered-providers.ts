import { useSyncExternalStore } from 'react';
import type { SignInProvider } from '@/lib/config';
import { useConfig } from '@/lib/config-context';

const NONE: readonly SignInProvider[] = [];
const subscribe = () => () => {};

/**
 * The providers whose buttons the sign-in pages show. The build prerenders those pages without
 * knowing the server's list, so the HTML and the render that hydrates it have none; the
 * buttons come right after (and at once on a page drawn in the browser).
 */
export function useOfferedProviders(): readonly SignInProvider[] {
  const { signInProviders } = useConfig();
  return useSyncExternalStore(
    subscribe,
    () => signInProviders,
    () => NONE,
  );
}
