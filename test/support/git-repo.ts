import { execFileSync } from 'node:child_process'
import { tempDir, writeTree } from './temp'

/** Runs git in `cwd` with a fixed identity (no user config needed); returns stdout. */
export function runGit(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  })
}

/** A temp git repository with `files` committed on `main`. */
export function gitRepo(files: Record<string, string | Buffer>): string {
  const root = writeTree(tempDir('hotaru-repo-'), files)
  runGit(root, ['init', '--quiet', '--initial-branch=main'])
  runGit(root, ['add', '-A'])
  runGit(root, ['commit', '--quiet', '-m', 'initial'])
  return root
}
