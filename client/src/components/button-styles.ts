/** Shared looks for links styled as buttons and for buttons. */
/** 'solid' leaves the background to the caller (platform theme classes). */
export type ButtonVariant = 'primary' | 'solid' | 'secondary' | 'ghost' | 'light';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-wait aria-disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-700 text-white shadow-sm hover:bg-indigo-800',
  solid: 'text-white shadow-sm',
  secondary: 'border border-ink-300 bg-paper text-ink-800 hover:border-ink-400 hover:bg-ink-50',
  ghost: 'text-ink-700 hover:bg-ink-100 hover:text-ink-900',
  // On bands that are dark in both themes (hero, profile header): white whatever the theme.
  light: 'bg-white text-indigo-800 shadow-sm hover:bg-indigo-50',
};

const sizes = {
  sm: 'px-3 py-2 text-sm',
  md: 'px-4 py-2.5 text-sm',
  lg: 'px-6 py-3 text-base',
} as const;

export function buttonClass(variant: ButtonVariant = 'primary', size: keyof typeof sizes = 'md'): string {
  return `${base} ${variants[variant]} ${sizes[size]}`;
}
