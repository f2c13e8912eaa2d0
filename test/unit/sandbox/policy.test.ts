import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { layeredSandbox } from '../../../src/main/core/config/sandbox-layers'
import { bwrapArgs } from '../../../src/main/core/sandbox/bwrap'
import { isSecretEnvName, scrubEnv } from '../../../src/main/core/sandbox/env'
import { sandboxPolicy, type SandboxPolicy } from '../../../src/main/core/sandbox/policy'
import { domainAllowed } from '../../../src/main/core/sandbox/proxy'
import { seatbeltProfile } from '../../../src/main/core/sandbox/seatbelt'
import { sandboxNotes } from '../../../src/main/core/sandbox/violations'
import { tempDir } from '../../support/temp'

function fixedPolicy(over: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    enabled: true,
    autoAllow: false,
    allowUnsandboxedRetry: false,
    writable: ['/Users/u/proj', '/private/tmp/hs/tmp'],
    protectedWrites: ['/Users/u/proj/.git/hooks', '/Users/u/proj/.mcp.json'],
    denyRead: ['/Users/u/.ssh', '/Users/u/Library/Application Support/Hotaru'],
    network: { mode: 'none' },
    tempDir: '/private/tmp/hs',
    projectRoot: '/Users/u/proj',
    ...over,
  }
}

describe('Seatbelt profile', () => {
  it('allows writes only in the writable roots, re-denies protected files, hides denied paths and blocks the network', () => {
    expect(seatbeltProfile(fixedPolicy())).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write* (subpath "/Users/u/proj") (subpath "/private/tmp/hs/tmp") (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/fd/") (regex #"^/dev/tty"))',
        '(deny file-write* (subpath "/Users/u/proj/.git/hooks") (subpath "/Users/u/proj/.mcp.json"))',
        '(deny file-read* (subpath "/Users/u/.ssh") (subpath "/Users/u/Library/Application Support/Hotaru"))',
        '(deny file-write* (subpath "/Users/u/.ssh") (subpath "/Users/u/Library/Application Support/Hotaru"))',
        '(deny network-outbound)',
        '',
      ].join('\n'),
    )
  })

  it('lets the proxy port through and escapes quotes in paths', () => {
    const profile = seatbeltProfile(fixedPolicy({ writable: ['/Users/u/we"ird\\dir'] }), { proxyPort: 40123 })
    expect(profile).toContain('(subpath "/Users/u/we\\"ird\\\\dir")')
    expect(profile.trim().split('\n').slice(-2)).toEqual(['(deny network-outbound)', '(allow network-outbound (remote ip "localhost:40123"))'])
  })

  it('with allowUnixSockets lets unix sockets through, except under denied paths', () => {
    const profile = seatbeltProfile(fixedPolicy({ allowUnixSockets: true }))
    expect(profile.trim().split('\n').slice(-4)).toEqual([
      '(deny network-outbound)',
      '(allow network-outbound (remote unix-socket))',
      '(deny network-outbound (remote unix-socket (subpath "/Users/u/.ssh")))',
      '(deny network-outbound (remote unix-socket (subpath "/Users/u/Library/Application Support/Hotaru")))',
    ])
  })
})

describe('a dev server that must be reachable (shareNetwork)', () => {
  it('keeps the network under Seatbelt but not local daemons’ sockets, and under bubblewrap shares the network namespace', () => {
    const profile = seatbeltProfile(fixedPolicy(), { shareNetwork: true, proxyPort: 40123 })
    expect(profile).not.toContain('(deny network-outbound)')
    expect(profile.trim().split('\n').at(-1)).toBe('(deny network-outbound (remote unix-socket))')
    expect(bwrapArgs(fixedPolicy(), { cwd: '/p', shareNetwork: true }, '/x/denied')).not.toContain('--unshare-net')
    expect(bwrapArgs(fixedPolicy(), { cwd: '/p' }, '/x/denied')).toContain('--unshare-net')
  })
})

