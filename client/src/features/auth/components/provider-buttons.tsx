import { LoaderCircle } from 'lucide-react';
import { buttonClass } from '@/components/button-styles';
import { ProviderMark } from '@/components/provider-mark';
import type { SignInProvider } from '@/lib/config';
import { PROVIDER_NAMES } from '@/lib/sign-in-providers';

type ProviderButtonsProps = {
  providers: readonly SignInProvider[];
  /** The provider whose popup is open, if any: its button spins and every button waits. */
  pending: SignInProvider | null;
  disabled?: boolean;
  onStart: (provider: SignInProvider) => void;
};

/** "Continue with …", one button per configured provider, each with the provider's mark. */
export function ProviderButtons({ providers, pending, disabled = false, onStart }: ProviderButtonsProps) {
  if (providers.length === 0) return null;
  return (
    <div className="mt-3 grid gap-3">
      {providers.map((provider) => (
        <button
          key={provider}
          type="button"
          onClick={() => onStart(provider)}
          disabled={pending !== null || disabled}
          aria-busy={pending === provider || undefined}
          className={`${buttonClass('secondary', 'md')} w-full`}
        >
          {pending === provider ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : <ProviderMark provider={provider} />}
          {`Continue with ${PROVIDER_NAMES[provider]}`}
        </button>
      ))}
    </div>
  );
}
