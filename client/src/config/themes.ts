import type { PlatformTheme } from './platforms';

/**
 * Tailwind class sets per platform colour. Whole class names are spelled out so Tailwind's
 * scanner sees them. The 700 shades keep white text above WCAG AA 4.5:1.
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
    text: 'text-emerald-700',
    solid: 'bg-emerald-700',
    solidHover: 'hover:bg-emerald-800',
    soft: 'bg-emerald-50',
    softText: 'text-emerald-800',
    border: 'border-emerald-200',
    bar: 'bg-emerald-600',
    ring: 'focus-visible:outline-emerald-700',
    topBorder: 'border-t-emerald-600',
  },
  blue: {
    text: 'text-blue-700',
    solid: 'bg-blue-700',
    solidHover: 'hover:bg-blue-800',
    soft: 'bg-blue-50',
    softText: 'text-blue-800',
    border: 'border-blue-200',
    bar: 'bg-blue-600',
    ring: 'focus-visible:outline-blue-700',
    topBorder: 'border-t-blue-600',
  },
  orange: {
    text: 'text-orange-700',
    solid: 'bg-orange-700',
    solidHover: 'hover:bg-orange-800',
    soft: 'bg-orange-50',
    softText: 'text-orange-800',
    border: 'border-orange-200',
    bar: 'bg-orange-600',
    ring: 'focus-visible:outline-orange-700',
    topBorder: 'border-t-orange-600',
  },
};

export const brandTheme: ThemeClasses = {
  text: 'text-indigo-700',
  solid: 'bg-indigo-700',
  solidHover: 'hover:bg-indigo-800',
  soft: 'bg-indigo-50',
  softText: 'text-indigo-800',
  border: 'border-indigo-200',
  bar: 'bg-indigo-600',
  ring: 'focus-visible:outline-indigo-700',
  topBorder: 'border-t-indigo-600',
};
