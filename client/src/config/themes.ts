import type { PlatformTheme } from './platforms';

/**
 * Tailwind class sets per platform colour. Whole class names are spelled out so Tailwind's
 * scanner sees them. The 700 shades keep white text above WCAG AA 4.5:1 in both site
 * themes; coloured text and soft backgrounds take a `dark:` pair (lighter text on a deep
 * tint) so they also read on the dark theme's surfaces.
 */
export type ThemeClasses = {
  text: string;
  solid: string;
  solidHover: string;
  soft: string;
  softText: string;
  border: string;
  bar: string;
  ring: string;
  topBorder: string;
};

export const themeClasses: Record<PlatformTheme, ThemeClasses> = {
  emerald: {
    text: 'text-emerald-700 dark:text-emerald-300',
    solid: 'bg-emerald-700',
    solidHover: 'hover:bg-emerald-800',
    soft: 'bg-emerald-50 dark:bg-emerald-950',
    softText: 'text-emerald-800 dark:text-emerald-200',
    border: 'border-emerald-200 dark:border-emerald-800',
    bar: 'bg-emerald-600',
    ring: 'focus-visible:outline-emerald-700 dark:focus-visible:outline-emerald-300',
    topBorder: 'border-t-emerald-600',
  },
  blue: {
    text: 'text-blue-700 dark:text-blue-300',
    solid: 'bg-blue-700',
    solidHover: 'hover:bg-blue-800',
    soft: 'bg-blue-50 dark:bg-blue-950',
    softText: 'text-blue-800 dark:text-blue-200',
    border: 'border-blue-200 dark:border-blue-800',
    bar: 'bg-blue-600',
    ring: 'focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300',
    topBorder: 'border-t-blue-600',
  },
  orange: {
    text: 'text-orange-700 dark:text-orange-300',
    solid: 'bg-orange-700',
    solidHover: 'hover:bg-orange-800',
    soft: 'bg-orange-50 dark:bg-orange-950',
    softText: 'text-orange-800 dark:text-orange-200',
    border: 'border-orange-200 dark:border-orange-800',
    bar: 'bg-orange-600',
    ring: 'focus-visible:outline-orange-700 dark:focus-visible:outline-orange-300',
    topBorder: 'border-t-orange-600',
  },
};

/** The suite's own colour, on the theme-following accent tokens of index.css. */
export const brandTheme: ThemeClasses = {
  text: 'text-accent',
  solid: 'bg-indigo-700',
  solidHover: 'hover:bg-indigo-800',
  soft: 'bg-accent-soft',
  softText: 'text-accent-strong',
  border: 'border-indigo-200 dark:border-indigo-800',
  bar: 'bg-indigo-600',
  ring: 'focus-visible:outline-focus',
  topBorder: 'border-t-indigo-600',
};
