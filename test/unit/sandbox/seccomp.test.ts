import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxPolicy } from '../../../src/main/core/sandbox/policy'
import { CommandSandbox } from '../../../src/main/core/sandbox/sandbox'
import { unixSocketFilter, unixSocketFilterSupported } from '../../../src/main/core/sandbox/seccomp'
import { sandboxStatusLine } from '../../../src/main/core/sandbox/status'
import { tempDir } from '../../support/temp'

const ALLOW = 0x7fff0000
const EPERM = 0x00050001
const KILL = 0x80000000

/** Runs a classic BPF seccomp program the way the kernel does, over one `seccomp_data`. */
function run(program: Buffer, data: { arch: number; nr: number; arg0: number }): number {
  const word = (offset: number): number => ({ 0: data.nr, 4: data.arch, 16: data.arg0 })[offset] ?? 0
  let acc = 0
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const code = program.readUInt16LE(pc * 8)
    const jt = program.readUInt8(pc * 8 + 2)
    const jf = program.readUInt8(pc * 8 + 3)
    const k = program.readUInt32LE(pc * 8 + 4)
    if (code === 0x20) acc = word(k)
    else if (code === 0x15) pc += acc === k ? jt : jf
    else if (code === 0x06) return k
    else throw new Error(`unexpected instruction ${code}`)
  }
  throw new Error('ran off the end')
}

describe('the unix-socket seccomp filter', () => {
  const x64 = unixSocketFilter('x64')
  const arm64 = unixSocketFilter('arm64')

  it('refuses socket(AF_UNIX) with EPERM and allows other families and calls (x86_64)', () => {
    const arch = 0xc000003e
    expect(run(x64, { arch, nr: 41, arg0: 1 })).toBe(EPERM)
    expect(run(x64, { arch, nr: 41, arg0: 2 })).toBe(ALLOW) // AF_INET
    expect(run(x64, { arch, nr: 41, arg0: 10 })).toBe(ALLOW) // AF_INET6
    expect(run(x64, { arch, nr: 53, arg0: 1 })).toBe(ALLOW) // socketpair
    expect(run(x64, { arch, nr: 0, arg0: 1 })).toBe(ALLOW) // read
    expect(run(x64, { arch, nr: 0x40000000 | 41, arg0: 1 })).toBe(EPERM) // the x32 ABI's socket
    expect(run(x64, { arch, nr: 425, arg0: 0 })).toBe(EPERM) // io_uring_setup
  })

  it('does the same with aarch64 numbers', () => {
    const arch = 0xc00000b7
    expect(run(arm64, { arch, nr: 198, arg0: 1 })).toBe(EPERM)
    expect(run(arm64, { arch, nr: 198, arg0: 2 })).toBe(ALLOW)
    expect(run(arm64, { arch, nr: 41, arg0: 1 })).toBe(ALLOW) // 41 is another call there
    expect(run(arm64, { arch, nr: 425, arg0: 0 })).toBe(EPERM)
  })

  it('ends a process that calls through another ABI (i386 on x86_64), whose numbers differ', () => {
    expect(run(x64, { arch: 0x40000003, nr: 359, arg0: 1 })).toBe(KILL)
    expect(run(arm64, { arch: 0xc000003e, nr: 41, arg0: 1 })).toBe(KILL)
  })

  it('knows x64 and arm64 only', () => {
    expect(unixSocketFilterSupported('x64')).toBe(true)
    expect(unixSocketFilterSupported('riscv64')).toBe(false)
    expect(() => unixSocketFilter('riscv64')).toThrow(/no unix-socket seccomp filter for riscv64/)
  })
})

describe('on a CPU the filter does not know', () => {
  const arch = process.arch
  const onCpu = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    Object.defineProperty(process, 'arch', { value: name, configurable: true })
    try {
      return await run()
    } finally {
      Object.defineProperty(process, 'arch', { value: arch, configurable: true })
    }
  }
  const sandboxFor = (config: { allowUnixSockets?: boolean }) => {
    const root = realpathSync(tempDir())
    const policy = sandboxPolicy({ enabled: true, ...config }, { projectRoot: root, homeDir: root, dataDir: join(root, 'd') })
    return new CommandSandbox(policy, { platform: 'linux', backend: 'bubblewrap', available: true, dependencies: [] })
  }

  it('runs commands unfiltered and says so, unless allowUnixSockets is set false, which refuses them', async () => {
    const launch = await onCpu('riscv64', () => sandboxFor({}).wrap(['true'], { cwd: '/', env: {} }))
    expect(launch.args).not.toContain('--seccomp')
    expect(launch.stdio).toEqual([])
    await launch.dispose()
    await expect(onCpu('riscv64', () => sandboxFor({ allowUnixSockets: false }).wrap(['true'], { cwd: '/', env: {} }))).rejects.toThrow(
      /cannot run: unix sockets cannot be filtered on riscv64 .*The command was not run/,
    )
    const status = await onCpu('riscv64', () => Promise.resolve(sandboxStatusLine({ enabled: true }, { projectRoot: '/p', homeDir: '/h', dataDir: '/d' })))
    expect(status).toContain('unix sockets cannot be filtered on riscv64')
  })

  it('passes the filter on fd 3 where it knows the CPU', async () => {
    const launch = await sandboxFor({}).wrap(['true'], { cwd: '/', env: {} })
    expect(launch.args.slice(launch.args.indexOf('--seccomp'), launch.args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '3'])
    expect(launch.stdio).toEqual([expect.any(Number)])
    await launch.dispose()
  })
})
