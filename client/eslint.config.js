// Lint keeps the layers apart (STYLE.md, bulletproof-react): a feature never imports another
// feature, and shared code (components/, lib/) imports no feature; app/ composes them.
// TypeScript in strict mode checks everything else (`npm run typecheck`).
import tseslint from 'typescript-eslint';

const features = ['admin', 'auth', 'marketing', 'news', 'organizations', 'profile', 'security'];

/** An import of any feature in `names`, by alias or by a relative path that climbs to it. */
const importsOf = (names) => ({
  regex: `^(@/features/|(\\.\\./)+)(${names.join('|')})(/|$)`,
  message: 'Features do not import each other, and shared code imports no feature: move what they share to components/ or lib/.',
});

export default tseslint.config(
  { ignores: ['dist/**', '.ssr/**', 'node_modules/**', 'e2e/**', 'scripts/**', '*.config.*'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [importsOf(features.filter((other) => other !== feature))] }],
    },
  })),
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [importsOf(features)] }] },
  },
);
