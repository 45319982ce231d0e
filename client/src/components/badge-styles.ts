/** Colours of the small status pills; each tone reads at WCAG AA in both themes. */
export type BadgeTone = 'success' | 'warning' | 'neutral';

export const badgeTone: Record<BadgeTone, string> = {
  success: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  warning: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  neutral: 'bg-ink-200 text-ink-800',
};
