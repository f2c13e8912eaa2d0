import { READ_ONLY_PATTERN, type Rule } from './rule'
import { PLAN_DIR, Permission } from './names'

const P = Permission

/** Commands and forms that write, run arbitrary code or change the repository; explore may not run them. */
const WRITING_COMMANDS = [
  'rm *', 'rmdir *', 'mv *', 'cp *', 'mkdir *', 'touch *', 'chmod *', 'chown *', 'ln *', 'tee *', 'dd *',
  'truncate *', 'install *', 'patch *', 'sed -i*', 'sed * -i*', 'perl -i*', 'perl * -i*',
  'find * -delete*', 'find * -fprint*', 'git add *', 'git commit *', 'git push *', 'git reset *', 'git checkout *',
  'git switch *', 'git restore *', 'git clean *', 'git merge *', 'git rebase *', 'git stash *', 'git tag *',
  'git branch -*', 'git rm *', 'git mv *', 'git apply *', 'git am *', 'git cherry-pick *', 'git revert *',
  'npm install *', 'npm i *', 'npm ci *', 'npm uninstall *', 'pnpm add *', 'pnpm install *', 'yarn add *',
  'yarn install *', 'pip install *', 'cargo add *',
]

const ENV_READ_RULES: Rule[] = [
  { permission: P.Read, pattern: '*', action: 'allow' },
  { permission: P.Read, pattern: '*.env', action: 'ask' },
  { permission: P.Read, pattern: '*.env.*', action: 'ask' },
  { permission: P.Read, pattern: '*.env.example', action: 'allow' },
  { permission: P.Read, pattern: '*.env.sample', action: 'allow' },
  { permission: P.Read, pattern: '*.env.template', action: 'allow' },
]

function buildDefaults(): Rule[] {
  return [
    { permission: '*', pattern: '*', action: 'allow' },
    { permission: P.Bash, pattern: '*', action: 'ask' },
    // Read-only commands (every option known to only read, `shell/validators.ts`) run unasked; their paths are still checked.
    { permission: P.Bash, pattern: READ_ONLY_PATTERN, action: 'allow' },
    { permission: P.Edit, pattern: '*', action: 'ask' },
    { permission: P.ExternalDirectory, pattern: '*', action: 'ask' },
    { permission: P.DoomLoop, pattern: '*', action: 'ask' },
    // A search sends the query to the provider's search engine: the user sees each one first.
    { permission: P.WebSearch, pattern: '*', action: 'ask' },
    // What the OS sandbox would stop is the user's call, every time.
    { permission: P.SandboxNetwork, pattern: '*', action: 'ask' },
    { permission: P.BashUnsandboxed, pattern: '*', action: 'ask' },
    // Starting the dev server runs the project's own command; the page tools click and type in the app.
    { permission: P.Preview, pattern: '*', action: 'ask' },
    ...ENV_READ_RULES,
  ]
}

/**
 * The built-in rules an agent starts from, before global config, project config and
 * remembered approvals are layered on top:
 * - build (and general, and any custom agent): everything allowed except bash,
 *   edits, outside-project paths, web searches, preview tools, `.env*` reads (not `.env.example`) and doom loops, which ask;
 *   read-only bash commands (`@read-only`) run unasked, their paths still checked;
 * - plan: like build, but edits are denied except its plan file under `.hotaru/plans/`;
 * - explore: edits denied, writing commands denied.
 */
export function agentDefaultRules(agent: string): Rule[] {
  const rules = buildDefaults()
  if (agent === 'plan') {
    rules.push({ permission: P.Edit, pattern: '*', action: 'deny' })
    rules.push({ permission: P.Edit, pattern: `${PLAN_DIR}/*.md`, action: 'allow' })
  }
  if (agent === 'explore') {
    rules.push({ permission: P.Edit, pattern: '*', action: 'deny' })
    for (const pattern of WRITING_COMMANDS) rules.push({ permission: P.Bash, pattern, action: 'deny' })
  }
  return rules
}
