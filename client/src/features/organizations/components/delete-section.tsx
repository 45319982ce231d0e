import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { buttonClass } from '@/components/button-styles';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { deleteOrganization } from '../api/delete-organization';
import { failureMessage } from '../api/request';
import type { Organization } from '../api/types';
import { DeleteOrganizationDialog } from './delete-organization-dialog';

/** For owners: delete the organization, once its name is typed in the dialog. */
export function DeleteSection({ organization }: { organization: Organization }) {
  const { apiBaseUrl } = useConfig();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const close = useCallback(() => setOpen(false), []);

  const remove = async () => {
    setPending(true);
    try {
      const result = await deleteOrganization(apiBaseUrl, organization.id);
      accountToast.success(result.message || 'Organization deleted');
      void navigate(paths.organizations.getHref());
    } catch (error) {
      accountToast.error(failureMessage(error));
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <SectionCard title="Delete organization">
      <p className="mb-4 text-ink-700">Deleting {organization.name} removes every membership and invitation with it. It cannot be undone.</p>
      <button type="button" onClick={() => setOpen(true)} className={`${buttonClass('solid', 'md')} bg-red-700 hover:bg-red-800`}>
        Delete organization
      </button>
      <DeleteOrganizationDialog open={open} name={organization.name} pending={pending} onCancel={close} onConfirm={() => void remove()} />
    </SectionCard>
  );
}
