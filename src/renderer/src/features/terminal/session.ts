import type { FitAddon } from '@xterm/addon-fit'
import type { SearchAddon } from '@xterm/addon-search'
import type { WebglAddon } from '@xterm/addon-webgl'
import type { Terminal } from '@xterm/xterm'
import type { HotaruBridge } from '@shared/ipc'
import type { TerminalReplay } from '@shared/schema/terminal'
import { isMac, matches } from '../../lib/keys'
import { onThemeChange } from '../../lib/theme'
import { hasHardwareWebgl } from './gpu'
import { terminalTheme } from './theme'
import type { XtermModules } from './xterm'
import { background } from '../../lib/background'

/** Acknowledge drawn output in steps this big (fewer messages, same flow control). */
const ACK_CHARS = 256 * 1024
/**
 * While the window is hidden the UI draws nothing, but a build's output must not
 * stall: up to this much is acknowledged unseen (and drawn when shown again).
 */
const HIDDEN_SLACK_CHARS = 8 * 1024 * 1024
/** Messages smaller than this are joined before they are handed to xterm. */
const WRITE_SLICE_CHARS = 64 * 1024
/** When xterm has less than this left to parse, waiting output is handed over without waiting for the frame. */
const LOW_WATER_CHARS = 128 * 1024

type Output = string | Uint8Array
interface Piece {
  data: Output
  chars: number
}

const utf8 = new TextDecoder()

function textOf(data: Output): string {
  return typeof data === 'string' ? data : utf8.decode(data)
}

export interface SessionEvents {
  onTitle(title: string): void
  /** Keyboard shortcut for the find bar (Mod+F inside the terminal). */
  onFind(): void
}

/**
 * One xterm bound to one pty: output batched into a single write per animation
 * frame, acknowledged once xterm has processed it (the core pauses the process
 * when too much is unacknowledged), input and resizes sent back. Lives outside
 * React, so a terminal keeps its screen when its tab or project is switched.
 */
export class TerminalSession {
  readonly container: HTMLDivElement
  readonly term: Terminal
  readonly search: SearchAddon
  private readonly fit: FitAddon
  private webgl: WebglAddon | null = null
  private opened = false
  /** Output waiting for the next write, each piece with its length in characters. */
  private pending: Piece[] = []
  private frame: number | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  /** Counters in characters: received from the core, processed by xterm, acknowledged. */
  received = 0
  processed = 0
  private acked = 0
  /** Characters given to xterm; equal to `processed` when xterm has nothing left to do. */
  private handed = 0
  /** Until the replay arrives, events are held back; afterwards, offsets below `replayEnd` are old. */
  private replay: { done: boolean; early: { data: Output; offset: number; chars: number }[]; end: number } = { done: true, early: [], end: 0 }
  private disposed = false
  private lastSize = { cols: 0, rows: 0 }
  /** Work that must come after the replayed output (an exit notice). */
  private readonly afterReplay: (() => void)[] = []
  private resizeFrame: number | null = null

  constructor(
    modules: XtermModules,
    private readonly bridge: HotaruBridge,
    readonly projectId: string,
    readonly id: string,
    private readonly events: SessionEvents,
  ) {
    this.container = document.createElement('div')
    this.container.className = 'terminal-surface'
    this.term = new modules.Terminal({
      fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Code', Menlo, Consolas, monospace",
      fontSize: 13,
      lineHeight: 1.15,
      scrollback: 10_000,
      cursorBlink: true,
      allowProposedApi: true,
      theme: terminalTheme(),
      macOptionIsMeta: false,
      rightClickSelectsWord: true,
    })
    this.fit = new modules.FitAddon()
    this.search = new modules.SearchAddon()
    this.term.loadAddon(this.fit)
    this.term.loadAddon(this.search)
    this.term.onData((data) => this.send(data))
    this.term.onBinary((data) => this.send(data))
    this.term.onTitleChange((title) => this.events.onTitle(title))
    this.term.onResize(({ cols, rows }) => this.resized(cols, rows))
    this.term.attachCustomKeyEventHandler((e) => this.keyFilter(e))
    this.webglFactory = () => new modules.WebglAddon()
    this.offTheme = onThemeChange(this.onScheme)
  }

  private readonly webglFactory: () => WebglAddon
  private readonly offTheme: () => void

  private readonly onScheme = (): void => {
    this.term.options.theme = terminalTheme()
  }

  /** Shows the terminal in `host` (opening xterm on first use). */
  attach(host: HTMLElement): void {
    if (this.container.parentElement !== host) host.appendChild(this.container)
    if (!this.opened) {
      this.term.open(this.container)
      this.opened = true
      this.enableWebgl()
    }
    this.fitSoon()
  }

