import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type * as Monaco from 'monaco-editor'
import { useStore } from 'zustand'
import { parsePatch } from 'diff'
import type { PendingPermission } from '@shared/ipc/permission'
import { Icon } from '../../components/Icon'
import { background } from '../../lib/background'
import { formatShortcut } from '../../lib/keys'
import { useChatController } from '../../stores/chat'

type MonacoApi = typeof Monaco

/** One block of a proposed edit, placed in the file as it is now (before the edit). */
export interface ProposedBlock {
  /** 1-based lines the edit would remove. */
  removed: number[]
  removedText: string[]
  /** Lines the edit would add, shown below `afterLine` (0: above the first line). */
  added: string[]
  afterLine: number
  /** Context lines and where they are, to check the file still is what the edit was made against. */
  context: { line: number; text: string }[]
}

/** The single file an edit ask is about, and its diff; null for other asks and for multi-file patches. */
export function proposedFile(ask: PendingPermission): { path: string; diff: string } | null {
  if (ask.permission !== 'edit') return null
  const files = Array.isArray(ask.metadata?.files) ? ask.metadata.files : ask.patterns
  const diff = ask.metadata?.diff
  const path = files[0]
  return files.length === 1 && typeof path === 'string' && typeof diff === 'string' && diff.trim() ? { path, diff } : null
}

/** The blocks of a unified diff against the current file. */
export function proposedBlocks(diff: string): ProposedBlock[] {
  const blocks: ProposedBlock[] = []
  for (const patch of parsePatch(diff)) {
    for (const hunk of patch.hunks) {
      let line = hunk.oldStart === 0 ? 1 : hunk.oldStart
      let block: ProposedBlock | null = null
      const context: ProposedBlock['context'] = []
      for (const raw of hunk.lines) {
        const mark = raw[0]
        const text = raw.slice(1)
        if (mark === ' ') {
          context.push({ line, text })
          block = null
          line++
        } else if (mark === '-') {
          if (!block) blocks.push((block = { removed: [], removedText: [], added: [], afterLine: line - 1, context }))
          block.removed.push(line)
          block.removedText.push(text)
          block.afterLine = line
          line++
        } else if (mark === '+') {
          if (!block) blocks.push((block = { removed: [], removedText: [], added: [], afterLine: line - 1, context }))
          block.added.push(text)
        }
      }
    }
  }
  return blocks
}

function stillApplies(model: Monaco.editor.ITextModel, blocks: readonly ProposedBlock[]): boolean {
  const count = model.getLineCount()
  const same = (line: number, text: string): boolean => line <= count && model.getLineContent(line) === text
  return blocks.every((b) => b.removed.every((line, i) => same(line, b.removedText[i] ?? '')) && b.context.every((c) => same(c.line, c.text)))
}

/**
 * An edit the agent asks to make, shown in the editor on the file before it is
 * written: the lines it would remove struck through, the lines it would add below
 * them, and Accept / Reject (Ctrl/Cmd+Enter, Ctrl/Cmd+Backspace) answering the ask —
 * the same answer as "Allow once" / "Reject" on its card in the chat.
 */
export function ProposedEdit({ editor, monaco, path }: { editor: Monaco.editor.IStandaloneCodeEditor; monaco: MonacoApi; path: string | null }) {
  const chat = useChatController()
  const ask = useStore(chat.store, (s) => s.permissions.find((p) => path !== null && proposedFile(p)?.path === path))
  const diff = ask ? proposedFile(ask)?.diff : undefined
  const blocks = useMemo(() => (diff ? proposedBlocks(diff) : []), [diff])
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const bump = (): void => setVersion((v) => v + 1)
    const listeners = [editor.onDidChangeModel(bump), editor.onDidChangeModelContent(bump)]
    return () => {
      for (const l of listeners) l.dispose()
    }
  }, [editor])
  const model = editor.getModel()
  const applies = useMemo(() => {
    void version
    return model !== null && blocks.length > 0 && stillApplies(model, blocks)
  }, [model, blocks, version])

  useEffect(() => {
    if (!applies) return
    const marks = editor.createDecorationsCollection(
      blocks.flatMap((b) => b.removed.map((line) => ({ range: new monaco.Range(line, 1, line, 1), options: { isWholeLine: true, className: 'proposed-removed-line', linesDecorationsClassName: 'proposed-removed-gutter' } }))),
    )
    const ids: string[] = []
    editor.changeViewZones((accessor) => {
      for (const b of blocks) {
        if (b.added.length === 0) continue
        const node = document.createElement('div')
        node.className = 'proposed-added'
        node.dataset.testid = 'proposed-added'
        for (const text of b.added) {
          const row = document.createElement('div')
          row.textContent = text === '' ? ' ' : text
          node.append(row)
        }
        ids.push(accessor.addZone({ afterLineNumber: b.afterLine, heightInLines: b.added.length, domNode: node }))
      }
    })
    const first = blocks[0]
    if (first) editor.revealLineInCenterIfOutsideViewport(Math.max(1, first.removed[0] ?? first.afterLine))
    return () => {
      marks.clear()
      editor.changeViewZones((accessor) => {
        for (const id of ids) accessor.removeZone(id)
      })
    }
  }, [editor, monaco, blocks, applies])

  const answer = useRef<(reply: 'once' | 'reject') => void>(() => {})
  useEffect(() => {
    answer.current = (reply) => {
      if (ask) background(`proposal.${reply}`, chat.replyPermission(ask.id, { reply }))
    }
  }, [ask, chat])
  const [openKey] = useState(() => editor.createContextKey<boolean>('hotaruProposalOpen', false))
  useEffect(() => openKey.set(applies), [openKey, applies])
  useEffect(() => {
    const actions = [
      editor.addAction({ id: 'hotaru.proposal.accept', label: 'Accept the Proposed Edit', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter], precondition: 'hotaruProposalOpen', run: () => answer.current('once') }),
      editor.addAction({ id: 'hotaru.proposal.reject', label: 'Reject the Proposed Edit', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Backspace], precondition: 'hotaruProposalOpen', run: () => answer.current('reject') }),
    ]
    return () => {
      for (const a of actions) a.dispose()
    }
  }, [editor, monaco])

  if (!ask || !applies) return null
  return (
    <div className="review-file-bar proposed-bar" role="group" aria-label={`The agent proposes a change to ${path ?? ''}`} data-testid="proposed-edit">
      <span className="muted">The agent proposes this change</span>
      <button type="button" className="small primary" title={formatShortcut('Mod+Enter')} onClick={() => answer.current('once')}>
        <Icon name="check" /> Accept
      </button>
      <button type="button" className="small reject" title={formatShortcut('Mod+Backspace')} onClick={() => answer.current('reject')}>
        <Icon name="close" /> Reject
      </button>
    </div>
  )
}

/** The editor overlay for edits waiting for approval (see `EditorArea`'s `overlay`). */
export function proposedEditOverlay(editor: Monaco.editor.IStandaloneCodeEditor, monaco: MonacoApi, path: string | null): ReactNode {
  return <ProposedEdit editor={editor} monaco={monaco} path={path} />
}
