import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageHero } from '@/components/page-hero';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { canFoundOrganizations } from '@/lib/roles';
import { useSession } from '@/lib/session';
import { usePageMeta } from '@/lib/use-page-meta';
import { createOrganization, type CreateOrganizationInput } from '../api/create-organization';
import { listOrganizations } from '../api/list-organizations';
import { failureMessage, fieldErrorsOf, statusOf } from '../api/request';
import { OrganizationForm } from '../components/organization-form';
import { OrganizationList } from '../components/organization-list';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';
import { SignInPrompt } from '../components/status-message';
import { useResource } from '../hooks/use-resource';
import { organizationFieldErrors, validateOrganization, type OrganizationErrors, type OrganizationField, type OrganizationValues } from '../utils/organization-form';

const TITLE = 'Organizations';
const INTRO = 'The Hire organizations and Campus institutes you belong to, and the people in them.';


/** `/organizations`: the signed-in person's organizations, and a form to found one. */
export function OrganizationsPage() {
  usePageMeta(TITLE, INTRO);
  const session = useSession();
  let content;
  if (session.state === 'loading') content = <LoadingStatus>Loading organizations...</LoadingStatus>;
  else if (session.state === 'signed-out') content = <SignInPrompt returnTo={paths.organizations.getHref()} />;
  else content = <MyOrganizations role={session.user.role} />;
  return (
    <>
      <PageHero title={TITLE} intro={INTRO} eyebrow="Account" icon={Building2} />
      <div className="mx-auto grid max-w-4xl gap-6 px-4 py-10">{content}</div>
    </>
  );
}

function MyOrganizations({ role }: { role: string | null | undefined }) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const { resource } = useResource('mine', async (signal) => (await listOrganizations(apiBaseUrl, signal)).data.organizations);
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<OrganizationErrors>({});
  // Only Hire and Campus accounts found organizations; the kind follows the account.
  const founder = canFoundOrganizations(role);

  const create = async (values: OrganizationValues) => {
    const found = validateOrganization(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return false;
    const input: CreateOrganizationInput = { name: values.name.trim() };
    if (values.slug.trim() !== '') input.slug = values.slug.trim();
    setPending(true);
    try {
      const result = await createOrganization(apiBaseUrl, input);
      accountToast.success(result.message || 'Organization created');
      // Its page is where the people come in.
      void navigate(paths.organization.getHref(result.data.organization.id));
      return true;
    } catch (error) {
      setErrors(organizationFieldErrors(fieldErrorsOf(error)));
      accountToast.error(failureMessage(error));
      return false;
    } finally {
      setPending(false);
    }
  };

  let list;
  if (resource.status === 'loading') list = <LoadingStatus>Loading organizations...</LoadingStatus>;
  else if (resource.status === 'error' && statusOf(resource.error) === 401) return <SignInPrompt returnTo={paths.organizations.getHref()} />;
  else if (resource.status === 'error') list = <ErrorMessage>{failureMessage(resource.error)}</ErrorMessage>;
  else if (resource.data.length === 0)
    list = (
      <p className="text-ink-700">
        You are not in any organization yet.{' '}
        {founder ? 'Create one below, then invite your team.' : 'When someone invites you, the link in their email brings you in.'}
      </p>
    );
  else list = <OrganizationList organizations={resource.data} />;

  const edit = (field: OrganizationField) => setErrors((current) => ({ ...current, [field]: undefined }));
  return (
    <>
      <SectionCard title="Your organizations">{list}</SectionCard>
      {founder ? (
        <SectionCard title="Create organization">
          <p className="mb-4 text-ink-700">You become its owner, and can then invite people to it.</p>
          <OrganizationForm label="Create organization" submitLabel="Create organization" pendingLabel="Creating…" pending={pending} errors={errors} onEdit={edit} onSubmit={create} />
        </SectionCard>
      ) : null}
    </>
  );
}