  /** GPU rendering when available; on a lost context xterm falls back to its DOM renderer. */
  private enableWebgl(): void {
    if (!hasHardwareWebgl()) return
    try {
      const addon = this.webglFactory()
      addon.onContextLoss(() => {
        console.warn(`[terminal] WebGL context lost in ${this.id}; using the DOM renderer`)
        addon.dispose()
        this.webgl = null
      })
      this.term.loadAddon(addon)
      this.webgl = addon
    } catch (error) {
      console.warn(`[terminal] WebGL unavailable (${(error as Error).message}); using the DOM renderer`)
      this.webgl = null
    }
  }

  get renderer(): 'webgl' | 'dom' {
    return this.webgl ? 'webgl' : 'dom'
  }

  /** Fits to the container on the next frame (several layout changes in one frame cost one fit). */
  fitSoon(): void {
    if (this.resizeFrame !== null || this.disposed) return
    this.resizeFrame = requestAnimationFrame(() => {
      this.resizeFrame = null
      // A replay sizes the grid itself and fits when it is done.
      if (!this.replay.done) return
      // A hidden terminal (inactive tab, collapsed panel) has no size to fit to.
      if (!this.opened || this.container.offsetParent === null || this.container.clientHeight === 0) return
      this.fit.fit()
    })
  }

  focus(): void {
    this.term.focus()
  }

  /** Paints recent output after a reload; events that it already contains are skipped. */
  beginReplay(): void {
    this.replay = { done: false, early: [], end: 0 }
  }

  /**
   * Writes the replayed output at the grid size each stretch was written at
   * (the shell wrapped and redrew its lines for that width), then lets the
   * terminal fit its view: xterm reflows what it holds, the shell redraws.
   */
  finishReplay(replay: TerminalReplay): void {
    this.replay.end = replay.end
    this.received += replay.data.length
    const stretches = replay.sizes.map((size, i) => ({
      cols: size.cols,
      rows: size.rows,
      data: replay.data.slice(size.at, replay.sizes[i + 1]?.at ?? replay.data.length),
    }))
    const next = (i: number): void => {
      if (this.disposed) return
      const stretch = stretches[i]
      if (!stretch) return this.replayed()
      if (stretch.cols !== this.term.cols || stretch.rows !== this.term.rows) this.term.resize(stretch.cols, stretch.rows)
      this.lastSize = { cols: stretch.cols, rows: stretch.rows }
      if (!stretch.data) return next(i + 1)
      this.handed += stretch.data.length
      this.term.write(stretch.data, () => {
        this.processed += stretch.data.length
        next(i + 1)
      })
    }
    next(0)
  }

  private replayed(): void {
    this.replay.done = true
    for (const early of this.replay.early.splice(0)) this.receive(early.data, early.offset, early.chars)
    for (const run of this.afterReplay.splice(0)) run()
    this.fitSoon()
  }

  /**
   * Output from the core: text, or UTF-8 bytes (handed to xterm undecoded) with their
   * length in characters, the unit offsets and acknowledgements count in.
   */
  receive(data: Output, offset: number, chars = typeof data === 'string' ? data.length : 0): void {
    if (this.disposed) return
    if (!this.replay.done) {
      this.replay.early.push({ data, offset, chars })
      return
    }
    const end = this.replay.end
    if (offset + chars <= end) return
    // Output that the replay partly contained (rare): only its new end is written.
    const fresh = offset < end ? textOf(data).slice(end - offset) : data
    const freshChars = offset < end ? chars - (end - offset) : chars
    this.received += freshChars
    this.enqueue({ data: fresh, chars: freshChars })
    this.maybeAck()
  }

  private enqueue(piece: Piece): void {
    this.pending.push(piece)
    if (this.frame !== null || this.timer !== null) return
    if (document.hidden) this.timer = setTimeout(() => this.flush(), 50)
    // xterm idle (a key echo, a prompt): hand it over now, it draws on its next frame.
    // While it is busy, output collects and goes over once per frame, or as soon as
    // xterm runs low, whichever comes first, so it never waits idle for a frame.
    else if (this.handed === this.processed) this.flush()
    else this.frame = requestAnimationFrame(() => this.flush())
  }

