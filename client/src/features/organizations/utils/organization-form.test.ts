import { describe, expect, it } from 'vitest';
import { organizationFieldErrors, SLUG_ERROR, validateOrganization } from './organization-form';

describe('the organization form', () => {
  it('needs a name and takes an empty slug', () => {
    expect(validateOrganization({ name: '  ', slug: '' })).toEqual({ name: 'Organization name is required' });
    expect(validateOrganization({ name: 'Acme Hiring', slug: '' })).toEqual({});
    expect(validateOrganization({ name: 'x'.repeat(101), slug: '' }).name).toBe('Organization name must be at most 100 characters');
  });

  it('checks a given slug', () => {
    expect(validateOrganization({ name: 'Acme', slug: 'acme-hiring-2' })).toEqual({});
    for (const slug of ['ab', 'Acme', 'acme_hiring', 'a'.repeat(41), 'acme hiring']) {
      expect(validateOrganization({ name: 'Acme', slug }), slug).toEqual({ slug: SLUG_ERROR });
    }
  });

  it("keeps only the server's errors for name and slug", () => {
    expect(organizationFieldErrors({ slug: 'An organization with this slug already exists', other: 'x' })).toEqual({ slug: 'An organization with this slug already exists' });
  });
});
