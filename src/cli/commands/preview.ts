import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { HotaruError } from '@shared/errors'
import type { ProjectInstance } from '../../main/core/project/instance'
import { resolveLaunch } from '../../main/core/preview/detect'
import { answers } from '../../main/core/preview/ready'
import { launchUrl } from '../../main/core/preview/urls'
import type { Services } from '../../main/core/services'
import { parseCommandArgs, stringOption, type ParsedArgs } from '../args'
import { cliServices, openProject } from '../context'
import { CliError } from '../errors'
import { mainProject } from './worktrees'

const USAGE = `Usage:
  hotaru preview start [--dir PATH] [--worktree NAME]
      Starts the project's dev server on its port, prints its URL once it answers, shows its output
      on stderr, and stops it (with everything it started) on Ctrl-C.
  hotaru preview status [--dir PATH] [--worktree NAME]
      How the preview starts (launch configuration or the detected one), its URL, and whether it answers.
  hotaru preview screenshot [--dir PATH] [--worktree NAME] [--out FILE]
      A JPEG of the preview page in headless Chromium (default preview.jpg). Uses the server already
      answering on the worktree's port, else starts one for the shot and stops it after.

How to start comes from .hotaru/launch.json, else a "dev" or "start" script of package.json (Vite and Next
recognised), else an index.html served as static files. Chromium: HOTARU_CHROMIUM, the preview.chromium
config key, or the first on PATH.`

const OPTIONS = { dir: { type: 'string' }, worktree: { type: 'string' } } as const

export async function runPreview(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  if (verb === 'start') return start(rest)
  if (verb === 'status') return status(rest)
  if (verb === 'screenshot') return screenshot(rest)
  throw new CliError(`unknown preview command "${verb}"\n\n${USAGE}`)
}

/** The project (or its worktree NAME), with its services; everything the command started ends after `use`. */
async function withProject(values: ParsedArgs['values'], use: (services: Services, project: ProjectInstance) => Promise<number>): Promise<number> {
  const services = await cliServices()
  try {
    const dir = stringOption(values, 'dir')
    const name = stringOption(values, 'worktree')
    const project = name === undefined ? openProject(services, dir) : (await services.worktrees.open(mainProject(services, dir), name)).project
    return await use(services, project)
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  } finally {
    await services.dispose()
  }
}

async function start(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, OPTIONS, USAGE)
  return withProject(values, async (services, project) => {
    await services.configs.of(project).load()
    const preview = services.previews.for(project)
    // The server's output, as its terminal tab shows it.
    const off = services.bus.on('pty:data', ({ id, data }) => {
      if (id === preview.status().terminalId) process.stderr.write(data)
    })
    const stopped = new Promise<string>((resolvePromise) => {
      process.once('SIGINT', () => resolvePromise('interrupted'))
      process.once('SIGTERM', () => resolvePromise('terminated'))
    })
    try {
      const status = await preview.start()
      process.stdout.write(`${status.url ?? ''}\n`)
      process.stderr.write(`preview "${status.name ?? ''}" (${status.source ?? ''}) is ready${status.attached ? ' (a server was already answering there)' : ''}; Ctrl-C stops it\n`)
      const exited = new Promise<string>((resolvePromise) => {
        const offStatus = services.bus.on('preview:status', (next) => {
          if (next.state !== 'exited') return
          offStatus.dispose()
          resolvePromise(next.error ?? 'the server exited')
        })
      })
      const reason = await Promise.race([stopped, exited])
      if (reason !== 'interrupted' && reason !== 'terminated') {
        process.stderr.write(`${reason}\n`)
        return 1
      }
      return 0
    } finally {
      off.dispose()
    }
  })
}

async function status(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, OPTIONS, USAGE)
  return withProject(values, async (_services, project) => {
    const launch = resolveLaunch(project.root)
    const port = launch.port ?? project.ports?.first
    const lines = [`configuration: ${launch.name} (${launch.source})`, `runs: ${launch.command ?? `static files of ${launch.staticRoot ?? ''}`}`]
    if (port === undefined) {
      lines.push('url: a free port is chosen when it starts (this folder has no port block)')
    } else {
      const url = launchUrl(launch.url, port)
      lines.push(`url: ${url}`, `state: ${(await answers(url)) ? 'answering' : 'not running'}`)
    }
    process.stdout.write(`${lines.join('\n')}\n`)
    return 0
  })
}

async function screenshot(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { ...OPTIONS, out: { type: 'string' } }, USAGE)
  const out = resolve(stringOption(values, 'out') ?? 'preview.jpg')
  return withProject(values, async (services, project) => {
    await services.configs.of(project).load()
    const preview = services.previews.for(project)
    const status = await preview.start()
    const shot = await (await preview.driver()).screenshot()
    writeFileSync(out, shot.data)
    process.stdout.write(`${out}\n`)
    process.stderr.write(`${shot.url} (${shot.width}×${shot.height}, ${Math.round(shot.data.length / 1024)} KB)${status.attached ? '' : '; the server started for it is stopped'}\n`)
    return 0
  })
}
