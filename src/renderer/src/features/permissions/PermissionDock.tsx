import { useEffect } from 'react'
import { useChat, useChatController } from '../../stores/chat'
import { useProjectStore } from '../../stores/project'
import { PermissionCard } from './PermissionCard'
import { background } from '../../lib/background'

/**
 * The project's pending permission asks, oldest first, one at a time above
 * the composer. An ask opens the agent panel if it was closed.
 */
export function PermissionDock() {
  const chat = useChatController()
  const project = useProjectStore()
  const ask = useChat((s) => s.permissions[0])
  const total = useChat((s) => s.permissions.length)
  const origin = useChat((s) => {
    const id = s.permissions[0]?.sessionId
    if (!id || id === s.activeSessionId) return undefined
    const session = s.sessions[id]
    return session ? `${session.parentId ? 'subagent' : 'session'} “${session.title}”` : 'another session'
  })
  useEffect(() => {
    if (ask && !project.getState().view.right) project.getState().setView({ right: true })
  }, [ask, project])
  if (!ask) return null
  return (
    <div className="permission-dock">
      <PermissionCard key={ask.id} ask={ask} position={1} total={total} origin={origin} onReply={(reply) => background('chat.replyPermission', chat.replyPermission(ask.id, reply))} />
    </div>
  )
}
