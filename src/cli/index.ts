import { APP_VERSION } from '../main/core/app/meta'
import { CliError } from './errors'

const HELP = `hotaru ${APP_VERSION} — an AI coding agent for your projects

Usage:
  hotaru <command> [options]

Commands:
  run          Run the agent on a message in a project (hotaru run --help)
  sessions     List, show and export sessions
  checkpoints  List, diff and restore checkpoints (hotaru checkpoints --help)
  review       Accept or reject a turn's changes (hotaru review --help)
  worktrees    List, diff, merge and remove worktrees (hotaru worktrees --help)
  mcp          MCP servers of a project (hotaru mcp list)
  lsp          Language servers: status, and the diagnostics of files (hotaru lsp --help)
  trust        Trust a folder, take it back, or list decisions (hotaru trust --help)
  preview      Start the project's dev server, its status, a screenshot (hotaru preview --help)
  serve        Serve the Hotaru UI to a browser on this machine (loopback only)

Options:
  -h, --help     Show help (also: hotaru <command> --help)
  -v, --version  Print the version

Environment:
  HOTARU_DATA_DIR        Where Hotaru keeps its database (default: the desktop app's data folder)
  HOTARU_CONFIG_CONTENT  Extra config as JSON, applied over the config files
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL  Provider credentials
`

type Command = (argv: string[]) => Promise<number>

// Commands load on demand: `--help` and `--version` stay instant, and each command
// pays only for the modules it uses.
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: () => import('./commands/run').then((m) => m.runRun),
  sessions: () => import('./commands/sessions').then((m) => m.runSessions),
  checkpoints: () => import('./commands/checkpoints').then((m) => m.runCheckpoints),
  review: () => import('./commands/review').then((m) => m.runReview),
  worktrees: () => import('./commands/worktrees').then((m) => m.runWorktrees),
  mcp: () => import('./commands/mcp').then((m) => m.runMcp),
  lsp: () => import('./commands/lsp').then((m) => m.runLsp),
  trust: () => import('./commands/trust').then((m) => m.runTrust),
  preview: () => import('./commands/preview').then((m) => m.runPreview),
  serve: () => import('./commands/serve').then((m) => m.runServe),
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(HELP)
    return first === undefined ? 1 : 0
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(`${APP_VERSION}\n`)
    return 0
  }
  const load = COMMANDS[first]
  if (!load) {
    process.stderr.write(`hotaru: unknown command "${first}"\n\n${HELP}`)
    return 2
  }
  try {
    const [command, { useEnvironmentPath }] = await Promise.all([load(), import('../main/core/mcp/shell-path')])
    // Started from a shell: its PATH is the user's, for language and MCP servers too.
    useEnvironmentPath()
    return await command(rest)
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`hotaru ${first}: ${error.message}\n`)
      return error.exitCode
    }
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`hotaru ${first}: ${message}\n`)
    return 1
  }
}