describe('bubblewrap arguments', () => {
  it('binds / read-only, the writable roots read-write, protected files read-only and hides denied paths', () => {
    const root = realpathSync(tempDir())
    const project = join(root, 'proj')
    mkdirSync(join(project, '.git/hooks'), { recursive: true })
    mkdirSync(join(root, 'home/.ssh'), { recursive: true })
    writeFileSync(join(root, 'home/.netrc'), 'machine x')
    const policy = fixedPolicy({
      writable: [project],
      protectedWrites: [join(project, '.git/hooks'), join(project, '.mcp.json')],
      denyRead: [join(root, 'home/.ssh'), join(root, 'home/.netrc'), join(root, 'home/.aws')],
    })
    const args = bwrapArgs(policy, { cwd: project, asRoot: true }, '/x/denied')
    const joined = args.join(' ')
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/'])
    expect(args).toContain('--unshare-net')
    expect(joined).toContain('--cap-drop ALL')
    expect(joined).toContain(`--bind ${project} ${project}`)
    expect(joined).toContain(`--ro-bind ${project}/.git/hooks ${project}/.git/hooks`)
    // Missing protected files and denied paths get no mount (bwrap would create them on the host).
    expect(joined).not.toContain('.mcp.json')
    expect(joined).not.toContain('.aws')
    expect(joined).toContain(`--perms 0000 --tmpfs ${root}/home/.ssh --remount-ro ${root}/home/.ssh`)
    expect(joined).toContain(`--ro-bind /x/denied ${root}/home/.netrc`)
    expect(args.slice(-2)).toEqual(['--chdir', project])
    // The writable bind comes before the read-only protection that covers part of it.
    expect(joined.indexOf(`--bind ${project}`)).toBeLessThan(joined.indexOf(`--ro-bind ${project}/.git/hooks`))
  })
})

describe('sandbox policy', () => {
  it('always makes the project and a private temp dir writable and denies the defaults plus the data dir', () => {
    const root = realpathSync(tempDir())
    const project = join(root, 'proj')
    mkdirSync(project)
    const policy = sandboxPolicy(
      { enabled: true, allowWrite: ['~/cache', 'out-of-tree'], denyRead: ['~/secrets'] },
      { projectRoot: project, homeDir: join(root, 'home'), dataDir: join(root, 'data'), platform: 'linux' },
    )
    expect(policy.writable[0]).toBe(project)
    expect(policy.writable).toContain(join(policy.tempDir, 'tmp'))
    expect(policy.writable).toContain(join(root, 'home/cache'))
    expect(policy.writable).toContain(join(project, 'out-of-tree'))
    for (const p of ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker/config.json', '.netrc', '.npmrc', '.mozilla', 'secrets']) {
      expect(policy.denyRead).toContain(join(root, 'home', p))
    }
    expect(policy.denyRead).toContain(join(root, 'data'))
    expect(policy.network).toEqual({ mode: 'none' })
    expect(policy.protectedWrites).toContain(join(project, '.git/hooks'))
  })

  it('lets a git worktree write its data in the main repository but not its hooks', () => {
    const root = realpathSync(tempDir())
    mkdirSync(join(root, 'main/.git/worktrees/wt'), { recursive: true })
    writeFileSync(join(root, 'main/.git/worktrees/wt/commondir'), '../..\n')
    mkdirSync(join(root, 'wt'))
    writeFileSync(join(root, 'wt/.git'), `gitdir: ${join(root, 'main/.git/worktrees/wt')}\n`)
    const policy = sandboxPolicy({ enabled: true }, { projectRoot: join(root, 'wt'), homeDir: root, dataDir: join(root, 'd') })
    expect(policy.writable).toContain(join(root, 'main/.git/worktrees/wt'))
    expect(policy.writable).toContain(join(root, 'main/.git'))
    expect(policy.protectedWrites).toContain(join(root, 'main/.git/hooks'))
  })
})

