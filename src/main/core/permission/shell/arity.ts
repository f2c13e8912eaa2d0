/**
 * How many leading words name "the command" for an "always" approval: approving
 * `npm run test -- --watch` remembers `npm run test *`, approving `git status -s`
 * remembers `git status *`. Commands not listed use one word (`ls *`). Interpreters
 * use two so that approving one script never approves `node -e …` in general.
 */
const ARITY: Record<string, number> = {
  git: 2, 'git remote': 3, 'git stash': 3, 'git submodule': 3, 'git worktree': 3,
  npm: 2, 'npm run': 3, 'npm exec': 3, pnpm: 2, 'pnpm run': 3, 'pnpm exec': 3, 'pnpm dlx': 3,
  yarn: 2, 'yarn run': 3, 'yarn dlx': 3, bun: 2, 'bun run': 3, 'bun x': 3, npx: 2, pnpx: 2, bunx: 2,
  deno: 2, 'deno task': 3, 'deno run': 3, node: 2, tsx: 2, 'ts-node': 2,
  python: 2, python3: 2, 'python -m': 3, 'python3 -m': 3, pip: 2, pip3: 2, uv: 2, 'uv run': 3, 'uv pip': 3,
  poetry: 2, 'poetry run': 3, pipenv: 2, ruby: 2, perl: 2, php: 2, bundle: 2, 'bundle exec': 3, rake: 2,
  bash: 2, sh: 2, zsh: 2,
  cargo: 2, rustup: 2, go: 2, 'go mod': 3, dotnet: 2, mvn: 2, gradle: 2, './gradlew': 2, make: 2, cmake: 2,
  composer: 2, mix: 2, swift: 2, flutter: 2, dart: 2,
  docker: 2, 'docker compose': 3, 'docker-compose': 2, podman: 2, kubectl: 2, helm: 2, terraform: 2,
  gh: 3, brew: 2, apt: 2, 'apt-get': 2, systemctl: 2, aws: 3, gcloud: 3, az: 3,
  turbo: 2, nx: 2, 'nx run': 3, vite: 2, vitest: 2, jest: 1, tsc: 1, eslint: 1, prettier: 1,
}

/**
 * The "always" pattern for a command given as literal words, or undefined when no
 * pattern of sensible width exists. When an option or a computed word sits where
 * the subcommand should be, the exact command is remembered instead of a wider one.
 */
export function alwaysPattern(words: ReadonlyArray<string | null>, expands: readonly boolean[] = []): string | undefined {
  if (words.length === 0) return undefined
  const literal = words.map((w) => w ?? '')
  let arity = 1
  for (let n = Math.min(3, literal.length); n >= 1; n--) {
    const key = literal.slice(0, n).join(' ')
    const known = ARITY[key]
    if (known !== undefined) {
      arity = known
      break
    }
  }
  const prefix = literal.slice(0, arity)
  const prefixUnknown = words.slice(0, arity).some((w, i) => w === null || expands[i] === true)
  const allKnown = words.every((w) => w !== null)
  const exact = allKnown ? literal.map(quoteForPattern).join(' ') : undefined
  if (prefixUnknown || prefix.length < arity || prefix.slice(1).some((w) => w.startsWith('-'))) return exact
  if (prefix.some((w) => /[*?]/.test(w))) return exact
  return `${prefix.join(' ')} *`
}

/** Wildcard characters in a remembered exact command must not widen it. */
function quoteForPattern(word: string): string {
  return word.replace(/[*?]/g, '?')
}
