import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HotaruError } from '@shared/errors'
import { loadEventCheck } from '../../main/core/bus/events'
import { defaultDataDir } from '../../main/core/config/paths'
import { ProcessLauncher } from '../../main/core/process/launcher/launcher'
import { useProcessLauncher } from '../../main/core/process/spawn'
import { createServices } from '../../main/core/services'
import { detached } from '../../main/core/util/detached'
import { BACKGROUND_NICENESS, lowerRuntimeHelperThreads } from '../../main/core/util/thread-priority'
import { log } from '../../main/core/util/log'
import { createAppRouter } from '../../main/ipc'
import { startServer } from '../../main/serve/server'
import { LOOP_PROBE_ENV, startLoopProbe } from '../../main/serve/loop-probe'
import { parseCommandArgs, stringOption } from '../args'
import { CliError } from '../errors'

const USAGE = `Usage: hotaru serve [--port N] [--dir PATH] [--host ADDR [--allow-remote]]

Serves the Hotaru UI at http://127.0.0.1:PORT/?token=… (open the printed URL).

Options:
  --port N        Port to listen on; 0 (default) picks a free one
  --dir PATH      Open this folder as a project tab
  --host ADDR     Address to bind (default 127.0.0.1)
  --allow-remote  Allow a non-loopback --host (anyone with the token gets full access)
  -h, --help      Show this help`

/**
 * The built renderer sits next to the built CLI: out/cli → out/renderer. This
 * module may be the entry (out/cli) or a lazily loaded chunk (out/cli/assets).
 */
function rendererDir(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const candidates = [join(here, '..', 'renderer'), join(here, '..', '..', 'renderer')]
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? (candidates[0] as string)
}

export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      port: { type: 'string' },
      dir: { type: 'string' },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  )
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const portText = stringOption(values, 'port')
  const dir = stringOption(values, 'dir')
  const port = portText === undefined ? 0 : Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0–65535, got "${portText}"`)
  const renderer = rendererDir()
  if (!existsSync(join(renderer, 'index.html'))) {
    throw new CliError(`the UI is not built (${renderer} is missing); run "npm run build"`, 1)
  }

  const services = createServices({ dataDir: defaultDataDir(), transport: 'serve', ownProcesses: true, checkEvent: await loadEventCheck(process.env) })
  lowerRuntimeHelperThreads(BACKGROUND_NICENESS)
  const launcher = startLauncher()
  let server
  try {
    services.projects.restore()
    if (dir !== undefined) services.projects.openFolder(dir)
    server = await startServer({
      services,
      router: createAppRouter(services),
      rendererDir: renderer,
      host: stringOption(values, 'host'),
      port,
      allowRemote: values['allow-remote'] === true,
    })
  } catch (error) {
    await stopLauncher(launcher)
    await services.dispose()
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  }

  process.stdout.write(`Hotaru is serving at ${server.url}\n`)
  detached('warm-up', services.warmUp())
  // Benchmarks measure the event loop of a real server: one JSON line per turn on stderr.
  const stopProbe = process.env[LOOP_PROBE_ENV]
    ? startLoopProbe(services.bus, (turn) => process.stderr.write(`[loop-probe] ${JSON.stringify(turn)}\n`))
    : () => {}
  const running = server
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  stopProbe()
  await running.close()
  // Before the services: their shutdown ends every process carrying this server's owner token, the launcher's too.
  await stopLauncher(launcher)
  await services.dispose()
  return 0
}

/**
 * Processes (bash, git, rg…) are started from a small launcher process: forking this server, which
 * holds hundreds of MB once a large project is open, would hold its event loop for each one.
 * `HOTARU_PROCESS_LAUNCHER=0` starts them directly.
 */
function startLauncher(): ProcessLauncher | undefined {
  if (process.env.HOTARU_PROCESS_LAUNCHER === '0' || process.platform === 'win32') return undefined
  const launcher = new ProcessLauncher({
    onLost: (reason) => log.warn(`[process] the process launcher stopped (${reason}); processes are started directly from now on`),
  })
  launcher.start()
  useProcessLauncher(launcher)
  return launcher
}

async function stopLauncher(launcher: ProcessLauncher | undefined): Promise<void> {
  if (!launcher) return
  useProcessLauncher(undefined)
  await launcher.dispose()
}
