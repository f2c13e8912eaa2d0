import { execFileSync } from 'node:child_process'
import { chmodSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './temp'

/**
 * Makes the git repository at `root` run programs on a plain `git status`, as a repository unpacked
 * from an archive can: an fsmonitor hook, and a clean filter for every file (git runs it for each
 * file whose stat data changed, so every file's times are moved, as after unpacking). Each program
 * leaves a file named for it (`fsmonitor`, `filter`) in the returned folder when it runs.
 */
export function makeGitHostile(root: string): string {
  const marks = tempDir()
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' })
  // Listed before the config is set: from then on git itself runs the programs.
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
  const monitor = join(root, '.git', 'monitor.sh')
  writeFileSync(monitor, `#!/bin/sh\ntouch '${join(marks, 'fsmonitor')}'\n`)
  chmodSync(monitor, 0o755)
  git('config', 'core.fsmonitor', monitor)
  writeFileSync(join(root, '.gitattributes'), '* filter=evil\n')
  git('config', 'filter.evil.clean', `touch '${join(marks, 'filter')}'; cat`)
  const later = new Date(Date.now() + 5_000)
  for (const file of tracked) utimesSync(join(root, file), later, later)
  return marks
}
