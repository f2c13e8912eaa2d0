import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxPolicy } from './policy'

export interface BwrapOptions {
  cwd: string
  /** The child's fd that holds the seccomp program (see `seccomp.ts`). */
  seccompFd?: number
  /** This process runs as uid 0. */
  asRoot?: boolean
  /** Keep the machine's network (a dev server whose loopback ports must be reachable from outside). */
  shareNetwork?: boolean
}

/** An empty file nobody may read, bound over denied files (a missing file would look like "not found"). */
export function unreadableFile(policy: SandboxPolicy): string {
  const file = join(policy.tempDir, 'denied')
  if (!existsSync(file)) writeFileSync(file, '', { mode: 0o000 })
  chmodSync(file, 0o000)
  return file
}

function kind(path: string): 'dir' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file'
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing'
    // Unreadable to us: hide it as a file would be hidden.
    return 'file'
  }
}

/**
 * The bubblewrap arguments that confine a command: the whole filesystem read-only,
 * the writable roots bound read-write, protected files read-only again, denied paths
 * replaced by unreadable stand-ins, fresh /dev, /proc and namespaces, and no network
 * (the network namespace holds only loopback; the relay's IPC channel is the way out).
 * Order matters: a later mount covers an earlier one.
 */
export function bwrapArgs(policy: SandboxPolicy, options: BwrapOptions, unreadable: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
  args.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', ...(options.shareNetwork ? [] : ['--unshare-net']), '--die-with-parent')
  // Root (containers, CI) would otherwise keep CAP_DAC_OVERRIDE and read the unreadable stand-ins.
  if (options.asRoot) args.push('--cap-drop', 'ALL')
  for (const dir of policy.writable) if (existsSync(dir)) args.push('--bind', dir, dir)
  for (const path of policy.protectedWrites) if (existsSync(path)) args.push('--ro-bind', path, path)
  for (const path of policy.denyRead) {
    const found = kind(path)
    if (found === 'dir') args.push('--perms', '0000', '--tmpfs', path, '--remount-ro', path)
    else if (found === 'file') args.push('--ro-bind', unreadable, path)
  }
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd))
  args.push('--chdir', options.cwd)
  return args
}
