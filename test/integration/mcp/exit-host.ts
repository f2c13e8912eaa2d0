/**
 * A host process for the no-orphans test: starts MCP servers (with grandchildren),
 * prints every process id below it as one JSON line, then ends the way the test asks
 * (`exit`: process.exit without disposing; `throw`: an uncaught error) — never
 * disposing, so only the exit guard can clean up.
 *
 *   node --import tsx test/integration/mcp/exit-host.ts <exit|throw> <project dir> <server argv JSON>
 */
import { McpManager } from '../../../src/main/core/mcp'
import { liveDescendants } from './helpers-proc'

const [how, projectRoot = '.', argvJson = '[]'] = process.argv.slice(2)
const argv = JSON.parse(argvJson) as string[]
const manager = new McpManager({
  servers: { a: { type: 'local', command: argv }, b: { type: 'local', command: argv } },
  projectRoot,
  projectMcpJson: false,
  loginShellPath: async () => ({ path: process.env.PATH ?? '', source: 'environment' }),
})
await manager.start()
const states = manager.statuses().map((s) => s.state)
// Grandchildren print their pid at start; give them a moment to exist.
await new Promise((resolve) => setTimeout(resolve, 300))
process.stdout.write(`${JSON.stringify({ states, pids: liveDescendants(process.pid) })}\n`)
if (how === 'throw') throw new Error('the host crashed on purpose')
process.exit(0)
