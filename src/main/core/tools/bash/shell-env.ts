import { runFile } from '../../process/spawn'
import { existsSync } from 'node:fs'
import { basename } from 'node:path'

/** Shells whose syntax is close enough to bash for commands written for bash. */
const SUPPORTED = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh'])

/** The shell commands run in: the configured one, else $SHELL, when bash-like; else bash. */
export function pickShell(configured?: string): string {
  for (const candidate of [configured, process.env.SHELL]) {
    if (candidate && SUPPORTED.has(basename(candidate)) && existsSync(candidate)) return candidate
  }
  if (existsSync('/bin/bash')) return '/bin/bash'
  return '/bin/sh'
}

export interface ShellEnv {
  env: NodeJS.ProcessEnv
  /** `login` when read from a login shell; `process` when that failed and this process's environment is used. */
  source: 'login' | 'process'
  error?: string
}

const cache = new Map<string, Promise<ShellEnv>>()
const LOGIN_TIMEOUT_MS = 5000
let processEnvOnly = false

/**
 * Commands get this process's environment instead of a login shell's: the CLI and `serve` are
 * started from a shell that already set it up, and a login shell costs 35–200 ms per start.
 */
export function useProcessEnvironment(): void {
  processEnvOnly = true
}

/**
 * The user's login-shell environment (PATH from their profile, version managers…),
 * read once per shell with `shell -l -c 'env -0'`. The app may be started from a
 * desktop launcher whose environment lacks all that. On failure the process
 * environment is used and the reason is kept for the UI.
 */
export function loginShellEnv(shell: string): Promise<ShellEnv> {
  if (processEnvOnly) return Promise.resolve({ env: { ...process.env }, source: 'process' })
  let pending = cache.get(shell)
  if (!pending) {
    pending = readLoginEnv(shell)
    cache.set(shell, pending)
  }
  return pending
}

function readLoginEnv(shell: string): Promise<ShellEnv> {
  return runFile(shell, ['-l', '-c', 'env -0'], { timeout: LOGIN_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024, env: process.env }).then(({ stdout, error }): ShellEnv => {
    if (error) return { env: { ...process.env }, source: 'process', error: `login shell environment unavailable: ${error.message}` }
    const env: NodeJS.ProcessEnv = {}
    for (const entry of stdout.split('\0')) {
      const eq = entry.indexOf('=')
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1)
    }
    if (!env.PATH) return { env: { ...process.env }, source: 'process', error: 'login shell printed no PATH' }
    return { env, source: 'login' }
  })
}

/**
 * Variables of the login environment a command does not get: `CDPATH` would send a
 * `cd sub` somewhere other than the folder the permission check resolved.
 */
const DROPPED = ['CDPATH']

/** What every command gets on top of the login environment: no pagers or prompts that would wait for input. */
export function commandEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(base).filter(([name]) => !DROPPED.includes(name)))
  return {
    ...kept,
    HOTARU: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    npm_config_yes: 'true',
    CI: base.CI ?? '',
  }
}
