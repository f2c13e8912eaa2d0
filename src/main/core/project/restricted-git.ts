import { runFile } from '../process/spawn'

/**
 * git reads a repository's own config (`.git/config`, `config.worktree` and what they include),
 * and some of its settings name programs that even a read-only `git status` runs: the fsmonitor hook
 * (`core.fsmonitor`) and the clean filters of `.gitattributes` (`filter.<driver>.clean`/`.process`,
 * run on every file whose stat data changed, which is every file of an unpacked archive). A folder
 * nobody trusted yet runs nothing, so git runs there with those settings overridden on its command
 * line (which wins over every config file): no fsmonitor, and every filter driver defined by the
 * repository's own config emptied. Drivers of the user's own config (git-lfs) stay: their programs
 * are the user's. Submodules, whose configs are theirs, are not looked into (`--ignore-submodules`
 * on the status itself). Hooks do not run: the status writes nothing (`--no-optional-locks`).
 */
export interface RestrictedGit {
  /** `-c` options to put before git's command. */
  options: string[]
  /** Whether the repository's own config defines filter drivers (their files may then show as changed). */
  localFilters: boolean
}

const FILTER_KEY = /^filter\.(.+)\.(clean|process)$/
const REPOSITORY_SCOPES = new Set(['local', 'worktree'])

/** The options for `cwd`; null when git cannot say what the repository's config defines (then git must not run there). */
export async function restrictedGit(cwd: string, signal?: AbortSignal): Promise<RestrictedGit | null> {
  // Reading config runs nothing; `--includes` follows what the repository's config includes.
  const { stdout, error } = await runFile('git', ['config', '--show-scope', '--includes', '--null', '--get-regexp', '^filter\\..+\\.(clean|process)$'], {
    cwd,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    ...(signal ? { signal } : {}),
  })
  if (signal?.aborted) throw signal.reason
  // Exit code 1: no such key. Anything else (no git, a broken config, a git too old for --show-scope): unknown.
  if (error && error.code !== 1) return null
  const drivers = new Set<string>()
  // `--null`: scope NUL key NEWLINE value NUL, per entry.
  const fields = stdout.split('\0')
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i] as string
    const key = (fields[i + 1] as string).split('\n')[0] ?? ''
    const driver = FILTER_KEY.exec(key)?.[1]
    if (driver === undefined || !REPOSITORY_SCOPES.has(scope)) continue
    // `-c name=value` ends the name at its first `=`: a driver named with one cannot be overridden.
    if (driver.includes('=')) return null
    drivers.add(driver)
  }
  const options = ['-c', 'core.fsmonitor=false']
  for (const driver of drivers) options.push('-c', `filter.${driver}.clean=`, '-c', `filter.${driver}.process=`)
  return { options, localFilters: drivers.size > 0 }
}

/** Why git did not run in a restricted folder: it could not tell what the repository's config would run. */
export const RESTRICTED_GIT_UNKNOWN = 'git status is not read in this restricted folder: git could not list what its config would run'

/** `restrictedGit` found no safe way to run git in the folder (so it did not run). */
export class RestrictedGitUnknown extends Error {
  constructor() {
    super(RESTRICTED_GIT_UNKNOWN)
    this.name = 'RestrictedGitUnknown'
  }
}
