import type { SignInProvider } from '@/lib/config';
import { PROVIDER_NAMES, type IdentityProvider } from '@/lib/sign-in-providers';
import type { Identity } from '../api/identities';

/** One row of "Connected accounts": the provider, its connected account if any, and whether Connect is offered. */
export type IdentityRow = { provider: IdentityProvider; identity: Identity | null; canConnect: boolean };

type Configured = { googleConfigured: boolean; signInProviders: readonly SignInProvider[] };

const isKnown = (provider: unknown): provider is IdentityProvider => typeof provider === 'string' && Object.hasOwn(PROVIDER_NAMES, provider);

/**
 * A row for each provider the server offers or the account is connected to: Google first, then
 * the others in the server's order, then any connected one the server no longer offers. Connect
 * is offered for the configured providers besides Google, whose own flow has no "link" intent.
 */
export function identityRows(items: readonly Identity[], { googleConfigured, signInProviders }: Configured): IdentityRow[] {
  const connected = new Map(items.filter((item) => isKnown(item.provider)).map((item) => [item.provider, item]));
  const offered: IdentityProvider[] = googleConfigured ? ['google', ...signInProviders] : [...signInProviders];
  const order = [...new Set<IdentityProvider>([...offered, ...(Object.keys(PROVIDER_NAMES) as IdentityProvider[]).filter((provider) => connected.has(provider))])];
  return order.map((provider) => {
    const identity = connected.get(provider) ?? null;
    const canConnect = identity === null && provider !== 'google' && (signInProviders as readonly string[]).includes(provider);
    return { provider, identity, canConnect };
  });
}