describe('sandbox config layers', () => {
  it('lets a project only tighten what the user set', () => {
    const effective = layeredSandbox([
      { kind: 'global', sandbox: { enabled: false, autoAllow: true, network: { allowedDomains: ['a.com', 'b.com'] }, allowWrite: ['~/x'] } },
      { kind: 'project', sandbox: { enabled: true, autoAllow: true, allowUnsandboxedRetry: true, allowWrite: ['/'], denyRead: ['~/y'], network: { allowedDomains: ['b.com', 'evil.com'] } } },
    ])
    expect(effective).toEqual({ enabled: true, autoAllow: true, allowWrite: ['~/x'], denyRead: ['~/y'], network: { allowedDomains: ['b.com'] } })
  })

  it('ignores a project that switches the sandbox off or opens the network', () => {
    const effective = layeredSandbox([
      { kind: 'managed', sandbox: { enabled: true } },
      { kind: 'dot-hotaru', sandbox: { enabled: false, autoAllow: false, network: { allowedDomains: ['evil.com'] } } },
    ])
    expect(effective).toEqual({ enabled: true, autoAllow: false, network: 'none' })
  })
})

describe('sandbox environment', () => {
  it('drops provider keys and anything named like a secret', () => {
    const { env, dropped } = scrubEnv({
      PATH: '/bin',
      HOME: '/h',
      ANTHROPIC_API_KEY: 'k',
      OPENAI_API_KEY: 'k',
      GITHUB_TOKEN: 't',
      AWS_SECRET_ACCESS_KEY: 's',
      MY_SECRET: 's',
      DB_PASSWORD: 'p',
      HOTARU_CONFIG_CONTENT: '{}',
      TOKENIZERS_PARALLELISM: 'false',
    })
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', TOKENIZERS_PARALLELISM: 'false' })
    expect(dropped.sort()).toEqual(['ANTHROPIC_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'GITHUB_TOKEN', 'HOTARU_CONFIG_CONTENT', 'MY_SECRET', 'OPENAI_API_KEY'])
    expect(isSecretEnvName('NPM_TOKEN')).toBe(true)
  })
})

describe('sandbox notes', () => {
  const policy = fixedPolicy({ writable: ['/home/u/proj'], denyRead: ['/home/u/.ssh'], protectedWrites: ['/home/u/proj/.git/hooks'] })
  it('names writes outside the project, denied reads, protected files and the network', () => {
    const output = [
      "touch: cannot touch '/home/u/x': Read-only file system",
      '/bin/bash: line 1: ../x: Read-only file system',
      'cat: /home/u/.ssh/id_ed25519: Permission denied',
      "cp: cannot create regular file '.git/hooks/pre-commit': Read-only file system",
      'curl: (6) Could not resolve host: example.com',
      'touch: inside.txt: No such file or directory',
    ].join('\n')
    expect(sandboxNotes(output, policy, '/home/u/proj')).toEqual([
      'blocked by the sandbox: write outside the project: /home/u/x',
      'blocked by the sandbox: read of a denied path: /home/u/.ssh/id_ed25519',
      'blocked by the sandbox: protected file: /home/u/proj/.git/hooks/pre-commit',
      'blocked by the sandbox: network access (sandbox.network is "none")',
    ])
  })

  it('says nothing about errors inside the project', () => {
    expect(sandboxNotes('rm: cannot remove \'src/a\': Permission denied', policy, '/home/u/proj')).toEqual([])
  })
})

describe('domain allowlist', () => {
  it('matches exact hosts and *.subdomains', () => {
    expect(domainAllowed('registry.npmjs.org', ['registry.npmjs.org'])).toBe(true)
    expect(domainAllowed('api.github.com', ['*.github.com'])).toBe(true)
    expect(domainAllowed('github.com', ['*.github.com'])).toBe(false)
    expect(domainAllowed('evilgithub.com', ['*.github.com'])).toBe(false)
    expect(domainAllowed('127.0.0.1', ['example.com'])).toBe(false)
  })
})

describe('sandbox permissions by default', () => {
  it('ask for hosts off the allowlist and for running outside the sandbox, for every agent', async () => {
    const { agentDefaultRules, evaluate } = await import('../../../src/main/core/permission')
    for (const agent of ['build', 'plan', 'explore', 'general']) {
      expect(evaluate('sandbox_network', 'example.com', agentDefaultRules(agent))).toBe('ask')
      expect(evaluate('bash_unsandboxed', 'touch ../x', agentDefaultRules(agent))).toBe('ask')
    }
  })
})
