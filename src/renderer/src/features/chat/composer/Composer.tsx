import { useCallback, useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react'
import { MAX_IMAGES_PER_MESSAGE } from '@shared/schema/image'
import { SuggestList, type Suggestion } from '../../../components/SuggestList'
import { useChat, useChatController } from '../../../stores/chat'
import { useStore } from 'zustand'
import { useProject } from '../../../stores/project'
import { useWorkspace } from '../../../stores/workspace'
import { useShownFolderStore } from '../../../stores/shown-folder'
import { fileSuggestions, slashSuggestions, triggerAt, type Trigger } from './completions'
import { ContextMeter } from './ContextMeter'
import { KeyNotice } from './KeyNotice'
import { projectClient } from '../../../stores/project-client'
import { AgentPicker, EffortPicker, ModelPicker, usePicked } from './Pickers'
import { parseSlash, SLASH_COMMANDS } from './slash'
import { pickedPrompt, pickedResource, promptSuggestions, resourceSuggestions, withAttachments } from './mcp-items'
import { useMcpItems } from './use-mcp-items'
import { Attachments, PromptForm } from './McpParts'
import { background } from '../../../lib/background'
import { draftOf, setDraft } from '../../../stores/drafts'
import { ImageStrip } from './ImageStrip'
import { IMAGE_DROP_EVENT } from '../../../lib/image-drop'
import { imageFiles, MAX_MESSAGE_IMAGE_BASE64, readComposerImage, toUploads, uploadSize, type ComposerImage } from './images'
import { addContextChip, chatContextFor, clearContextChips, contextBlock, updateContextChip } from '../../../stores/chat-context'
import { ContextChips } from './ContextChips'
import { errorMessage, unwrap } from '../../../ipc'
import { Icon } from '../../../components/Icon'

const MAX_HEIGHT = 260

/**
 * The message input: Enter sends (queued while a turn runs), Shift+Enter adds
 * a line, `@` completes project files and MCP resources (attached to the message),
 * `/` completes commands and MCP prompts (rendered into the input), Esc stops. Images are attached by pasting,
 * dropping them on the composer or the attach button.
 */
export function Composer({ sessionId }: { sessionId: string | null }) {
  const chat = useChatController()
  const projectId = useProject((s) => s.projectId)
  // No turn can run in a folder that is not there: the draft is kept until it returns or is located.
  const missing = useWorkspace((s) => s.missing[projectId] === true)
  const bridge = useProject((s) => s.bridge)
  // @-mentions list the files of the folder on screen (a worktree's own while its chat is shown).
  const folder = useShownFolderStore()
  const folderId = useStore(folder, (s) => s.projectId)
  const openFiles = useStore(folder, (s) => s.openFiles)
  const busy = useChat((s) => (sessionId ? (s.statuses[sessionId]?.type ?? 'idle') !== 'idle' : false))
  // Keyed by the chat's own project: a worktree's chat without a session has its own draft.
  const chatId = chat.projectId
  const [text, setText] = useState(() => draftOf(chatId, sessionId))
  const [trigger, setTrigger] = useState<Trigger | null>(null)
  const [active, setActive] = useState(0)
  const [files, setFiles] = useState<string[]>([])
  const input = useRef<HTMLTextAreaElement>(null)
  const root = useRef<HTMLDivElement>(null)
  const picker = useRef<HTMLInputElement>(null)
  const [images, setImages] = useState<ComposerImage[]>([])
  const [imageError, setImageError] = useState<string | null>(null)
  const { model } = usePicked(sessionId)
  // Known from the catalog: a model without vision cannot be sent images (core refuses them too).
  const noVision = useChat((s) => s.models.find((m) => m.id === model)?.images === false)
  const mcp = useMcpItems(bridge, projectId)
  const chips = useStore(chatContextFor(chatId), (s) => s.chips)
  const waiting = mcp.attachments.some((a) => a.state !== 'ready') || chips.some((c) => c.state !== 'ready')
  const servers = useChat((s) => s.mcp)
  const { refresh } = mcp
  const menu = trigger?.kind
  // Listed when a menu opens and again whenever a server connects, fails or changes while it is open.
  useEffect(() => {
    if (menu) refresh(menu)
  }, [menu, servers, refresh])

  useEffect(() => {
    setDraft(chatId, sessionId, text)
  }, [chatId, sessionId, text])

  const addImages = useCallback((files: File[]): void => {
    setImageError(null)
    const read = async (): Promise<void> => {
      for (const file of files) {
        try {
          const image = await readComposerImage(file)
          setImages((list) => {
            if (list.length >= MAX_IMAGES_PER_MESSAGE || uploadSize([...list, image]) > MAX_MESSAGE_IMAGE_BASE64) {
              URL.revokeObjectURL(image.url)
              setImageError(`A message may carry at most ${MAX_IMAGES_PER_MESSAGE} images and ${MAX_MESSAGE_IMAGE_BASE64 / 1024 / 1024} MB of them`)
              return list
            }
            return [...list, image]
          })
        } catch (error) {
          setImageError(error instanceof Error ? error.message : String(error))
        }
      }
    }
    background('composer.images', read())
  }, [])

  // Images dropped on the composer arrive from the window's drop handler (see DropOverlay).
  useEffect(() => {
    const el = root.current
    if (!el) return
    const dropped = (e: Event): void => addImages((e as CustomEvent<File[]>).detail)
    el.addEventListener(IMAGE_DROP_EVENT, dropped)
    return () => el.removeEventListener(IMAGE_DROP_EVENT, dropped)
  }, [addImages])

  const removeImage = (key: number): void => {
    setImages((list) => {
      const gone = list.find((i) => i.key === key)
      if (gone) URL.revokeObjectURL(gone.url)
      return list.filter((i) => i.key !== key)
    })
    setImageError(null)
  }

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = imageFiles(e.clipboardData.files)
    if (!files.length) return
    // A pasted screenshot is attached, not inserted as text (its name, or nothing).
    e.preventDefault()
    addImages(files)
  }

  useEffect(() => {
    const el = input.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(MAX_HEIGHT, el.scrollHeight)}px`
  }, [text])

  const suggestions: Suggestion[] = useMemo(() => {
    if (!trigger) return []
    return trigger.kind === 'slash'
      ? [...slashSuggestions(trigger.query), ...promptSuggestions(mcp.prompts, trigger.query)]
      : [...resourceSuggestions(mcp.resources, trigger.query), ...fileSuggestions(files, trigger.query, openFiles)]
  }, [trigger, files, openFiles, mcp.prompts, mcp.resources])

  const updateTrigger = (value: string, caret: number): void => {
    const next = triggerAt(value, caret)
    if (next?.kind === 'mention') setFiles(projectClient(bridge, folderId).files.get(setFiles))
    setTrigger(next)
    if (next?.query !== trigger?.query || next?.kind !== trigger?.kind) setActive(0)
  }

  const replaceTrigger = (replacement: string): void => {
    const el = input.current
    if (!el || !trigger) return
    const caret = el.selectionStart
    const value = `${text.slice(0, trigger.start)}${replacement}${text.slice(caret)}`
    setText(value)
    setTrigger(null)
    const at = trigger.start + replacement.length
    requestAnimationFrame(() => el.setSelectionRange(at, at))
  }

  const accept = (item: Suggestion | undefined): void => {
    if (!item || !trigger) return
    const resource = pickedResource(mcp.resources, item.id)
    if (resource) {
      mcp.attach(resource)
      return replaceTrigger(`${item.label} `)
    }
    if (trigger.kind === 'mention') {
      // The mention stays in the text where it was typed; the file goes with the message whole, as a chip.
      mentionFile(item.id)
      return replaceTrigger(`@${item.id} `)
    }
    const prompt = pickedPrompt(mcp.prompts, item.id)
    if (prompt) {
      replaceTrigger('')
      if (prompt.arguments.length) mcp.setAsk({ prompt })
      else mcp.render(prompt, {}, insert)
      return
    }
    const command = SLASH_COMMANDS.find((c) => c.name === item.id)
    if (command?.name === 'rename') return replaceTrigger(`/${item.id} `)
    setText('')
    setTrigger(null)
    if (command) background('command.run', command.run(chat, ''))
  }

  const mentionFile = (path: string): void => {
    const key = addContextChip(chatId, { kind: 'file', path, text: '', state: 'reading' })
    background(
      'composer.mention',
      unwrap(bridge.fs.read({ projectId: folderId, path })).then(
        (file) => {
          if (file.binary) updateContextChip(chatId, key, { state: 'failed', error: 'it is a binary file' })
          else updateContextChip(chatId, key, { state: 'ready', text: file.truncated ? `${file.content}\n[… the file goes on; only its start is attached]` : file.content })
        },
        (error: unknown) => updateContextChip(chatId, key, { state: 'failed', error: errorMessage(error) }),
      ),
    )
  }

  /** A rendered prompt goes where the caret is. */
  const insert = (value: string): void => {
    const el = input.current
    const at = el?.selectionStart ?? text.length
    setText((t) => `${t.slice(0, at)}${value}${t.slice(at)}`)
    requestAnimationFrame(() => {
      el?.focus()
      el?.setSelectionRange(at + value.length, at + value.length)
    })
  }

  const submit = (): void => {
    const value = text.trim()
    if ((!value && !images.length && !chips.length) || waiting || (images.length > 0 && noVision)) return
    setText('')
    setTrigger(null)
    const slash = mcp.attachments.length || images.length || chips.length ? null : parseSlash(value)
    if (slash) return background('slash.command.run', slash.command.run(chat, slash.args))
    const sentChips = clearContextChips(chatId)
    const blocks = [...sentChips.map(contextBlock), ...mcp.attachments.flatMap((a) => (a.block ? [a.block] : []))]
    mcp.clearAttachments()
    const sent = images
    setImages([])
    setImageError(null)
    const written = text
    background(
      'chat.send',
      chat.send(withAttachments(value, blocks), toUploads(sent)).then((error) => {
        // Not stored: the context comes back to the composer with the message.
        if (error) for (const chip of sentChips) addContextChip(chatId, chip)
        if (!error || !sent.length) {
          for (const image of sent) URL.revokeObjectURL(image.url)
          return
        }
        // Not stored (e.g. the model takes no images): the message comes back whole, to send again.
        setText((current) => (current ? current : written))
        setImages((list) => [...sent, ...list])
      }),
    )
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return
    if (trigger && suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const step = e.key === 'ArrowDown' ? 1 : -1
        setActive((a) => (a + step + suggestions.length) % suggestions.length)
      } else if (e.key === 'Enter' || e.key === 'Tab') accept(suggestions[active])
      else if (e.key === 'Escape') setTrigger(null)
      else return
      e.preventDefault()
      return
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault()
      submit()
    } else if (e.key === 'ArrowUp' && text === '' && sessionId) {
      // As in a shell: up in an empty input brings back the last message sent, to send again or change.
      const last = chat.lastPrompt(sessionId)
      if (last === undefined) return
      e.preventDefault()
      setText(last)
    } else if (e.key === 'Escape' && busy) {
      e.preventDefault()
      background('chat.abort', chat.abort(sessionId))
    }
  }

  return (
    <div className="composer" data-testid="composer" data-image-drop ref={root}>
      {trigger && (
        <SuggestList
          items={suggestions}
          active={active}
          label={trigger.kind === 'slash' ? 'Commands' : 'Files'}
          testId={trigger.kind === 'slash' ? 'slash-suggestions' : 'mention-suggestions'}
          empty={trigger.kind === 'mention' ? (files.length ? 'No matching file or resource' : 'Listing files…') : undefined}
          notes={mcp.errors}
          onPick={accept}
          onHover={setActive}
        />
      )}
      <KeyNotice model={model} sessionId={sessionId} />
      {mcp.ask && (
        <PromptForm
          key={`${mcp.ask.prompt.server}:${mcp.ask.prompt.name}`}
          ask={mcp.ask}
          onRender={(args) => mcp.ask && mcp.render(mcp.ask.prompt, args, insert)}
          onCancel={() => {
            mcp.setAsk(null)
            input.current?.focus()
          }}
        />
      )}
      <ContextChips projectId={chatId} chips={chips} />
      <Attachments items={mcp.attachments} onRemove={mcp.detach} />
      <ImageStrip images={images} onRemove={removeImage} />
      {imageError && (
        <div className="composer-image-error" role="alert" data-testid="composer-image-error">
          {imageError}
        </div>
      )}
      {images.length > 0 && noVision && (
        <div className="composer-image-error" role="alert" data-testid="composer-no-vision">
          {model} does not accept images: pick a model with vision to send them, or remove them.
        </div>
      )}
      <textarea
        ref={input}
        className="composer-input"
        rows={2}
        value={text}
        placeholder={
          missing
            ? 'The project folder is missing'
            : busy
              ? 'The agent is working — a message sent now is queued'
              : 'Ask the agent… (@ file or resource, / command or prompt)'
        }
        disabled={missing}
        onChange={(e) => {
          setText(e.target.value)
          updateTrigger(e.target.value, e.target.selectionStart)
        }}
        onSelect={(e) => updateTrigger(e.currentTarget.value, e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => setTrigger(null)}
        spellCheck
        aria-label="Message to the agent"
        data-testid="chat-input"
      />
      <div className="composer-bar">
        <div className="composer-tools">
          <AgentPicker sessionId={sessionId} />
          <ModelPicker sessionId={sessionId} />
          <EffortPicker sessionId={sessionId} />
          <button type="button" className="icon attach-image" onClick={() => picker.current?.click()} title="Attach images (or paste / drop them here)" aria-label="Attach images" data-testid="attach-image">
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.3">
              <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
              <circle cx="5.5" cy="6" r="1.3" />
              <path d="M2 12l4-4 3 3 2-2 3.5 3.5" />
            </svg>
          </button>
          <input
            ref={picker}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            multiple
            hidden
            data-testid="image-file-input"
            onChange={(e) => {
              addImages([...(e.target.files ?? [])])
              // The same file can be picked again after it was removed.
              e.target.value = ''
            }}
          />
          <span className="spacer" />
          {sessionId && <ContextMeter sessionId={sessionId} model={model} />}
        </div>
        {/* Stop and Send/Queue keep their place at the end of the bar's first row: the tools before them fold, they never do. */}
        <div className="composer-actions" data-testid="composer-actions">
          {busy && (
            <button type="button" className="stop" onClick={() => background('chat.abort', chat.abort(sessionId))} title="Stop (Esc)" aria-label="Stop" data-testid="stop-button">
              <Icon name="debug-stop" /> <span className="stop-label">Stop</span>
            </button>
          )}
          <button
            type="button"
            className="primary send"
            onClick={submit}
            disabled={missing || (!text.trim() && !images.length && !chips.length) || waiting || (images.length > 0 && noVision)}
            title={waiting ? 'Wait for the attached resources (remove one that failed)' : busy ? 'Queue (Enter)' : 'Send (Enter)'}
            data-testid="send-button"
          >
            {busy ? 'Queue' : 'Send'}
          </button>
        </div>
      </div>
    </div>
  )
}
