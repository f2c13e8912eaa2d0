import { endianness } from 'node:os'

/**
 * A classic BPF seccomp program (what `bwrap --seccomp FD` installs before it runs the
 * command) that refuses `socket(AF_UNIX, …)` with EPERM and allows every other call.
 * Unix sockets of daemons outside the denied paths (a session bus, a database, an
 * editor's control socket) would otherwise let a command act outside the sandbox.
 * `socketpair` stays allowed: its sockets are connected to each other only.
 * `io_uring_setup` is refused too, since an io_uring can create sockets past seccomp.
 */

interface ArchInfo {
  /** AUDIT_ARCH_* of `seccomp_data.arch`. */
  audit: number
  socket: number
  ioUringSetup: number
  /** x32 calls carry this bit on x86_64; they must not slip past the numbers above. */
  x32Bit?: number
}

const ARCHES: Record<string, ArchInfo> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32Bit: 0x40000000 },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
}

const BPF_LD_W_ABS = 0x20
const BPF_JEQ_K = 0x15
const BPF_RET_K = 0x06
const SECCOMP_RET_KILL_PROCESS = 0x80000000
const SECCOMP_RET_ERRNO = 0x00050000
const SECCOMP_RET_ALLOW = 0x7fff0000
const EPERM = 1
const AF_UNIX = 1
/** Offsets in `struct seccomp_data`: nr, arch, then (after the instruction pointer) args[0]'s low half on little-endian. */
const OFFSET_NR = 0
const OFFSET_ARCH = 4
const OFFSET_ARG0 = 16

type Instruction = { code: number; k: number; jt?: string; jf?: string } | { label: string }

/** Whether the filter can be built for this machine (`process.arch` names). */
export function unixSocketFilterSupported(arch: string = process.arch): boolean {
  return arch in ARCHES && endianness() === 'LE'
}

/** Why unix sockets are not filtered on this machine (settings, `hotaru run`). */
export function unixSocketsUnfiltered(arch: string = process.arch): string {
  return `unix sockets cannot be filtered on ${arch} (the seccomp filter knows x64 and arm64)`
}

/** The compiled program: 8-byte `struct sock_filter` entries in the machine's byte order. */
export function unixSocketFilter(arch: string = process.arch): Buffer {
  const info = ARCHES[arch]
  if (!info || endianness() !== 'LE') throw new Error(`no unix-socket seccomp filter for ${arch}`)
  const nrChecks: Instruction[] = [
    { code: BPF_JEQ_K, k: info.socket, jt: 'socket' },
    { code: BPF_JEQ_K, k: info.ioUringSetup, jt: 'deny' },
  ]
  if (info.x32Bit !== undefined) {
    nrChecks.push({ code: BPF_JEQ_K, k: info.x32Bit | info.socket, jt: 'socket' }, { code: BPF_JEQ_K, k: info.x32Bit | info.ioUringSetup, jt: 'deny' })
  }
  return assemble([
    { code: BPF_LD_W_ABS, k: OFFSET_ARCH },
    // Calls of another ABI (i386 on x86_64, say) have other numbers: the process is ended rather than let through.
    { code: BPF_JEQ_K, k: info.audit, jf: 'kill' },
    { code: BPF_LD_W_ABS, k: OFFSET_NR },
    ...nrChecks,
    { code: BPF_RET_K, k: SECCOMP_RET_ALLOW },
    { label: 'socket' },
    { code: BPF_LD_W_ABS, k: OFFSET_ARG0 },
    { code: BPF_JEQ_K, k: AF_UNIX, jt: 'deny' },
    { code: BPF_RET_K, k: SECCOMP_RET_ALLOW },
    { label: 'deny' },
    { code: BPF_RET_K, k: SECCOMP_RET_ERRNO | EPERM },
    { label: 'kill' },
    { code: BPF_RET_K, k: SECCOMP_RET_KILL_PROCESS },
  ])
}

/** Resolves labels to the relative jumps classic BPF uses (forward only, at most 255). */
function assemble(program: Instruction[]): Buffer {
  const labels = new Map<string, number>()
  const code: Array<Exclude<Instruction, { label: string }>> = []
  for (const item of program) {
    if ('label' in item) labels.set(item.label, code.length)
    else code.push(item)
  }
  const out = Buffer.alloc(code.length * 8)
  code.forEach((ins, index) => {
    const jump = (label: string | undefined): number => {
      if (label === undefined) return 0
      const target = labels.get(label)
      const offset = target === undefined ? -1 : target - index - 1
      if (offset < 0 || offset > 255) throw new Error(`bad seccomp jump to ${label}`)
      return offset
    }
    out.writeUInt16LE(ins.code, index * 8)
    out.writeUInt8(jump(ins.jt), index * 8 + 2)
    out.writeUInt8(jump(ins.jf), index * 8 + 3)
    out.writeUInt32LE(ins.k >>> 0, index * 8 + 4)
  })
  return out
}
