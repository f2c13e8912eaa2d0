import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import type * as Monaco from 'monaco-editor'
import { background } from '../../lib/background'
import { formatShortcut } from '../../lib/keys'
import { useChatController, type ChatController } from '../../stores/chat'
import { addContextChip, chipLabel, contextBlock } from '../../stores/chat-context'
import { addSelectionSource, type EditorSelection } from '../../stores/editor-selection'
import { existingProjectStore } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'

type MonacoApi = typeof Monaco

const PROMPT_ZONE_PX = 40

/** The editor's selection as whole lines (a selection ending at column 1 leaves that line out, as editors do). */
function selectionOf(editor: Monaco.editor.IStandaloneCodeEditor, path: string | null): EditorSelection | null {
  const model = editor.getModel()
  const range = editor.getSelection()
  if (!path || !model || !range || range.isEmpty()) return null
  const endLine = range.endColumn === 1 && range.endLineNumber > range.startLineNumber ? range.endLineNumber - 1 : range.endLineNumber
  return { path, startLine: range.startLineNumber, endLine, text: model.getValueInRange(range) }
}

function showChat(): void {
  const id = useWorkspace.getState().activeId
  if (id) existingProjectStore(id)?.getState().setView({ right: true })
}

/** Attaches a selection to the message being written, as a `file:lines` chip. */
export function addSelectionToChat(chat: ChatController, selection: EditorSelection): void {
  addContextChip(chat.projectId, { kind: 'selection', ...selection, state: 'ready' })
}

/** Runs a turn about a selection: the instruction, then the selection as context. */
function runOnSelection(chat: ChatController, selection: EditorSelection, instruction: string): void {
  showChat()
  const block = contextBlock({ key: 0, kind: 'selection', ...selection, state: 'ready' })
  background(
    'editor.agent.send',
    chat.send(`${instruction}\n\n${block}`).then((error) => {
      if (error) console.warn('[editor-agent] the message was not sent:', error.data.message)
    }),
  )
}

function InlinePrompt({ selection, onSubmit, onCancel }: { selection: EditorSelection; onSubmit(text: string): void; onCancel(): void }) {
  const [text, setText] = useState('')
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    const frame = requestAnimationFrame(() => input.current?.focus())
    return () => cancelAnimationFrame(frame)
  }, [])
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    // Keys typed here are the prompt's, not Monaco's.
    e.stopPropagation()
    if (e.key === 'Escape') {
      e.preventDefault()
      onCancel()
    } else if (e.key === 'Enter' && text.trim()) {
      e.preventDefault()
      onSubmit(text.trim())
    }
  }
  return (
    <div className="inline-prompt" data-testid="inline-edit-prompt">
      <input
        ref={input}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={`Edit ${chipLabel(selection)}: tell the agent what to change (Enter sends, Esc cancels)`}
        aria-label={`Instruction for ${chipLabel(selection)}`}
      />
    </div>
  )
}

/**
 * The editor's way to the agent: "Add Selection to Chat" (Ctrl/Cmd+L), "Explain
 * Selection" and "Edit Selection with the Agent…" (Ctrl/Cmd+K, an inline prompt
 * above the selection) in the context menu. Explain and the inline edit run a turn
 * with the selection attached; the edit then shows inline as a proposed change.
 */
export function EditorAgent({ editor, monaco, path }: { editor: Monaco.editor.IStandaloneCodeEditor; monaco: MonacoApi; path: string | null }) {
  const chat = useChatController()
  const [prompt, setPrompt] = useState<EditorSelection | null>(null)
  const [host, setHost] = useState<HTMLElement | null>(null)
  const live = useRef({ chat, path })
  useEffect(() => {
    live.current = { chat, path }
  }, [chat, path])

  useEffect(() => {
    const focused = (): boolean => editor.hasTextFocus() || editor.hasWidgetFocus()
    const current = (): EditorSelection | null => selectionOf(editor, live.current.path)
    const openPrompt = (): void => {
      const selection = current()
      if (selection) setPrompt(selection)
    }
    const off = addSelectionSource({ selection: () => (focused() ? current() : null), inlineEdit: openPrompt })
    const group = '9_hotaru'
    const actions = [
      editor.addAction({
        id: 'hotaru.agent.addSelection',
        label: `Add Selection to Chat (${formatShortcut('Mod+L')})`,
        precondition: 'editorHasSelection',
        contextMenuGroupId: group,
        contextMenuOrder: 1,
        run: () => {
          const selection = current()
          if (!selection) return
          addSelectionToChat(live.current.chat, selection)
          showChat()
        },
      }),
      editor.addAction({
        id: 'hotaru.agent.explain',
        label: 'Explain Selection',
        precondition: 'editorHasSelection',
        contextMenuGroupId: group,
        contextMenuOrder: 2,
        run: () => {
          const selection = current()
          if (selection) runOnSelection(live.current.chat, selection, `Explain ${chipLabel(selection)}: what it does and why.`)
        },
      }),
      editor.addAction({
        id: 'hotaru.agent.inlineEdit',
        label: `Edit Selection with the Agent… (${formatShortcut('Mod+K')})`,
        precondition: 'editorHasSelection',
        contextMenuGroupId: group,
        contextMenuOrder: 3,
        run: openPrompt,
      }),
    ]
    return () => {
      off()
      for (const a of actions) a.dispose()
    }
  }, [editor, monaco])

  // The prompt sits in a view zone above the selection's first line; it closes when the file changes.
  useEffect(() => {
    if (!prompt) return
    const node = document.createElement('div')
    node.className = 'inline-prompt-zone'
    node.addEventListener('mousedown', (e) => e.stopPropagation())
    let id = ''
    editor.changeViewZones((accessor) => {
      id = accessor.addZone({ afterLineNumber: Math.max(0, prompt.startLine - 1), heightInPx: PROMPT_ZONE_PX, domNode: node })
    })
    node.closest('[aria-hidden="true"]')?.removeAttribute('aria-hidden')
    const frame = requestAnimationFrame(() => node.closest('[aria-hidden="true"]')?.removeAttribute('aria-hidden'))
    // The zone's node exists only once Monaco made it, here: it reaches React this way.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setHost(node)
    const closing = editor.onDidChangeModel(() => setPrompt(null))
    return () => {
      cancelAnimationFrame(frame)
      closing.dispose()
      editor.changeViewZones((accessor) => accessor.removeZone(id))
      setHost(null)
    }
  }, [editor, prompt])

  if (!prompt || !host) return null
  const close = (): void => {
    setPrompt(null)
    editor.focus()
  }
  const content: ReactNode = (
    <InlinePrompt
      selection={prompt}
      onCancel={close}
      onSubmit={(instruction) => {
        runOnSelection(chat, prompt, `Edit ${chipLabel(prompt)}: ${instruction}\nChange only what this asks for; the selected code is below.`)
        close()
      }}
    />
  )
  return createPortal(content, host)
}

/** The editor overlay for the agent actions (see `EditorArea`'s `overlay`). */
export function editorAgentOverlay(editor: Monaco.editor.IStandaloneCodeEditor, monaco: MonacoApi, path: string | null): ReactNode {
  return <EditorAgent editor={editor} monaco={monaco} path={path} />
}
