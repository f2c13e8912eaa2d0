/**
 * How many leading words name "the command" for an "always" approval: approving
 * `npm run test -- --watch` remembers `npm run test *`, approving `git status -s`
 * remembers `git status *`. Commands not listed use one word (`ls *`). Interpreters
 * use two so that approving one script never approves `node -e …` in general.
 */
const ARITY = new Map<string, number>(Object.entries({
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
  'cargo +nightly': 3, 'go work': 3, 'go env': 2, 'rustup toolchain': 3, 'rustup target': 3, 'rustup component': 3,
  'docker container': 3, 'docker image': 3, 'docker volume': 3, 'docker network': 3, 'docker system': 3,
  'docker buildx': 3, 'docker context': 3, 'podman container': 3, 'podman image': 3,
  'kubectl config': 3, 'kubectl rollout': 3, 'kubectl create': 3, 'kubectl get': 3, 'kubectl describe': 3,
  'kubectl delete': 3, 'kubectl apply': 2, 'kubectl auth': 3, 'kubectl top': 3,
  'helm repo': 3, 'helm plugin': 3,
  'gh api': 2, 'gh auth': 3, 'gh pr': 3, 'gh issue': 3, 'gh repo': 3, 'gh run': 3, 'gh workflow': 3, 'gh release': 3,
  'gh secret': 3, 'gh variable': 3, 'gh gist': 3, 'gh label': 3,
  'aws s3': 3, 'aws s3api': 3, 'aws iam': 3, 'aws ec2': 3, 'aws ssm': 3, 'aws secretsmanager': 3, 'aws sts': 3,
  'aws lambda': 3, 'aws logs': 3, 'aws configure': 3,
  'gcloud compute': 4, 'gcloud container': 4, 'gcloud iam': 4, 'gcloud projects': 3, 'gcloud config': 3,
  'gcloud auth': 3, 'gcloud secrets': 3, 'gcloud run': 3, 'gcloud functions': 3, 'gcloud storage': 3,
  'az vm': 3, 'az group': 3, 'az keyvault': 3, 'az account': 3, 'az storage': 4,
  consul: 2, 'consul kv': 3, 'consul acl': 3, 'consul services': 3, 'consul catalog': 3, 'consul operator': 3,
  vault: 2, 'vault kv': 3, 'vault secrets': 3, 'vault auth': 3, 'vault policy': 3, 'vault token': 3, 'vault operator': 3,
  'terraform state': 3, 'terraform workspace': 3, 'terraform providers': 3, nomad: 2, 'nomad job': 3,
  'nomad node': 3, 'nomad alloc': 3, pulumi: 2, 'pulumi stack': 3, 'pulumi config': 3,
  'git config': 3, 'git notes': 3, 'git bisect': 3, 'git lfs': 3, 'git sparse-checkout': 3, 'git reflog': 3,
  'npm config': 3, 'npm cache': 3, 'npm pkg': 3, 'npm dist-tag': 3, 'npm owner': 3, 'npm token': 3,
  'pnpm store': 3, 'yarn workspace': 3, 'yarn cache': 3, 'yarn config': 3,
  'pip config': 3, 'pip cache': 3, 'uv tool': 3, 'uv python': 3, 'poetry env': 3, 'poetry self': 3,
  'dotnet tool': 3, 'dotnet nuget': 3, 'brew services': 3, 'systemctl --user': 3, snap: 2, flatpak: 2,
  firebase: 2, vercel: 2, netlify: 2, heroku: 2, fly: 2, flyctl: 2, wrangler: 2, supabase: 2, 'supabase db': 3,
  redis: 2, 'redis-cli': 1, psql: 1, mysql: 1, sqlite3: 1, mongosh: 1, ansible: 1, 'ansible-playbook': 1,
  'ansible-galaxy': 3, 'ansible-vault': 2, packer: 2, vagrant: 2, minikube: 2, kind: 2, 'kind create': 3,
  'rtk telemetry': 3,
  k9s: 1, eksctl: 3, doctl: 3, oc: 2, istioctl: 2, argocd: 3, skaffold: 2, tilt: 2, kustomize: 2,
} satisfies Record<string, number>))

/**
 * The "always" pattern for a command given as literal words, or undefined when no
 * pattern of sensible width exists. When an option or a computed word sits where
 * the subcommand should be, the exact command is remembered instead of a wider one.
 */
export function alwaysPattern(words: ReadonlyArray<string | null>, expands: readonly boolean[] = []): string | undefined {
  if (words.length === 0) return undefined
  const literal = words.map((w) => w ?? '')
  const arity = arityOf(literal)
  const prefix = literal.slice(0, arity)
  const prefixUnknown = words.slice(0, arity).some((w, i) => w === null || expands[i] === true)
  const allKnown = words.every((w) => w !== null)
  const exact = allKnown ? literal.map(quoteForPattern).join(' ') : undefined
  if (prefixUnknown || prefix.length < arity || prefix.slice(1).some((w) => w.startsWith('-'))) return exact
  if (prefix.some((w) => /[*?]/.test(w))) return exact
  return `${prefix.join(' ')} *`
}

/**
 * Proxies that run the command after them (`rtk git status` compresses what `git status`
 * prints): the pattern covers the proxy and the wrapped command's own prefix, so approving
 * `rtk git clone …` remembers `rtk git clone *`, never `rtk *`. Their own subcommands are in `ARITY`.
 */
const PROXIES = new Map([['rtk', 1], ['rtk proxy', 2]])

function arityOf(literal: readonly string[]): number {
  for (let n = Math.min(3, literal.length); n >= 1; n--) {
    const known = ARITY.get(literal.slice(0, n).join(' '))
    if (known !== undefined) return known
  }
  for (const n of [2, 1]) {
    const skip = PROXIES.get(literal.slice(0, n).join(' '))
    const next = literal[skip ?? 0]
    if (skip === undefined) continue
    // An option where the wrapped command should be: only the exact command is remembered.
    if (next === undefined || next.startsWith('-')) return Number.POSITIVE_INFINITY
    return skip + arityOf(literal.slice(skip))
  }
  return 1
}

/** Wildcard characters in a remembered exact command must not widen it. */
function quoteForPattern(word: string): string {
  return word.replace(/[*?]/g, '?')
}
