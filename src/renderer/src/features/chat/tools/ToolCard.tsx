import { memo } from 'react'
import { ShieldIcon } from '../../../components/ShieldIcon'
import { Elapsed, formatDuration } from '../../../components/Elapsed'
import { StatusGlyph } from '../../../components/StatusGlyph'
import { Twisty } from '../../../components/Twisty'
import { useChat, useChatController } from '../../../stores/chat'
import { EDIT_TOOLS, editedFiles, keyArgument, lineCounts, num, record, toolHookFailures, type ToolPart } from './describe'
import { EditChips } from './EditChip'
import { bashTiming } from './output-view'
import { ToolBody } from './ToolBody'

interface ToolCardProps {
  part: ToolPart
  root: string
  /** In the latest turn: a bash card opens with its output (older ones stay closed to keep scrolling light). */
  recent: boolean
}

function openByDefault(part: ToolPart, recent: boolean): boolean {
  const { status } = part.state
  if (status === 'error') return true
  if (part.tool === 'task') return true
  if (part.tool === 'bash') return status === 'running' || recent
  return false
}

/** How many language-server errors the edit left, from its diagnostics report (undefined: none was made). */
function diagnosticErrors(part: ToolPart): number | undefined {
  const report = record(record(part.state.metadata).diagnostics)
  if (!Array.isArray(report.files)) return undefined
  const files = [...report.files, ...(Array.isArray(report.others) ? report.others : [])].map(record)
  return files.reduce((n, f) => n + (Array.isArray(f.errors) ? f.errors.length : 0), 0)
}

/** One tool call: name, key argument, status and time in a row; details below when opened. */
export const ToolCard = memo(function ToolCard({ part, root, recent }: ToolCardProps) {
  const chat = useChatController()
  const fallback = openByDefault(part, recent)
  const open = useChat((s) => s.expanded[part.id] ?? fallback)
  const { status } = part.state
  // A call held by a permission ask waits for the user, not for the tool.
  const asking = useChat((s) => s.permissions.some((p) => p.callId === part.callId))
  const counts = lineCounts(part)
  const arg = keyArgument(part, root)
  const meta = record(part.state.metadata)
  const blocked = Array.isArray(meta.sandboxBlocked) ? meta.sandboxBlocked.length : 0
  const hookFailures = toolHookFailures(part).length
  const errors = EDIT_TOOLS.has(part.tool) ? diagnosticErrors(part) : undefined
  // Bash reports the command's own run time: the card shows it, and the approval wait apart.
  const timing = part.tool === 'bash' ? bashTiming(part.state.startedAt, part.state.endedAt, num(meta.durationMs)) : null
  // A finished edit is a chip that opens the file at the change; the editor shows the diff.
  if (EDIT_TOOLS.has(part.tool) && status === 'completed' && hookFailures === 0 && editedFiles(part, root).length > 0) return <EditChips part={part} root={root} errors={errors} />
  return (
    <div className={`tool-card tool-${status}`} data-testid="tool-card" data-tool={part.tool} data-status={status} data-call-id={part.callId}>
      <button type="button" className="tool-head" aria-expanded={open} onClick={() => chat.toggleExpanded(part.id, fallback)}>
        <Twisty open={open} />
        <StatusGlyph state={asking ? 'waiting' : status} />
        <span className="tool-name">{part.tool}</span>
        {meta.sandboxed === true && (
          <span
            className={blocked > 0 ? 'tool-sandbox blocked' : 'tool-sandbox'}
            title={blocked > 0 ? `Ran in the OS sandbox, which blocked ${blocked} access${blocked === 1 ? '' : 'es'}` : 'Ran in the OS sandbox'}
            aria-label="sandboxed"
            data-testid="sandbox-badge"
          >
            <ShieldIcon />{blocked > 0 ? ` ${blocked}` : ''}
          </span>
        )}
        {meta.unsandboxed === true && (
          <span className="tool-sandbox off" title="Ran outside the sandbox (you approved it)" data-testid="unsandboxed-badge">
            unsandboxed
          </span>
        )}
        {hookFailures > 0 && (
          <span className="tool-hook-failed" title="A hook of this call failed; open the card for details" data-testid="tool-hook-failed">
            ⚠ hook
          </span>
        )}
        <span className="tool-arg mono" title={arg}>
          {arg}
        </span>
        {counts && (
          <span className="tool-counts mono">
            <span className="add">+{counts.additions}</span> <span className="del">−{counts.deletions}</span>
          </span>
        )}
        {errors !== undefined && errors > 0 && (
          <span className="tool-problems mono" data-testid="tool-problems" title={`${errors} error${errors === 1 ? '' : 's'} after this edit`}>
            ⨯ {errors}
          </span>
        )}
        {timing ? (
          <span className="elapsed" title={timing.waitMs > 0 ? `the command ran ${formatDuration(timing.runMs)}; ${formatDuration(timing.waitMs)} went to waiting for your approval` : 'how long the command ran'}>
            {formatDuration(timing.runMs)}
            {timing.waitMs > 0 && <span className="muted"> · waited {formatDuration(timing.waitMs)}</span>}
          </span>
        ) : (
          <Elapsed start={part.state.startedAt} end={part.state.endedAt ?? (status === 'running' || status === 'pending' ? undefined : part.state.startedAt)} />
        )}
      </button>
      {open && (
        <div className="tool-body">
          <ToolBody part={part} root={root} />
        </div>
      )}
    </div>
  )
})
