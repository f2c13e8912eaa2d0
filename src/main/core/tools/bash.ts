import { statSync } from 'node:fs'
import { z } from 'zod'
import { isPermissionError } from '../permission/errors'
import { Permission } from '../permission/names'
import type { PermissionAsk } from '../permission/service'
import { analyzeShell } from '../permission/shell/analyze'
import { bashAsksOf } from '../permission/shell/bash-asks'
import { changesNoFiles, isReadOnlyCommand } from '../permission/shell/read-only'
import { lockKey } from './fs/file-lock'
import { SandboxUnavailableError, type CommandSandbox, type SandboxLaunch } from '../sandbox/sandbox'
import { BoundedText } from '../util/bounded-text'
import { waitForExit } from '../process/exit'
import { startProcess, type StartedProcess } from '../process/spawn'
import { OutputSpool } from './bash/output-spool'
import { describeLeft, groupAlive, killTree, TREE_VARIABLE, treeTag, type KillResult } from '../process/tree'
import { commandEnv, loginShellEnv, pickShell } from './bash/shell-env'
import { spawnSandboxed } from './bash/sandboxed-spawn'
import description from './bash.txt?raw'
import { ToolError } from './errors'
import { resolveForTool } from './fs/access'
import { defineTool, type ToolContext, type ToolOutput } from './tool'

export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000
/** How much of the output's end is kept in memory; the model sees at most the wrapper's limit of it, the saved file all of it. */
export const BASH_MAX_CAPTURE_CHARS = 1024 * 1024
/** How much of the running output the UI receives per progress update. */
const PROGRESS_TAIL_CHARS = 16 * 1024
const PROGRESS_INTERVAL_MS = 100

const parameters = z.object({
  command: z.string().min(1).describe('The command to run'),
  description: z.string().optional().describe('What the command does, in 5-10 words'),
  timeout: z.number().int().positive().max(BASH_MAX_TIMEOUT_MS).optional().describe('Timeout in milliseconds (default 120000, max 600000)'),
  workdir: z.string().optional().describe('Directory to run in, relative to the project root (default: the root)'),
  background: z.boolean().optional().describe('Start in the background and return an id at once (servers, watchers)'),
  unsandboxed: z
    .boolean()
    .optional()
    .describe('Run outside the OS sandbox: only to retry one command the sandbox blocked, only where allowed; the user is always asked'),
})

/** Permissions of the sandbox's own asks (ask by default, see permission/defaults.ts). */
export const SandboxPermission = {
  Network: Permission.SandboxNetwork,
  Unsandboxed: Permission.BashUnsandboxed,
} as const

/** Asks of a command line that `autoAllow` answers for a sandboxed command (paths outside the project are `external_directory`). */
const AUTO_ALLOWED: ReadonlySet<string> = new Set([Permission.Bash, Permission.Edit, Permission.Read])

/**
 * The command's own asks. With `autoAllow` a sandboxed command needs no ask for the
 * command itself or for redirects inside the project: the sandbox bounds what it can
 * do. A rule that denies still denies, and asks about paths outside the project
 * (external_directory) are still put.
 */
async function askForCommand(asks: PermissionAsk[], ctx: ToolContext, autoAllow: boolean): Promise<void> {
  for (const ask of asks) {
    if (autoAllow && AUTO_ALLOWED.has(ask.permission) && ctx.check) {
      if ((await ctx.check(ask)) !== 'deny') continue
    }
    const narrowed = await onlyWhatIsNotAllowed(ask, ctx)
    if (narrowed) await ctx.ask(narrowed)
  }
}

/**
 * The files a recursive reader walks can be thousands: the ask names only those the
 * rules do not allow (`.env` under `grep -r`), and none at all when every one is allowed.
 */
async function onlyWhatIsNotAllowed(ask: PermissionAsk, ctx: ToolContext): Promise<PermissionAsk | undefined> {
  const check = ctx.check
  if (ask.metadata?.recursive !== true || !check || ask.forceAsk) return ask
  if ((await check(ask)) === 'allow') return undefined
  const left: string[] = []
  for (const pattern of ask.patterns) {
    if ((await check({ ...ask, patterns: [pattern], always: [pattern] })) !== 'allow') left.push(pattern)
  }
  const kept = new Set(left)
  return { ...ask, patterns: left, always: ask.always.filter((p) => kept.has(p)) }
}

/** Hosts outside the allowlist are a permission ask ("allow once / always for this host"). */
function domainDecider(ctx: ToolContext, command: string): (host: string) => Promise<boolean> {
  return async (host) => {
    try {
      await ctx.ask({
        permission: SandboxPermission.Network,
        patterns: [host],
        always: [host],
        title: `Network access to ${host} from a sandboxed command`,
        metadata: { command, host },
      })
      return true
    } catch (error) {
      if (isPermissionError(error)) return false
      throw error
    }
  }
}

