import { useState, type Dispatch, type SetStateAction } from 'react';
import { SectionCard } from '@/components/section-card';
import { accountToast } from '@/lib/account-toast';
import { useConfig } from '@/lib/config-context';
import { failureMessage, fieldErrorsOf } from '../api/request';
import type { Organization } from '../api/types';
import { updateOrganization, type UpdateOrganizationInput } from '../api/update-organization';
import { organizationFieldErrors, validateOrganization, type OrganizationErrors, type OrganizationField, type OrganizationValues } from '../utils/organization-form';
import { OrganizationForm } from './organization-form';

type SettingsSectionProps = { organization: Organization; onOrganizationChange: Dispatch<SetStateAction<Organization>> };

/** For owners and org admins: the organization's name and slug. */
export function SettingsSection({ organization, onOrganizationChange }: SettingsSectionProps) {
  const { apiBaseUrl } = useConfig();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<OrganizationErrors>({});
  const edit = (field: OrganizationField) => setErrors((current) => ({ ...current, [field]: undefined }));

  const save = async (values: OrganizationValues) => {
    const found = validateOrganization(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return false;
    const input: UpdateOrganizationInput = { name: values.name.trim() };
    if (values.slug.trim() !== '') input.slug = values.slug.trim();
    setPending(true);
    try {
      const result = await updateOrganization(apiBaseUrl, organization.id, input);
      onOrganizationChange((current) => result.data?.organization ?? { ...current, ...input });
      accountToast.success(result.message || 'Organization updated');
      return true;
    } catch (error) {
      setErrors(organizationFieldErrors(fieldErrorsOf(error)));
      accountToast.error(failureMessage(error));
      return false;
    } finally {
      setPending(false);
    }
  };

  return (
    <SectionCard title="Organization details">
      <OrganizationForm
        label="Organization details"
        initial={{ name: organization.name, slug: organization.slug }}
        submitLabel="Save changes"
        pendingLabel="Saving…"
        pending={pending}
        errors={errors}
        onEdit={edit}
        onSubmit={save}
      />
    </SectionCard>
  );
}
