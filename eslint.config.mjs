import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const noElectron = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'electron', message: 'core, cli and shared run in plain Node: no electron imports (see docs/ARCHITECTURE.md).' }],
      patterns: [
        { group: ['electron/*'], message: 'core, cli and shared run in plain Node: no electron imports.' },
        { group: ['**/electron/*', '**/main/index'], message: 'core, cli and shared must not reach the Electron shell.' },
      ],
    },
  ],
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-output/**', 'build/native/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'prefer-const': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits or catches is an unhandled rejection waiting to crash `hotaru serve`;
    // a switch on a union lists every member, so a new part type or stream event is placed, not silently defaulted
    // (options explained in docs/decisions/named-errors.md).
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, allowDefaultCaseForExhaustiveSwitch: true, requireDefaultForNonUnion: true },
      ],
    },
  },
  {
    // A focused test (`it.only`, `describe.only`) silently skips the rest of its file in CI.
    files: ['test/**/*.{ts,tsx,mts}', 'bench/**/*.{ts,mts}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name=/^(it|test|describe|suite|bench)$/][property.name='only']",
          message: 'A focused test skips the others; remove .only before committing.',
        },
        {
          selector: "MemberExpression[object.object.name=/^(it|test|describe|suite)$/][property.name='only']",
          message: 'A focused test skips the others; remove .only before committing.',
        },
      ],
    },
  },
  { files: ['src/main/core/**/*.ts', 'src/cli/**/*.ts', 'src/shared/**/*.ts'], rules: noElectron },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
)
