import { buttonClass } from '@/components/button-styles';
import { SectionCard } from '@/components/section-card';
import { ErrorMessage } from '@/components/status-messages';
import { accountToast } from '@/lib/account-toast';
import { graphQLMessage } from '@/lib/graphql-errors';
import { useApplications, useRevokeApplication } from '../api/applications';

const SCOPE_WORDS: Record<string, string> = {
  openid: 'who you are',
  email: 'your email address',
  profile: 'your name',
};

const since = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** The partner applications the person allowed to sign them in, each with a revoke button. */
export function ApplicationsSection() {
  const { data, loading, error } = useApplications();
  const [revoke, revokeState] = useRevokeApplication();
  const apps = data?.authorizedApplications ?? [];
  const take = async (clientId: string) => {
    try {
      const result = await revoke({ variables: { clientId } });
      accountToast.success(result.data?.revokeApplication.message ?? 'Access revoked');
    } catch (error) {
      accountToast.error(graphQLMessage(error, 'Something went wrong'));
    }
  };
  let body;
  if (loading && !data) body = <p className="text-ink-700">Loading applications...</p>;
  // Without this, a failed load would read as "no application", which is not known.
  else if (error && !data) body = <ErrorMessage>{graphQLMessage(error, 'Something went wrong')}</ErrorMessage>;
  else if (apps.length === 0) body = <p className="text-ink-700">No other application can sign you in with your account. Hire, Campus and Career always can.</p>;
  else
    body = (
      <ul className="divide-y divide-ink-200">
        {apps.map((app) => (
          <li key={app.clientId} data-testid="application" className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-semibold text-ink-900">{app.name}</p>
              <p className="text-sm text-ink-700">
                Sees {app.scopes.map((scope) => SCOPE_WORDS[scope] ?? scope).join(', ')} · allowed {since(app.since)}
              </p>
            </div>
            <button type="button" disabled={revokeState.loading} onClick={() => void take(app.clientId)} className={buttonClass('secondary', 'sm')} aria-label={`Revoke access of ${app.name}`}>
              Revoke access
            </button>
          </li>
        ))}
      </ul>
    );
  return <SectionCard title="Connected applications">{body}</SectionCard>;
}
