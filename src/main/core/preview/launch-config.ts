import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { configInvalid, type ConfigFileRef } from '../config/config-error'
import { parseJsonc } from '../config/jsonc'
import { toConfigIssues } from '../config/zod-issues'

/** Where a project keeps its launch configurations, relative to its root. */
export const LAUNCH_FILE = '.hotaru/launch.json'

/**
 * One way to start a preview. Either a `command` (a dev server, run by the shell in `cwd` with
 * `HOTARU_PORT` and `PORT` set) or `static` (a folder served by the built-in static server).
 */
const LaunchConfiguration = z
  .object({
    name: z.string().min(1).max(100),
    /** A shell command line; `$PORT` / `$HOTARU_PORT` hold the port it should listen on. */
    command: z.string().min(1).max(4000).optional(),
    /** A folder (relative to the project) served as static files instead of running a command. */
    static: z.string().min(1).max(1000).optional(),
    /** Folder to run in, relative to the project root. */
    cwd: z.string().max(1000).optional(),
    /** Variables on top of the command's environment. */
    env: z.record(z.string(), z.string()).optional(),
    /** The port the server listens on, when it does not follow `$PORT` (default: the worktree's port). */
    port: z.number().int().min(1).max(65535).optional(),
    /** The URL to open; `${port}` is replaced. Default `http://localhost:${port}/`. Must be loopback. */
    url: z.string().min(1).max(2000).optional(),
    /** How long to wait for the URL to answer, in seconds (default 60). */
    readyTimeout: z.number().positive().max(600).optional(),
  })
  .strict()
  .refine((c) => (c.command === undefined) !== (c.static === undefined), { message: 'set exactly one of "command" and "static"' })

export const LaunchFile = z
  .object({
    $schema: z.string().optional(),
    configurations: z.array(LaunchConfiguration).min(1),
  })
  .strict()

export type LaunchConfiguration = z.infer<typeof LaunchConfiguration>

/** The launch configurations of `.hotaru/launch.json` under `root`, or undefined when there is none. Throws `ConfigInvalid` naming the file and JSON path. */
export function readLaunchFile(root: string): LaunchConfiguration[] | undefined {
  const path = join(root, LAUNCH_FILE)
  if (!existsSync(path)) return undefined
  const ref: ConfigFileRef = { path, display: LAUNCH_FILE }
  const warnings: string[] = []
  const document = parseJsonc(readFileSync(path, 'utf8'), ref, warnings)
  const parsed = LaunchFile.safeParse(document, { reportInput: true })
  if (!parsed.success) throw configInvalid(ref, toConfigIssues(parsed.error.issues))
  const names = new Set<string>()
  for (const [index, configuration] of parsed.data.configurations.entries()) {
    if (names.has(configuration.name)) {
      throw configInvalid(ref, [{ path: `configurations[${index}].name`, message: `"${configuration.name}" is used twice` }])
    }
    names.add(configuration.name)
  }
  return parsed.data.configurations
}
