/** The text file of recovery codes a person downloads when two-factor goes on. */
export function recoveryCodesFile(appName: string, email: string, codes: readonly string[]): string {
  return [
    `${appName} recovery codes for ${email}`,
    '',
    'Each code signs you in once if you cannot use your authenticator app.',
    'Keep them somewhere safe, like a password manager.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** The secret as people copy it: groups of four characters. */
export const groupedSecret = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');
