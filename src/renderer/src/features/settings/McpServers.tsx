import { useState, type FormEvent } from 'react'
import { useStore } from 'zustand'
import type { McpServerStatus } from '@shared/ipc/mcp'
import type { ChatController } from '../../stores/chat'
import { background } from '../../lib/background'

const STATE_LABEL: Record<McpServerStatus['state'], string> = {
  starting: 'starting',
  connected: 'connected',
  failed: 'failed',
  disabled: 'disabled',
}

function ServerRow({ server, chat }: { server: McpServerStatus; chat: ChatController }) {
  const [busy, setBusy] = useState(false)
  const [log, setLog] = useState(false)
  const run = (action: 'restart' | 'enable' | 'disable' | 'authenticate'): void => {
    setBusy(true)
    background('chat.mcpAction', chat.mcpAction(server.name, action).finally(() => setBusy(false)))
  }
  return (
    <li className="mcp-server" data-testid="mcp-server" data-name={server.name} data-state={server.state}>
      <div className="mcp-row">
        <span className={`mcp-state mcp-${server.state}`}>{STATE_LABEL[server.state]}</span>
        <span className="mcp-name">{server.name}</span>
        <span className="muted mcp-meta">
          {TRANSPORT_LABEL[server.transport ?? server.type]} · {server.toolCount} tool{server.toolCount === 1 ? '' : 's'}
          {server.restarts > 0 ? ` · ${server.restarts} restart${server.restarts === 1 ? '' : 's'}` : ''}
          {server.source === 'mcp.json' ? ' · mcp.json' : ''}
        </span>
        <span className="mcp-actions">
          {server.state === 'disabled' ? (
            <button type="button" className="small" disabled={busy} onClick={() => run('enable')}>
              Enable
            </button>
          ) : (
            <>
              <button type="button" className="small" disabled={busy} onClick={() => run('restart')}>
                Restart
              </button>
              <button type="button" className="small ghost" disabled={busy} onClick={() => run('disable')}>
                Disable
              </button>
            </>
          )}
        </span>
      </div>
      {server.error && <div className="mcp-error error">{server.error}</div>}
      {server.needsAuth && (
        <div className="mcp-row">
          <span className="muted">This server needs you to sign in.</span>
          <button type="button" className="small" disabled={busy} onClick={() => run('authenticate')}>
            Sign in
          </button>
        </div>
      )}
      {server.stderr && server.stderr.length > 0 && (
        <>
          <button type="button" className="link small muted" onClick={() => setLog(!log)}>
            {log ? 'Hide' : 'Show'} server output
          </button>
          {log && <pre className="mcp-log">{server.stderr.join('\n')}</pre>}
        </>
      )}
    </li>
  )
}

/** The active project's MCP servers: health, last error, and restart / enable / disable. */
/** Adds (or, with an existing name, replaces) a local server in the project's `.mcp.json`. */
function AddServer({ chat }: { chat: ChatController }) {
  const [name, setName] = useState('')
  const [command, setCommand] = useState('')
  const [args, setArgs] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    setBusy(true)
    // Arguments are separated by spaces; one with spaces inside can be written in .mcp.json directly.
    const error = await chat.saveMcpServer({ name: name.trim(), command: command.trim(), args: args.split(/\s+/).filter(Boolean) })
    setBusy(false)
    setNote(error ?? `Saved ${name.trim()} in .mcp.json.`)
    if (!error) {
      setName('')
      setCommand('')
      setArgs('')
    }
  }
  return (
    <form className="mcp-add" onSubmit={(e) => background('submit', submit(e))} aria-label="Add an MCP server">
      <input aria-label="Server name" placeholder="name" value={name} onChange={(e) => setName(e.target.value)} />
      <input aria-label="Command" placeholder="command (npx, uvx, /path/to/server)" value={command} onChange={(e) => setCommand(e.target.value)} />
      <input aria-label="Arguments" placeholder="arguments" value={args} onChange={(e) => setArgs(e.target.value)} />
      <button type="submit" className="small" disabled={busy || !name.trim() || !command.trim()}>
        Add server
      </button>
      {note && <span className="muted">{note}</span>}
    </form>
  )
}

/** How a server is reached, in words: a program on this computer, or a service over the network. */
const TRANSPORT_LABEL: Record<'local' | 'remote' | 'stdio' | 'streamable-http' | 'sse', string> = {
  local: 'runs on this computer',
  stdio: 'runs on this computer',
  remote: 'remote',
  'streamable-http': 'remote',
  sse: 'remote (older protocol)',
}

export function McpServers({ chat }: { chat: ChatController }) {
  const servers = useStore(chat.store, (s) => s.mcp)
  const [error, setError] = useState<string | null>(null)
  return (
    <div className="settings-section" data-testid="settings-mcp">
      <div className="settings-row">
        <p className="muted">
          Servers come from your settings, the project’s settings and its <code>.mcp.json</code>; they start with the project.
        </p>
        <button type="button" className="small" title="Read the settings and .mcp.json again and restart the servers" onClick={() => background('chat.reloadMcp', chat.reloadMcp().then(setError))}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {servers.length === 0 ? (
        <p className="muted">No MCP servers are configured for this project.</p>
      ) : (
        <ul className="mcp-list">
          {servers.map((s) => (
            <ServerRow key={s.name} server={s} chat={chat} />
          ))}
        </ul>
      )}
      <h4>Add a server</h4>
      <AddServer chat={chat} />
    </div>
  )
}
