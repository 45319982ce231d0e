import { Building2 } from 'lucide-react';
import { useReducer, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PageHero } from '@/components/page-hero';
import { paths } from '@/config/paths';
import { themeClasses } from '@/config/themes';
import { useConfig } from '@/lib/config-context';
import { useSession } from '@/lib/session';
import { usePageMeta } from '@/lib/use-page-meta';
import { getOrganization } from '../api/get-organization';
import { failureMessage, statusOf } from '../api/request';
import type { Organization } from '../api/types';
import { DeleteSection } from '../components/delete-section';
import { InvitationsSection } from '../components/invitations-section';
import { MembersSection } from '../components/members-section';
import { SettingsSection } from '../components/settings-section';
import { ErrorMessage, LoadingStatus } from '@/components/status-messages';
import { SignInPrompt } from '../components/status-message';
import { useResource } from '../hooks/use-resource';
import { KIND_LABELS, memberCountLabel, ROLE_LABELS } from '../utils/labels';
import { canDeleteOrganization, canManageOrganization } from '../utils/permissions';

const KIND_THEMES = { hire: themeClasses.emerald, campus: themeClasses.blue } as const;

function BackLink() {
  return (
    <Link to={paths.organizations.getHref()} className="text-sm font-semibold text-accent-strong hover:underline">
      ← All organizations
    </Link>
  );
}

/** A page of its own for a state with no organization to show (loading, signed out, not found). */
function Plain({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <BackLink />
      <h1 className="mt-4 text-3xl font-bold text-ink-900">{title}</h1>
      <div className="mt-4">{children}</div>
    </div>
  );
}

/** `/organizations/{id}`: its members, invitations and settings, as far as the caller's role goes. */
export function OrganizationPage() {
  const { id = '' } = useParams();
  const session = useSession();
  if (session.state === 'loading') {
    return (
      <Plain title="Organization">
        <LoadingStatus>Loading organization...</LoadingStatus>
      </Plain>
    );
  }
  if (session.state === 'signed-out') {
    return (
      <Plain title="Organization">
        <SignInPrompt returnTo={paths.organization.getHref(id)} />
      </Plain>
    );
  }
  return <OrganizationScreen key={id} id={id} myUserId={session.user.id} />;
}

function OrganizationScreen({ id, myUserId }: { id: string; myUserId: string }) {
  const { apiBaseUrl } = useConfig();
  const { resource, setData } = useResource(id, async (signal) => (await getOrganization(apiBaseUrl, id, signal)).data.organization);
  const organization = resource.status === 'ready' ? resource.data : null;
  const notFound = resource.status === 'error' && statusOf(resource.error) === 404;
  usePageMeta(organization?.name ?? (notFound ? 'Organization not found' : 'Organization'), 'The members, invitations and settings of an organization.');

  if (resource.status === 'loading') {
    return (
      <Plain title="Organization">
        <LoadingStatus>Loading organization...</LoadingStatus>
      </Plain>
    );
  }
  if (resource.status === 'error') {
    if (statusOf(resource.error) === 401) {
      return (
        <Plain title="Organization">
          <SignInPrompt returnTo={paths.organization.getHref(id)} />
        </Plain>
      );
    }
    return notFound ? (
      <Plain title="Organization not found">
        <p className="text-ink-700">It may have been deleted, or you are not one of its members.</p>
      </Plain>
    ) : (
      <Plain title="Organization">
        <ErrorMessage>{failureMessage(resource.error)}</ErrorMessage>
      </Plain>
    );
  }
  return <OrganizationView organization={resource.data} myUserId={myUserId} onOrganizationChange={setData} />;
}

type OrganizationViewProps = {
  organization: Organization;
  myUserId: string;
  onOrganizationChange: Dispatch<SetStateAction<Organization>>;
};

function OrganizationView({ organization, myUserId, onOrganizationChange }: OrganizationViewProps) {
  const { myRole } = organization;
  // Role changes and removals revoke the invitations that member sent.
  const [membersVersion, membersChanged] = useReducer((version: number) => version + 1, 0);
  const intro = `${myRole ? `Your role: ${ROLE_LABELS[myRole]}` : 'You are not a member'} · ${memberCountLabel(organization.memberCount)}`;
  return (
    <>
      <PageHero title={organization.name} intro={intro} eyebrow={KIND_LABELS[organization.kind]} icon={Building2} theme={KIND_THEMES[organization.kind]}>
        <p className="mt-2 break-all text-sm text-ink-600">Slug: {organization.slug}</p>
      </PageHero>
      <div className="mx-auto grid max-w-4xl gap-6 px-4 py-10">
        <BackLink />
        <MembersSection organization={organization} myUserId={myUserId} onOrganizationChange={onOrganizationChange} onMembersChanged={membersChanged} />
        {canManageOrganization(myRole) ? (
          <>
            <InvitationsSection organization={organization} membersVersion={membersVersion} />
            <SettingsSection organization={organization} onOrganizationChange={onOrganizationChange} />
          </>
        ) : null}
        {canDeleteOrganization(myRole) ? <DeleteSection organization={organization} /> : null}
      </div>
    </>
  );
}
