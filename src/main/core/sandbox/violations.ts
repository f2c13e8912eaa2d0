import { isAbsolute, resolve } from 'node:path'
import { isWithin, realish, type SandboxPolicy } from './policy'

/** `tool: path: Read-only file system`, `bash: line 1: path: Permission denied`, `cannot touch 'path': …`. */
const FS_ERROR = /(?:^|[\s:'"`‘])((?:\/|\.\.?\/|~\/)[^\s:'"`’]*|[^\s:'"`‘’/][^\s:'"`’]*\/[^\s:'"`’]*)['"`’]?:\s*(Read-only file system|Permission denied|Operation not permitted|No such file or directory)/gm
/** Node and other runtimes: `EROFS: read-only file system, open 'path'`. */
const ERRNO_ERROR = /\b(EROFS|EACCES|EPERM|ENOENT): [^,\n]*, \w+ '([^'\n]+)'/g
const ERRNO_TEXT: Record<string, string> = {
  EROFS: 'Read-only file system',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
}
/** Node's refusal by the unix-socket seccomp filter: `connect EPERM /run/x.sock`. */
const UNIX_SOCKET_ERROR = /\bconnect EPERM (\/[^\s'"]+)/g
const NETWORK_ERROR = /Could not resolve host|Couldn't connect to server|Failed to connect to|Network is unreachable|Temporary failure in name resolution|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Name or service not known|connect ENETUNREACH|ECONNREFUSED/i

/**
 * Short notes on what the sandbox stopped, read from a command's output: writes to
 * paths outside the writable roots, reads of denied paths, network access, unix
 * sockets the seccomp filter refused, and domains the proxy refused. Best effort — only errors that name a path can be tied
 * to the sandbox; the command's own output is always returned as it is.
 */
export function sandboxNotes(output: string, policy: SandboxPolicy, cwd: string, blockedDomains: readonly string[] = []): string[] {
  const notes = new Set<string>()
  const found: Array<{ raw: string; error: string }> = []
  for (const match of output.matchAll(FS_ERROR)) found.push({ raw: match[1] ?? '', error: match[2] ?? '' })
  for (const match of output.matchAll(ERRNO_ERROR)) found.push({ raw: match[2] ?? '', error: ERRNO_TEXT[match[1] ?? ''] ?? '' })
  for (const { raw, error } of found) {
    // Through symlinks, as the kernel saw it: `link/x` may well be outside the project.
    const abs = realish(isAbsolute(raw) ? resolve(raw) : resolve(cwd, raw))
    const denied = policy.denyRead.find((d) => isWithin(abs, d))
    if (denied) {
      notes.add(`blocked by the sandbox: read of a denied path: ${abs}`)
      continue
    }
    if (error === 'No such file or directory') continue
    if (policy.protectedWrites.some((p) => isWithin(abs, p))) notes.add(`blocked by the sandbox: protected file: ${abs}`)
    else if (!policy.writable.some((w) => isWithin(abs, w))) notes.add(`blocked by the sandbox: write outside the project: ${abs}`)
  }
  if (policy.allowUnixSockets !== true) {
    for (const match of output.matchAll(UNIX_SOCKET_ERROR)) notes.add(`blocked by the sandbox: unix socket ${match[1] ?? ''} (sandbox.allowUnixSockets is off)`)
  }
  for (const domain of blockedDomains) notes.add(`blocked by the sandbox: network access to ${domain} (not in sandbox.network.allowedDomains)`)
  if (blockedDomains.length === 0 && NETWORK_ERROR.test(output)) {
    notes.add(
      policy.network.mode === 'none'
        ? 'blocked by the sandbox: network access (sandbox.network is "none")'
        : 'blocked by the sandbox: network access goes only through the proxy (HTTP_PROXY) to sandbox.network.allowedDomains',
    )
  }
  return [...notes]
}
