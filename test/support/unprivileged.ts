import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Root reads a chmod 000 file anyway (CAP_DAC_OVERRIDE). The command prefix that runs a process
 * without the capabilities that bypass permission bits, so it meets EACCES exactly as a user's
 * process does: empty when this process is not root, `setpriv` dropping them from the bounding
 * set when it is (the child keeps uid 0 but owner bits 000 now stop it).
 */
export function withoutPermissionBypass(): string[] {
  if (process.getuid?.() !== 0) return []
  return ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--']
}

/** A script in `dir` that runs `binary` with `withoutPermissionBypass()`, for code that takes a binary's path. */
export function unprivilegedWrapper(dir: string, binary: string): string {
  const wrapper = join(dir, `unprivileged-${binary.split('/').pop() ?? 'bin'}`)
  const prefix = withoutPermissionBypass().map((part) => JSON.stringify(part)).join(' ')
  writeFileSync(wrapper, `#!/bin/sh\nexec ${prefix} ${JSON.stringify(binary)} "$@"\n`)
  chmodSync(wrapper, 0o755)
  return wrapper
}