async function workingDirectory(ctx: ToolContext, workdir: string | undefined): Promise<string> {
  if (!workdir) return ctx.root
  const resolved = await resolveForTool(ctx, workdir)
  let isDir = false
  try {
    isDir = statSync(resolved.abs).isDirectory()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (!isDir) throw new ToolError(`workdir "${workdir}" is not an existing directory.`)
  return resolved.abs
}

export const bashTool = defineTool({
  id: 'bash',
  description,
  parameters,
  truncate: 'tail',
  writesNothing: (args, ctx) => isReadOnlyCommand(args.command, args.workdir ? lockKey(ctx.root, args.workdir) : ctx.root),
  async execute(args, ctx) {
    const cwd = await workingDirectory(ctx, args.workdir)
    const sandbox = ctx.sandbox?.enabled && !args.unsandboxed ? ctx.sandbox : undefined
    if (args.unsandboxed && ctx.sandbox?.enabled && !ctx.sandbox.policy.allowUnsandboxedRetry) {
      throw new ToolError('Running a command outside the sandbox is not allowed here (sandbox.allowUnsandboxedRetry is off). Find a way that works inside the project.')
    }
    // Fail closed: with the sandbox on but unable to run, nothing runs unsandboxed instead.
    if (sandbox && !sandbox.support.available) throw new ToolError(new SandboxUnavailableError(sandbox.support).message)
    // One analysis of the line answers both: what to ask, and whether it can change files.
    const analysis = await analyzeShell(args.command, cwd)
    const asks = bashAsksOf(args.command, analysis, ctx.root)
    const readOnly = changesNoFiles(analysis)
    await askForCommand(asks, ctx, sandbox?.policy.autoAllow === true)
    if (args.unsandboxed && ctx.sandbox?.enabled) {
      await ctx.ask({
        permission: SandboxPermission.Unsandboxed,
        patterns: [args.command],
        always: [],
        title: `Run outside the sandbox: ${args.command}`,
        metadata: { command: args.command, unsandboxed: true },
      })
    }
    const shell = pickShell(ctx.shell)
    const loginEnv = await loginShellEnv(shell)
    // Every process of the command carries its tag, so a kill finds even one that double-forked away.
    const tag = treeTag()
    const env = { ...commandEnv(loginEnv.env), ...ctx.env, [TREE_VARIABLE]: tag }
    const title = args.description ?? args.command
    const envNote: Record<string, unknown> = loginEnv.error ? { envWarning: loginEnv.error } : {}
    if (args.unsandboxed && ctx.sandbox?.enabled) envNote.unsandboxed = true
    if (args.background) {
      // Nobody may be there to answer a network ask once the turn is over: off-list hosts are refused.
      const launch = sandbox ? await sandbox.wrap([shell, '-c', args.command], { cwd, env }) : undefined
      let info: Awaited<ReturnType<typeof ctx.background.start>>
      try {
        info = await ctx.background.start({
          command: args.command,
          cwd,
          env,
          shell,
          sessionId: ctx.sessionId,
          tag,
          ...(args.description ? { description: args.description } : {}),
          ...(launch ? { launch } : {}),
        })
      } catch (error) {
        await launch?.dispose()
        throw error
      }
      if (launch) envNote.sandboxed = true
      return {
        title,
        output:
          `Started in the background with id ${info.id} (pid ${info.pid}). ` +
          `Read its new output with bash_output {"id": "${info.id}"}; stop it with bash_kill {"id": "${info.id}"}.`,
        metadata: { background: true, id: info.id, pid: info.pid, cwd, description: args.description, ...envNote },
      }
    }
    const launch = sandbox ? await sandbox.wrap([shell, '-c', args.command], { cwd, env, decideDomain: domainDecider(ctx, args.command) }) : undefined
    try {
      const result = await runForeground(args.command, { cwd, env, tag, shell, timeoutMs: args.timeout ?? BASH_DEFAULT_TIMEOUT_MS, ctx, title, envNote, ...(sandbox && launch ? { sandbox: { sandbox, launch } } : {}) })
      // A line that provably writes nothing lists no changes: its step needs no checkpoint work.
      return readOnly ? { ...result, changedPaths: [] } : result
    } finally {
      await launch?.dispose()
    }
  },
})


async function runForeground(
  command: string,
  options: {
    cwd: string
    env: NodeJS.ProcessEnv
    tag: string
    shell: string
    timeoutMs: number
    ctx: ToolContext
    title: string
    envNote: Record<string, unknown>
    sandbox?: { sandbox: CommandSandbox; launch: SandboxLaunch }
  },
): Promise<ToolOutput> {
  const { ctx } = options
  ctx.signal.throwIfAborted()
  const started = Date.now()
  const launch = options.sandbox?.launch
  // A sandboxed launch hands fds and an IPC channel to its child: Node's own spawn. Others go through
  // `startProcess`, which in `serve` does not fork this large process.
  const child: StartedProcess = launch
    ? spawnSandboxed(launch, options.cwd)
    : await startProcess(options.shell, ['-c', command], {
        cwd: options.cwd,
        env: options.env,
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'pipe', 'pipe'],
      })
  const output = new BoundedText({ maxChars: BASH_MAX_CAPTURE_CHARS })
  const spool = new OutputSpool(ctx.outputDir, ctx.callId)
  let lastProgress = 0
  let progressTimer: NodeJS.Timeout | undefined
  const progress = (): void => {
    progressTimer = undefined
    lastProgress = Date.now()
    ctx.metadata({ title: options.title, metadata: { output: output.tail(PROGRESS_TAIL_CHARS), running: true } })
  }
  const onData = (stream: string) => (chunk: Buffer) => {
    output.write(chunk, stream)
    spool.write(chunk)
    if (progressTimer) return
    progressTimer = setTimeout(progress, Math.max(0, PROGRESS_INTERVAL_MS - (Date.now() - lastProgress)))
  }
  child.stdout?.on('data', onData('stdout'))
  child.stderr?.on('data', onData('stderr'))
  let spawnError: Error | undefined
  child.on('error', (error) => {
    spawnError = error
  })
  let stopReason: 'timeout' | 'abort' | undefined
  let killing: Promise<KillResult> | undefined
  const stop = (reason: 'timeout' | 'abort'): void => {
    if (stopReason) return
    stopReason = reason
    if (child.pid) killing = killTree(child.pid, { tag: options.tag })
  }
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs)
  const onAbort = (): void => stop('abort')
  ctx.signal.addEventListener('abort', onAbort, { once: true })
  // Stop may have been pressed while the process was being started.
  if (ctx.signal.aborted) onAbort()
  let exit: { code: number | null; signal: NodeJS.Signals | null }
  try {
    exit = await waitForExit(child)
  } finally {
    clearTimeout(timer)
    ctx.signal.removeEventListener('abort', onAbort)
    if (progressTimer) clearTimeout(progressTimer)
  }
  // Whatever the command left running in its group ends with it; servers belong in background mode.
  // The group is probed with signal 0 first: after a normal exit it is empty and no `ps` runs.
  // A contained launch needs neither: bubblewrap's init may still be tearing down for a moment
  // (the group looks alive), and its pid namespace takes everything inside with it.
  if (!stopReason && child.pid && !launch?.contained && groupAlive(child.pid)) killing = killTree(child.pid, { graceMs: 500, tag: options.tag })
  const left = killing ? describeLeft(await killing) : undefined
  child.stdout?.destroy()
  child.stderr?.destroy()
  output.end()
  if (spawnError) throw new ToolError(`Could not start ${options.shell}: ${spawnError.message}`)
  const durationMs = Date.now() - started
  const saved = spool.finish()
  let text = output.text()
  // With a saved copy, truncation says what was dropped and where all of it is.
  if (output.dropped > 0 && !saved) text = `[${output.dropped} earlier characters of output were dropped]\n${text}`
  const notes: string[] = []
  if (stopReason === 'timeout') notes.push(`The command timed out after ${options.timeoutMs} ms and was killed with every process it started.`)
  if (stopReason === 'abort') notes.push('The command was aborted by the user and killed.')
  if (left) notes.push(`Some processes the command started could not be ended (${left}).`)
  const blocked = options.sandbox ? [...options.sandbox.sandbox.notes(text, options.cwd, options.sandbox.launch), ...(await options.sandbox.launch.settle())] : []
  notes.push(...blocked)
  if (blocked.length > 0 && options.sandbox?.sandbox.policy.allowUnsandboxedRetry) {
    notes.push('If this command must run outside the sandbox, call bash again with "unsandboxed": true (the user will be asked).')
  }
  if (exit.code !== null) notes.push(`Exit code: ${exit.code}`)
  else if (exit.signal && !stopReason) notes.push(`Terminated by signal ${exit.signal}`)
  const body = text.trim() === '' ? '(no output)' : text.replace(/\n$/, '')
  const trailer = `\n\n${notes.join('\n')}`
  return {
    title: options.title,
    output: `${body}${trailer}`,
    ...(saved ? { saved: { ...saved, trailer } } : {}),
    metadata: {
      output: output.tail(PROGRESS_TAIL_CHARS),
      exitCode: exit.code,
      signal: exit.signal,
      timedOut: stopReason === 'timeout',
      aborted: stopReason === 'abort',
      cwd: options.cwd,
      durationMs,
      ...(left ? { processesLeft: left } : {}),
      ...options.envNote,
      ...(options.sandbox
        ? { sandboxed: true, ...(blocked.length > 0 ? { sandboxBlocked: blocked } : {}), ...(options.sandbox.launch.droppedEnv.length > 0 ? { droppedEnv: options.sandbox.launch.droppedEnv } : {}) }
        : {}),
    },
  }
}
