import { requiredError } from '@/lib/validation';

/** The create and rename forms: a name, and an optional slug (API.md's rules and texts). */
export type OrganizationValues = { name: string; slug: string };
export type OrganizationField = keyof OrganizationValues;
export type OrganizationErrors = Partial<Record<OrganizationField, string>>;

const SLUG_PATTERN = /^[a-z0-9-]{3,40}$/;
export const NAME_MAX_LENGTH = 100;
export const SLUG_ERROR = 'Slug may use lowercase letters, digits and hyphens (3-40)';

export function validateOrganization({ name, slug }: OrganizationValues): OrganizationErrors {
  const errors: OrganizationErrors = {};
  const nameError = requiredError(name, 'Organization name');
  if (nameError) errors.name = nameError;
  else if (name.trim().length > NAME_MAX_LENGTH) errors.name = `Organization name must be at most ${NAME_MAX_LENGTH} characters`;
  const trimmedSlug = slug.trim();
  if (trimmedSlug !== '' && !SLUG_PATTERN.test(trimmedSlug)) errors.slug = SLUG_ERROR;
  return errors;
}

/** The server's field errors that belong to this form. */
export function organizationFieldErrors(serverErrors: Record<string, string>): OrganizationErrors {
  const errors: OrganizationErrors = {};
  if (serverErrors.name) errors.name = serverErrors.name;
  if (serverErrors.slug) errors.slug = serverErrors.slug;
  return errors;
}
