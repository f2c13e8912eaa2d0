import type { SandboxPolicy } from './policy'

/** A string literal in Seatbelt's profile language (a Scheme dialect). */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

function subpaths(paths: readonly string[]): string {
  return paths.map((p) => `(subpath ${sbplString(p)})`).join(' ')
}

/** Device files every command writes to (its output, /dev/null, terminals). */
const WRITABLE_DEVICES = ['(literal "/dev/null")', '(literal "/dev/zero")', '(literal "/dev/dtracehelper")', '(regex #"^/dev/fd/")', '(regex #"^/dev/tty")']

/**
 * The Seatbelt (`sandbox-exec -p`) profile for a policy on macOS. Everything is
 * allowed by default, then: writes only inside the writable roots (later rules win, so
 * the protected files and denied paths come after the writable roots), reads denied
 * for the denied paths, and outbound network — unix sockets of local daemons included,
 * unless `allowUnixSockets` — only to the proxy port on loopback, when there is one.
 */
export function seatbeltProfile(policy: SandboxPolicy, options: { proxyPort?: number; shareNetwork?: boolean } = {}): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)']
  lines.push(`(allow file-write* ${[subpaths(policy.writable), ...WRITABLE_DEVICES].filter(Boolean).join(' ')})`)
  if (policy.protectedWrites.length > 0) lines.push(`(deny file-write* ${subpaths(policy.protectedWrites)})`)
  if (policy.denyRead.length > 0) {
    lines.push(`(deny file-read* ${subpaths(policy.denyRead)})`)
    lines.push(`(deny file-write* ${subpaths(policy.denyRead)})`)
  }
  if (options.shareNetwork) {
    // A dev server keeps the network (binding, accepting, its own ports and APIs are allowed by default); local daemons' sockets stay closed.
    if (policy.allowUnixSockets !== true) lines.push('(deny network-outbound (remote unix-socket))')
    return `${lines.join('\n')}\n`
  }
  lines.push('(deny network-outbound)')
  if (options.proxyPort !== undefined) lines.push(`(allow network-outbound (remote ip "localhost:${options.proxyPort}"))`)
  if (policy.allowUnixSockets === true) {
    // Daemons' sockets, except those under denied paths (the docker socket, the agent's folder).
    lines.push('(allow network-outbound (remote unix-socket))')
    for (const path of policy.denyRead) lines.push(`(deny network-outbound (remote unix-socket (subpath ${sbplString(path)})))`)
  }
  return `${lines.join('\n')}\n`
}