  /** One xterm write per frame, however many messages arrived in it. */
  private flush(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame)
    if (this.timer !== null) clearTimeout(this.timer)
    this.frame = null
    this.timer = null
    if (this.disposed || this.pending.length === 0) return
    // Small messages of the frame are joined; large ones go as they are (no copying of megabytes).
    // Each piece is acknowledged when xterm has processed it, so the core keeps streaming
    // while xterm works through a big frame.
    // Bytes go as they came: the core already sent them in batches.
    const pieces: Piece[] = []
    let small: string[] = []
    let smallChars = 0
    const joinSmall = (): void => {
      if (smallChars > 0) pieces.push({ data: small.join(''), chars: smallChars })
      small = []
      smallChars = 0
    }
    for (const piece of this.pending) {
      if (typeof piece.data !== 'string' || piece.chars >= WRITE_SLICE_CHARS) {
        joinSmall()
        pieces.push(piece)
        continue
      }
      small.push(piece.data)
      smallChars += piece.chars
      if (smallChars >= WRITE_SLICE_CHARS) joinSmall()
    }
    joinSmall()
    this.pending = []
    for (const piece of pieces) {
      this.handed += piece.chars
      this.term.write(piece.data, () => {
        this.processed += piece.chars
        this.maybeAck()
        if (this.handed - this.processed < LOW_WATER_CHARS && this.pending.length > 0 && !document.hidden) this.flush()
      })
    }
  }

  private maybeAck(): void {
    const target = document.hidden ? Math.min(this.received, this.processed + HIDDEN_SLACK_CHARS) : this.processed
    const due = target - this.acked
    if (due <= 0) return
    // Small remainders are sent once everything received is drawn, so an idle terminal owes nothing.
    if (due < ACK_CHARS && target < this.received) return
    this.acked = target
    background('bridge.pty.ack', this.bridge.pty.ack({ projectId: this.projectId, id: this.id, chars: due }).then((result) => {
      if (!result.ok && result.error.name !== 'NotFound') console.warn(`[terminal] ack failed:`, result.error.data.message)
    }))
  }

  private send(data: string): void {
    background('bridge.pty.write', this.bridge.pty.write({ projectId: this.projectId, id: this.id, data }).then((result) => {
      if (!result.ok && result.error.name !== 'NotFound') console.warn(`[terminal] input lost:`, result.error.data.message)
    }))
  }

  private resized(cols: number, rows: number): void {
    // The sizes a replay passes through are the pty's past, not a request for it.
    if (!this.replay.done) return
    if (cols === this.lastSize.cols && rows === this.lastSize.rows) return
    this.lastSize = { cols, rows }
    background('bridge.pty.resize', this.bridge.pty.resize({ projectId: this.projectId, id: this.id, cols: Math.max(2, cols), rows: Math.max(1, rows) }).then((result) => {
      if (!result.ok && result.error.name !== 'NotFound') console.warn(`[terminal] resize failed:`, result.error.data.message)
    }))
  }

  /**
   * Which keys xterm handles. App shortcuts that cannot mean anything to a shell
   * (Ctrl+Shift+…, F1, Ctrl+`, and ⌘ on macOS) go to the app; everything else,
   * Ctrl+W and Ctrl+B included, goes to the shell as a terminal user expects.
   */
  private keyFilter(e: KeyboardEvent): boolean {
    if (e.type !== 'keydown') return true
    if (matches('Mod+F', e)) {
      this.events.onFind()
      e.preventDefault()
      return false
    }
    const copy = isMac ? matches('Meta+C', e) : matches('Ctrl+Shift+C', e)
    if (copy) {
      if (this.term.hasSelection()) {
        void navigator.clipboard.writeText(this.term.getSelection()).catch((error: unknown) => {
          console.warn('[terminal] copy failed:', error)
        })
      }
      e.preventDefault()
      return false
    }
    // Let the browser turn these into a paste event, which xterm handles.
    if (isMac ? matches('Meta+V', e) : matches('Ctrl+Shift+V', e)) return false
    if (isMac && e.metaKey) return false
    if (e.ctrlKey && e.shiftKey && !e.altKey) return false
    if (e.key === 'F1' || (e.ctrlKey && e.code === 'Backquote')) return false
    return true
  }

  /**
   * Text of the buffer (scrollback included), for inspection by tests and
   * benchmarks: one line per logical line, rows the terminal wrapped joined.
   */
  text(): string {
    const buffer = this.term.buffer.active
    const lines: string[] = []
    for (let i = 0; i < buffer.length; i++) {
      const row = buffer.getLine(i)
      // Untrimmed: a space at the wrap point belongs to the line.
      const text = row?.translateToString(false) ?? ''
      if (row?.isWrapped && lines.length > 0) lines[lines.length - 1] += text
      else lines.push(text)
    }
    return lines.map((line) => line.trimEnd()).join('\n').replace(/\n+$/, '')
  }

  markExited(exitCode: number): void {
    if (!this.replay.done) {
      this.afterReplay.push(() => this.markExited(exitCode))
      return
    }
    this.term.write(`\r\n\x1b[2m[process exited with code ${exitCode}]\x1b[0m\r\n`)
    this.term.options.cursorBlink = false
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    if (this.frame !== null) cancelAnimationFrame(this.frame)
    if (this.resizeFrame !== null) cancelAnimationFrame(this.resizeFrame)
    if (this.timer !== null) clearTimeout(this.timer)
    this.offTheme()
    this.webgl?.dispose()
    this.term.dispose()
    this.container.remove()
  }
}
